import Foundation
import SiteGenCLI
import Testing

/// `sitegen build` end to end: a fixture site in a temporary folder, built through
/// `SiteGenTool.run` (and the real binary), checked by the files it leaves.
@Suite("sitegen build")
struct BuildCommandTests {
    @Test("a small site builds every kind of page, copies static files and prints a summary")
    func buildsSite() async throws {
        let site = try TemporaryFolder(smallSite)
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 0)
        #expect(console.err == nothingCached)
        let files = try snapshot(site.url.appendingPathComponent("public"))
        let expected = [
            "404.html", "about/index.html", "assets/favicon.svg", "assets/site.css", "books/by-rating/index.html",
            "books/by-title/index.html", "books/by-year/index.html", "books/index.html", "books/stoner/index.html",
            "feed.xml", "images/note.txt", "index.html", "movies/by-rating/index.html", "movies/by-title/index.html",
            "movies/by-year/index.html", "movies/index.html", "movies/parasite/index.html",
            "movies/past-lives/index.html", "robots.txt", "sitemap.xml", "tags/campus/index.html",
            "tags/index.html", "tags/korea/index.html", "tags/thriller/index.html",
            // A feed per section and per tag.
            "books/feed.xml", "movies/feed.xml", "tags/campus/feed.xml", "tags/korea/feed.xml",
            "tags/thriller/feed.xml",
            // Search: the page, its script and its index; stats: all time and each year. The
            // phone menu's script.
            "search/index.html", "assets/search.js", "assets/menu.js", "search/index.json", "search/names-0.txt",
            "search/text-0.txt", "search/docs-0.json", "stats/index.html", "stats/2024/index.html",
            "stats/2025/index.html", "stats/2026/index.html",
        ].sorted()
        #expect(files.keys.sorted() == expected)
        #expect(
            console.out.wholeMatch(
                of: /Built 23 pages \(40 files\) into public\/ in \d+\.\d\d s: 40 written, 0 unchanged, 0 removed\n/)
                != nil, "\(console.out)")
        #expect(files["robots.txt"] == Data("User-agent: *\n".utf8))
        #expect(files["images/note.txt"] == Data("static".utf8))
        let css = try #require(files["assets/site.css"])
        #expect(!css.isEmpty)
        let parasite = try text(files, "movies/parasite/index.html")
        #expect(parasite.contains(#"<h1 class="review-title" lang="en">Parasite</h1>"#))
        #expect(parasite.contains(#"<span class="rating" role="img" aria-label="4.5 out of 5 stars">★★★★½</span>"#))
        #expect(parasite.contains(#"<time datetime="2026-03-14">March 14, 2026</time>"#))
        #expect(parasite.contains(#"<a href="/tags/thriller/" rel="tag" lang="en">thriller</a>"#))
        #expect(parasite.contains(#"<link rel="stylesheet" href="/assets/site.css">"#))
        #expect(parasite.contains("<p>The <em>stairs</em>.</p>"))
        #expect(try text(files, "about/index.html").contains("<h1>About</h1>"))
        #expect(try text(files, "404.html").contains("<h1>Page not found</h1>"))
        let feed = try text(files, "feed.xml")
        #expect(feed.hasPrefix(#"<?xml version="1.0" encoding="utf-8"?>"#))
        #expect(feed.contains(#"<link rel="alternate" type="text/html" href="https://example.org/movies/parasite/"/>"#))
        let sitemap = try text(files, "sitemap.xml")
        #expect(
            sitemap.contains("<url><loc>https://example.org/movies/parasite/</loc><lastmod>2026-03-14</lastmod></url>"))
    }

    @Test("--output with a trailing slash is named once in the summary")
    func outputWithSlash() async throws {
        let site = try TemporaryFolder(smallSite)
        let console = TestConsole()
        #expect(await console.run(["build", "--output", "./out//"], in: site.url) == 0)
        #expect(console.out.hasPrefix("Built 23 pages (40 files) into ./out/ in "), "\(console.out)")
    }

    @Test("the sitemap dates a review's page by its updated day, else its date")
    func sitemapLastModified() async throws {
        let site = try TemporaryFolder([
            "site.yml": "title: T\nbase_url: https://example.org/\n",
            "content/movies/a.md": "---\ntitle: A\ndate: 2025-03-01\nupdated: 2025-06-15\n---\nx\n",
            "content/movies/b.md": "---\ntitle: B\ndate: 2025-04-01\n---\nx\n",
        ])
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let sitemap = try String(contentsOf: site.url.appendingPathComponent("public/sitemap.xml"), encoding: .utf8)
        #expect(sitemap.contains("<url><loc>https://example.org/movies/a/</loc><lastmod>2025-06-15</lastmod></url>"))
        #expect(sitemap.contains("<url><loc>https://example.org/movies/b/</loc><lastmod>2025-04-01</lastmod></url>"))
    }

    @Test("--timings prints each step of a build, and says when an up-to-date build stopped early")
    func timings() async throws {
        let site = try TemporaryFolder(smallSite)
        let first = TestConsole()
        #expect(await first.run(["build", "--timings"], in: site.url) == 0)
        let steps = try #require(first.out.split(separator: "\n").last.map(String.init))
        #expect(
            steps.wholeMatch(
                of:
                    /Steps: scan inputs \d+\.\d\d s, load \d+\.\d\d s, present \d+\.\d\d s, list pages and files \d+\.\d\d s, render and write \d+\.\d\d s, commit \d+\.\d\d s, manifest \d+\.\d\d s/
            ) != nil, "\(first.out)")
        let again = TestConsole()
        #expect(await again.run(["build", "--timings"], in: site.url) == 0)
        #expect(again.out.hasSuffix("(nothing changed since the last build)\nSteps: none (the build stopped early)\n"))
    }

    @Test("titles are HTML-escaped in pages and XML-escaped in the feed")
    func escaping() async throws {
        var files = smallSite
        files["content/movies/tom.md"] = review("title: \"Tom & Jerry <Live>\"\ndate: 2024-01-01")
        let site = try TemporaryFolder(files)
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let output = try snapshot(site.url.appendingPathComponent("public"))
        let page = try text(output, "movies/tom/index.html")
        #expect(page.contains(#"<h1 class="review-title" lang="en">Tom &amp; Jerry &lt;Live&gt;</h1>"#))
        #expect(page.contains("<title>Tom &amp; Jerry &lt;Live&gt; · Test Reviews</title>"))
        #expect(!page.contains("<Live>"))
        #expect(
            try text(output, "movies/index.html").contains(#"<a href="/movies/tom/">Tom &amp; Jerry &lt;Live&gt;</a>"#))
        #expect(try text(output, "feed.xml").contains("<title>Tom &amp; Jerry &lt;Live&gt;</title>"))
    }

    @Test("raw HTML in Markdown is left out by default and kept with raw_html: true")
    func rawHTML() async throws {
        var files = smallSite
        files["content/movies/raw.md"] = review(
            "title: Raw\ndate: 2024-01-01", body: "<div class=\"box\">boxed</div>\n\nText with <b>bold</b>.")
        let safe = try TemporaryFolder(files)
        #expect(await TestConsole().run(["build"], in: safe.url) == 0)
        let safePage = try text(snapshot(safe.url.appendingPathComponent("public")), "movies/raw/index.html")
        #expect(!safePage.contains(#"<div class="box">"#))
        #expect(!safePage.contains("<b>bold</b>"))
        #expect(safePage.contains("<!-- raw HTML omitted -->"))
        files["site.yml"] = smallSite["site.yml"]! + "raw_html: true\n"
        let unsafe = try TemporaryFolder(files)
        #expect(await TestConsole().run(["build"], in: unsafe.url) == 0)
        let unsafePage = try text(snapshot(unsafe.url.appendingPathComponent("public")), "movies/raw/index.html")
        #expect(unsafePage.contains(#"<div class="box">boxed</div>"#))
        #expect(unsafePage.contains("<p>Text with <b>bold</b>.</p>"))
    }

    @Test("a base URL with a sub-path prefixes every link; the feed and sitemap use absolute URLs")
    func subPath() async throws {
        var files = smallSite
        files["site.yml"] = "title: Test Reviews\nbase_url: https://example.org/reviews/\n"
        let site = try TemporaryFolder(files)
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let output = try snapshot(site.url.appendingPathComponent("public"))
        try expectLinks(in: output, root: "/reviews/", absolute: "https://example.org/reviews/")
        #expect(try text(output, "index.html").contains(#"<a href="/reviews/movies/parasite/">Parasite</a>"#))
    }

    @Test("--base-url overrides site.yml's base_url")
    func baseURLOption() async throws {
        let site = try TemporaryFolder(smallSite)
        let console = TestConsole()
        #expect(await console.run(["build", "--base-url", "http://localhost:8080/preview"], in: site.url) == 0)
        let output = try snapshot(site.url.appendingPathComponent("public"))
        try expectLinks(in: output, root: "/preview/", absolute: "http://localhost:8080/preview/")
    }

    @Test("a failed build exits 1, prints path:line:column: message, and leaves public/ as it was")
    func failedBuild() async throws {
        let site = try TemporaryFolder(smallSite)
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let output = site.url.appendingPathComponent("public")
        let before = try snapshot(output)
        try site.write("content/movies/bad.md", review("title: Bad\ndate: 2024-13-01\nrating: 7"))
        try site.write("content/books/worse.md", "---\ndate: 2024-01-01\n---\n")
        try site.write("content/movies/parasite.md", review("title: Parasite, changed\ndate: 2026-03-14"))
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 1)
        #expect(console.out.isEmpty)
        #expect(
            console.err == """
                content/books/worse.md:2:1: missing required field "title"
                content/movies/bad.md:3:7: "date" must be a date written YYYY-MM-DD, not "2024-13-01"
                content/movies/bad.md:4:9: "rating" must be a number from 0 to 5 in half steps (like 3.5), not "7"
                loading the site failed: 3 errors

                """)
        #expect(try snapshot(output) == before)
    }

    @Test("a second build with no changes writes nothing")
    func secondBuildWritesNothing() async throws {
        let site = try TemporaryFolder(smallSite)
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let output = site.url.appendingPathComponent("public")
        let stamps = try modificationStamps(output)
        try await Task.sleep(for: .milliseconds(20))
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 0)
        #expect(
            console.out.hasSuffix(": 0 written, 40 unchanged, 0 removed (nothing changed since the last build)\n"),
            "\(console.out)")
        #expect(try modificationStamps(output) == stamps)
    }

    @Test("two builds of the same input into two folders are byte-identical")
    func reproducible() async throws {
        let site = try TemporaryFolder(smallSite)
        #expect(await TestConsole().run(["build", "--output", "one"], in: site.url) == 0)
        #expect(await TestConsole().run(["build", "--output", "two"], in: site.url) == 0)
        let one = try snapshot(site.url.appendingPathComponent("one"))
        let two = try snapshot(site.url.appendingPathComponent("two"))
        #expect(one.count == 40)
        #expect(one.keys.sorted() == two.keys.sorted())
        for (path, data) in one {
            #expect(two[path] == data, "\(path) differs")
        }
    }

    @Test("deleting a review removes its page and its now-empty folder")
    func deletedReview() async throws {
        let site = try TemporaryFolder(smallSite)
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/movies/past-lives.md"))
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 0)
        // Its page, and the stats page of the only year it was in.
        #expect(console.out.hasSuffix(" 2 removed\n"), "\(console.out)")
        let output = site.url.appendingPathComponent("public")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("movies/past-lives").path))
        #expect(
            FileManager.default.fileExists(atPath: output.appendingPathComponent("movies/parasite/index.html").path))
        #expect(!(try text(snapshot(output), "movies/index.html")).contains("past-lives"))
    }

    @Test("--drafts includes reviews marked draft: true")
    func drafts() async throws {
        var files = smallSite
        files["content/movies/wip.md"] = review("title: Work in Progress\ndate: 2026-04-01\ndraft: true")
        let site = try TemporaryFolder(files)
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let wip = site.url.appendingPathComponent("public/movies/wip/index.html")
        #expect(!FileManager.default.fileExists(atPath: wip.path))
        #expect(await TestConsole().run(["build", "--drafts"], in: site.url) == 0)
        #expect(FileManager.default.fileExists(atPath: wip.path))
        #expect(
            try text(snapshot(site.url.appendingPathComponent("public")), "index.html").contains("Work in Progress"))
    }

    @Test("a site's own Templates/ file takes the place of the default theme's")
    func templateOverride() async throws {
        var files = smallSite
        files["Templates/review.mustache"] =
            "{{<layout}}{{$content}}<p class=\"mine\">{{review.title}}: {{review.rating.stars}}, "
            + "with {{review.extra.watched_with}}</p>{{/content}}{{/layout}}\n"
        files["Templates/assets/site.css"] = "body { color: red }\n"
        let site = try TemporaryFolder(files)
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let output = try snapshot(site.url.appendingPathComponent("public"))
        let page = try text(output, "movies/parasite/index.html")
        #expect(page.contains(#"<p class="mine">Parasite: ★★★★½, with my sister &amp; me</p>"#))
        #expect(!page.contains("review-title"))
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(try text(output, "index.html").contains(#"class="home-title""#))
        #expect(try text(output, "assets/site.css") == "body { color: red }\n")
    }

    @Test("an unclosed section in a site template fails with the template's path, line and column")
    func templateSyntaxError() async throws {
        var files = smallSite
        files["Templates/review.mustache"] = unclosedSection
        let failed = try await buildThatFails(files)
        #expect(
            failed.err == """
                Templates/review.mustache:4:1: closing tag "content" does not match "review.tags" (opened at 3:3)
                compiling templates failed: 1 error

                """)
        #expect(!failed.madeOutput)
    }

    @Test("a broken review and a broken template: one build lists both, each at its place")
    func reviewAndTemplateErrors() async throws {
        var files = smallSite
        files["Templates/review.mustache"] = unclosedSection
        files["content/movies/broken.md"] = "---\ntitle: Broken\ndate: 2024-13-01\n---\nText.\n"
        let failed = try await buildThatFails(files)
        #expect(
            failed.err == """
                Templates/review.mustache:4:1: closing tag "content" does not match "review.tags" (opened at 3:3)
                content/movies/broken.md:3:7: "date" must be a date written YYYY-MM-DD, not "2024-13-01"
                loading the site failed: 2 errors

                """)
        #expect(!failed.madeOutput)
    }

    @Test("a missing partial fails the build, naming the template and the partial tag's place")
    func missingPartial() async throws {
        var files = smallSite
        files["Templates/page.mustache"] =
            "{{<layout}}\n{{$content}}\n<h1>{{title}}</h1>\n  {{>sidebar}}\n{{/content}}\n{{/layout}}\n"
        let failed = try await buildThatFails(files)
        #expect(
            failed.err == """
                Templates/page.mustache:4:3: no template named "sidebar"
                    included from Templates/page.mustache:1:1
                    rendering about/index.html
                rendering failed: 1 error

                """)
    }

    @Test("--output pointing at the site folder, or inside its sources, is refused")
    func outputInsideSources() async throws {
        let site = try TemporaryFolder(smallSite)
        for (output, reason) in [
            (".", "it holds the site's sources"), ("content", "it is inside the site's sources"),
            ("static/out", "it is inside the site's sources"), ("..", "it is a system folder"),
        ] {
            let console = TestConsole()
            #expect(await console.run(["build", "--output", output], in: site.url) == 1, "\(output)")
            #expect(console.err.contains(": refusing to write the site into "), "\(output): \(console.err)")
            #expect(console.err.contains(": \(reason)\n"), "\(output): \(console.err)")
            #expect(console.err.hasSuffix("checking the output folder failed: 1 error\n"))
        }
        #expect(try snapshot(site.url).keys.sorted() == smallSite.keys.sorted())
    }

    @Test(
        "usage errors print the usage and exit 64",
        arguments: [
            (["build", "--frobnicate"], "sitegen build: unknown option --frobnicate\n"),
            (["build", "extra"], "sitegen build: unexpected argument extra\n"),
            (["build", "--output"], "sitegen build: option --output needs a value\n"),
            (["build", "--drafts=yes"], "sitegen build: option --drafts takes no value\n"),
            (
                ["build", "--base-url", "ftp://example.org/"],
                "sitegen build: --base-url must be an absolute http or https URL, not \"ftp://example.org/\"\n"
            ),
            (
                ["build", "--base-url", "https://example.org/reviews//"],
                "sitegen build: --base-url cannot have an empty, \".\" or \"..\" part in its path, as "
                    + "\"https://example.org/reviews//\" has: every link of the site starts with that path, and "
                    + "//assets/ would be another host's, /../ another folder\n"
            ),
            (
                ["build", "--base-url", "https://example.org/../x/"],
                "sitegen build: --base-url cannot have an empty, \".\" or \"..\" part in its path, as "
                    + "\"https://example.org/../x/\" has: every link of the site starts with that path, and "
                    + "//assets/ would be another host's, /../ another folder\n"
            ),
        ])
    func usageErrors(arguments: [String], message: String) async throws {
        let site = try TemporaryFolder(smallSite)
        let console = TestConsole()
        #expect(await console.run(arguments, in: site.url) == 64)
        #expect(console.err.hasPrefix(message + "Usage: sitegen build [--source DIR]"), "\(console.err)")
        #expect(console.out.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
    }

    @Test("--source names the site folder; warnings go to standard error and the build succeeds")
    func sourceAndWarnings() async throws {
        let folder = try TemporaryFolder()
        for (path, text) in smallSite { try folder.write("site/\(path)", text) }
        try folder.write("site/content/movies/notes.txt", "not a review")
        let console = TestConsole()
        #expect(await console.run(["build", "--source", "site", "--output", "out"], in: folder.url) == 0)
        #expect(
            console.err
                == "content/movies/notes.txt:1:1: warning: ignored: only .md files belong in a section folder\n"
                + nothingCached)
        #expect(console.out.contains(" into out/ in "))
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("out/index.html").path))
    }

    @Test("a Korean site: lang, dates, rating labels and Korean slugs in links")
    func koreanSite() async throws {
        var files = smallSite
        files["site.yml"] = "title: 여백\nbase_url: https://example.org/\nlanguage: ko\n"
        files["content/books/아몬드.md"] = review("title: 아몬드\ndate: 2026-03-14\nrating: 4.5")
        let site = try TemporaryFolder(files)
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let output = try snapshot(site.url.appendingPathComponent("public"))
        let page = try text(output, "books/아몬드/index.html")
        #expect(page.contains(#"<html lang="ko">"#))
        #expect(page.contains(#"<time datetime="2026-03-14">2026년 3월 14일</time>"#))
        #expect(page.contains(#"aria-label="별 5개 중 4.5개">★★★★½</span>"#))
        #expect(page.contains("<title>아몬드 · 여백</title>"))
        #expect(
            try text(output, "books/index.html").contains(
                #"<a href="/books/%EC%95%84%EB%AA%AC%EB%93%9C/">아몬드</a>"#))
    }

    @Test("a file in static/ that links outside it is refused")
    func staticLinkOutside() async throws {
        let site = try TemporaryFolder(smallSite)
        let outside = try TemporaryFolder(["secret.txt": "do not publish"])
        try FileManager.default.createSymbolicLink(
            at: site.url.appendingPathComponent("static/leak.txt"),
            withDestinationURL: outside.url.appendingPathComponent("secret.txt"))
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 1)
        #expect(
            console.err == """
                static/leak.txt:1:1: refused: it is a link to a place outside the site folder
                loading the site failed: 1 error

                """)
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
    }

    @Test("a file in static/ that would replace a generated page is an error, not silently dropped")
    func staticClash() async throws {
        let site = try TemporaryFolder(smallSite)
        try site.write("static/feed.xml", "<mine/>")
        try site.write("static/movies/parasite/index.html", "hand-made")
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 1)
        #expect(
            console.err == """
                static/feed.xml:1:1: static/feed.xml would replace the page sitegen generates at /feed.xml: rename or remove it
                static/movies/parasite/index.html:1:1: static/movies/parasite/index.html would replace the page sitegen generates at /movies/parasite/index.html: rename or remove it
                copying static files failed: 2 errors

                """)
    }

    @Test("a folder that is not a site says so")
    func notASite() async throws {
        let folder = try TemporaryFolder(["readme.txt": "hello"])
        let console = TestConsole()
        #expect(await console.run(["build"], in: folder.url) == 1)
        #expect(console.err.hasPrefix("site.yml:1:1: no site.yml here: is "))
        #expect(console.err.hasSuffix(" a site folder?\nloading the site failed: 1 error\n"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("public").path))
    }

    @Test("the built binary builds a site and reports a broken one with exit code 1")
    func binary() throws {
        let binary = try BuiltBinary("sitegen")
        let site = try TemporaryFolder(smallSite)
        let built = try binary.run(["build"], in: site.url)
        #expect(built.status == 0, "\(built.err)")
        #expect(built.outText.hasPrefix("Built 23 pages (40 files) into public/ in "))
        #expect(built.err == nothingCached)
        let output = try snapshot(site.url.appendingPathComponent("public"))
        #expect(output.count == 40)
        #expect(try text(output, "movies/parasite/index.html").contains("★★★★½"))
        try site.write("content/movies/parasite.md", review("title: Parasite\ndate: someday"))
        let failed = try binary.run(["build"], in: site.url)
        #expect(failed.status == 1)
        #expect(
            failed.err
                == "content/movies/parasite.md:3:7: \"date\" must be a date written YYYY-MM-DD, not \"someday\"\n"
                + "loading the site failed: 1 error\n")
        #expect(try snapshot(site.url.appendingPathComponent("public")) == output)
    }
}

/// The small site's warnings: its one unknown front matter key, and its two reviews that name
/// a film or book, with no metadata cache.
private let nothingCached =
    "content/movies/parasite.md:8:1: warning: \"watched_with\" is not a field sitegen knows: templates get it as "
    + "review.extra.watched_with; if that is meant, list it in site.yml under extra_fields\n"
    + "warning: 2 reviews name a film or book with nothing in the metadata cache: run sitegen fetch "
    + "(--verbose lists them)\n"

/// A review file with front matter and a body.
/// A review template whose section `review.tags` is never closed (line 3, column 3).
private let unclosedSection = "{{<layout}}\n{{$content}}\n  {{#review.tags}}\n{{/content}}\n{{/layout}}\n"

private func review(_ frontMatter: String, body: String = "A review.") -> String {
    "---\n\(frontMatter)\n---\n\(body)\n"
}

/// Two sections (one with an `_index.md`), three reviews with tags, a plain page and static files.
private let smallSite: [String: String] = [
    "site.yml": "title: Test Reviews\nbase_url: https://example.org/\nauthor: Tester\n",
    "content/movies/_index.md": review("title: Films\nkind: movie", body: "Films, *newest* first."),
    "content/movies/parasite.md": review(
        "title: Parasite\ndate: 2026-03-14\nrating: 4.5\ntags: [thriller, korea]\ndirector: Bong Joon-ho\nyear: 2019"
            + "\nwatched_with: my sister & me",
        body: "The *stairs*."),
    "content/movies/past-lives.md": review("title: Past Lives\ndate: 2025-06-01\nrating: 4\ntags: [korea]"),
    "content/books/stoner.md": review("title: Stoner\ndate: 2024-11-02\ntags: [campus]\nauthor: John Williams"),
    "content/about.md": review("title: About", body: "Who writes here."),
    "static/robots.txt": "User-agent: *\n",
    "static/images/note.txt": "static",
]

/// Every regular file under `folder`, by relative path.
/// The visible files below `folder` (not sitegen's hidden `.sitegen-output` record).
private func snapshot(_ folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path)
    where !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
        let url = folder.appendingPathComponent(path)
        let type = try FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType
        if type == .typeRegular { files[path] = try Data(contentsOf: url) }
    }
    return files
}

/// Each file's inode and modification date, which a rewrite would change.
private func modificationStamps(_ folder: URL) throws -> [String: String] {
    var stamps: [String: String] = [:]
    for path in try snapshot(folder).keys {
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)
        let inode = (attributes[.systemFileNumber] as? NSNumber)?.stringValue ?? "?"
        let date = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        stamps[path] = "\(inode) \(date)"
    }
    return stamps
}

private func text(_ files: [String: Data], _ path: String) throws -> String {
    String(decoding: try #require(files[path], "no \(path) in the output"), as: UTF8.self)
}

/// Every link in every page starts with `root` (or is the absolute URL under `absolute`),
/// and the feed and sitemap link only to absolute URLs under `absolute`.
private func expectLinks(in files: [String: Data], root: String, absolute: String) throws {
    var checked = 0
    for (path, data) in files where path.hasSuffix(".html") {
        let html = String(decoding: data, as: UTF8.self)
        for match in html.matches(of: /(?:href|src)="([^"]*)"/) {
            let link = String(match.output.1)
            checked += 1
            #expect(
                link.hasPrefix(root) || link.hasPrefix(absolute) || link.hasPrefix("#"),
                "\(path) links to \(link)")
        }
        for match in html.matches(of: /<link rel="canonical" href="([^"]*)">/) {
            #expect(match.output.1.hasPrefix(absolute), "\(path): canonical \(match.output.1)")
        }
    }
    #expect(checked > 100)
    for name in ["feed.xml", "sitemap.xml"] {
        let xml = try text(files, name)
        let urls = xml.matches(of: /(?:href="|<loc>|<id>)([^"<]*)/).map { String($0.output.1) }
        #expect(urls.count > 3)
        for url in urls { #expect(url.hasPrefix(absolute), "\(name) links to \(url)") }
    }
}
