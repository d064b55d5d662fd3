import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A reviewer's mistakes are never silent: typed keys, extra keys, tags written as one text,
/// raw HTML left out and reviews dated in the future, each through `sitegen build` (the
/// release binary under `Scripts/test`) as the person at the terminal sees them.
@Suite("A reviewer's mistakes")
struct ReviewerMistakesTests {
    @Test("a key close to a known one is an error suggesting it: reviews (any case), _index.md, plain pages")
    func typos() async throws {
        let site = try TemporaryFolder([
            "site.yml": "title: T\nbase_url: https://example.org/\n",
            "content/movies/x.md": page("title: X\ndate: 2024-01-01\nratng: 4\nTags: [a]\nwatched_with: me"),
            "content/tv/_index.md": page("title: Series\nsrot: title"),
            "content/books/y.md": page("title: Y\ndate: 2024-01-01\nautor: A"),
            "content/about.md": page("title: About\nsumary: Who"),
        ])
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 1)
        #expect(
            console.err == """
                content/about.md:3:1: "sumary" is not a field; did you mean "summary"?
                content/books/y.md:4:1: "autor" is not a field; did you mean "author"?
                content/movies/x.md:4:1: "ratng" is not a field; did you mean "rating"?
                content/movies/x.md:5:1: "Tags" is not a field; did you mean "tags"?
                content/tv/_index.md:3:1: "srot" is not a field; did you mean "sort"?
                loading the site failed: 5 errors

                """)
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
    }

    @Test("site.yml: a key close to a known one suggests it; any other lists the known ones")
    func siteTypos() async throws {
        let site = try TemporaryFolder([
            "site.yml": "title: T\nbase_url: https://example.org/\nlangauge: de\ncolour: red\n",
            "content/movies/x.md": page("title: X\ndate: 2024-01-01"),
        ])
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 1)
        #expect(
            console.err == """
                site.yml:3:1: "langauge" is not a field; did you mean "language"?
                site.yml:4:1: "colour" is not a field of site.yml (its fields are author, base_url, description, extra_fields, image, labels, language, list_page_size, metadata, page_size, raw_html, title)
                loading the site failed: 2 errors

                """)
    }

    @Test(
        "other unknown keys reach templates as extra, with one warning per key name per build unless extra_fields lists them"
    )
    func extraFields() async throws {
        var files = [
            "site.yml": "title: T\nbase_url: https://example.org/\n",
            "content/movies/a.md": page("title: A\ndate: 2024-01-01\nwatched_with: my sister"),
            "content/movies/b.md": page("title: B\ndate: 2024-01-02\nwatched_with: alone\nmood: grey"),
            "content/movies/c.md": page("title: C\ndate: 2024-01-03\nwatched_with: friends"),
            "content/about.md": page("title: About\nmood: calm"),
            "Templates/review.mustache": "{{review.title}} with {{review.extra.watched_with}}\n",
        ]
        let warned = try TemporaryFolder(files)
        let console = TestConsole()
        #expect(await console.run(["build"], in: warned.url) == 0)
        #expect(
            console.err == """
                content/about.md:3:1: warning: "mood" is not a field sitegen knows: templates get it as extra.mood; if that is meant, list it in site.yml under extra_fields (2 files have it; this is the first)
                content/movies/a.md:4:1: warning: "watched_with" is not a field sitegen knows: templates get it as review.extra.watched_with; if that is meant, list it in site.yml under extra_fields (3 files have it; this is the first)

                """)
        #expect(try read(warned, "public/movies/b/index.html") == "B with alone\n")

        // Listed: no warning, and a listed key may even be close to a known one.
        files["site.yml"]! += "extra_fields: [watched_with, mood, rate]\n"
        files["content/movies/d.md"] = page("title: D\ndate: 2024-01-04\nrate: 5\nwatched_with: nobody")
        let listed = try TemporaryFolder(files)
        let quiet = TestConsole()
        #expect(await quiet.run(["build"], in: listed.url) == 0)
        #expect(quiet.err == "")
        #expect(try read(listed, "public/movies/d/index.html") == "D with nobody\n")
    }

    @Test("tags written as one text with commas are an error that shows the list; a comma inside a listed tag is kept")
    func commaTags() async throws {
        let site = try TemporaryFolder([
            "site.yml": "title: T\nbase_url: https://example.org/\n",
            "content/movies/a.md": page("title: A\ndate: 2024-01-01\ntags: horror, sci-fi"),
            "content/movies/b.md": page("title: B\ndate: 2024-01-01\ntags: \"noir, Hong Kong: 1960s\""),
        ])
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 1)
        #expect(
            console.err == """
                content/movies/a.md:4:7: "tags" is one text with commas in it; write a list: tags: [horror, sci-fi] (a tag with a comma in it goes in quotes inside the list)
                content/movies/b.md:4:7: "tags" is one text with commas in it; write a list: tags: [noir, "Hong Kong: 1960s"] (a tag with a comma in it goes in quotes inside the list)
                loading the site failed: 2 errors

                """)
        try site.write("content/movies/a.md", page("title: A\ndate: 2024-01-01\ntags: [\"Love, Actually\", drama]"))
        try site.write("content/movies/b.md", page("title: B\ndate: 2024-01-01\ntags: noir"))
        let fixed = TestConsole()
        #expect(await fixed.run(["build"], in: site.url) == 0, "\(fixed.err)")
        #expect(try read(site, "public/tags/love-actually/index.html").contains("Love, Actually"))
    }

    @Test("raw HTML left out is a warning once per file, at the first piece, saying how to allow it")
    func rawHTML() async throws {
        var files = [
            "site.yml": "title: T\nbase_url: https://example.org/\n",
            "content/movies/raw.md": page("title: Raw\ndate: 2024-01-01", body: "Intro.\n\nCafé <b>bold</b>.\n"),
            "content/movies/_index.md": page(
                "title: Films\nkind: movie", body: "<div class=\"intro\">\nFilms.\n</div>\n"),
            "content/about.md": page("title: About", body: "Plain.\n\n<div>\nx\n</div>\n"),
            "content/movies/plain.md": page("title: Plain\ndate: 2024-01-01", body: "Only *Markdown*."),
        ]
        let safe = try TemporaryFolder(files)
        let console = TestConsole()
        #expect(await console.run(["build"], in: safe.url) == 0)
        let advice = "write it in Markdown, or set raw_html: true in site.yml to let it through"
        #expect(
            console.err == """
                content/about.md:6:1: warning: raw HTML is left out of the page here: \(advice)
                content/movies/_index.md:5:1: warning: raw HTML is left out of the page here: \(advice)
                content/movies/raw.md:7:6: warning: raw HTML is left out of the page here and in 1 more place: \(advice)

                """)
        #expect(try read(safe, "public/movies/raw/index.html").contains("Café <!-- raw HTML omitted -->bold"))

        files["site.yml"]! += "raw_html: true\n"
        let allowed = try TemporaryFolder(files)
        let quiet = TestConsole()
        #expect(await quiet.run(["build"], in: allowed.url) == 0)
        #expect(quiet.err == "")
        #expect(try read(allowed, "public/movies/raw/index.html").contains("Café <b>bold</b>"))
    }

    @Test(
        "reviews dated after today are left out until their day, said once; the build manifest does not hide that day")
    func futureReviews() async throws {
        let site = try TemporaryFolder(datedSite)
        let early = TestConsole()
        #expect(await early.run(["build"], in: site.url, variables: ["SITEGEN_TODAY": "2026-03-10"]) == 0)
        let twoLeft =
            "warning: 2 reviews are dated after today and left out until their dates, the first on "
            + "2026-03-14 and the last on 2026-04-02: --future includes them\n"
        #expect(early.err == twoLeft)
        #expect(try exists(site, "public/movies/past/index.html"))
        #expect(try !exists(site, "public/movies/soon/index.html"))
        #expect(try !read(site, "public/index.html").contains("Soon"))

        // The next day nothing is due: the manifest's shortcut holds, and still says what is left out.
        let nextDay = TestConsole()
        #expect(await nextDay.run(["build"], in: site.url, variables: ["SITEGEN_TODAY": "2026-03-11"]) == 0)
        #expect(nextDay.out.contains("(nothing changed since the last build)"))
        #expect(nextDay.err == twoLeft)

        // The day comes, with no file changed: the review is published.
        let due = TestConsole()
        #expect(await due.run(["build"], in: site.url, variables: ["SITEGEN_TODAY": "2026-03-14"]) == 0)
        #expect(!due.out.contains("nothing changed"))
        #expect(
            due.err == "warning: 1 review is dated after today and left out until 2026-04-02: --future includes it\n")
        #expect(try exists(site, "public/movies/soon/index.html"))
        #expect(try !exists(site, "public/movies/later/index.html"))

        let future = TestConsole()
        #expect(await future.run(["build", "--future"], in: site.url, variables: ["SITEGEN_TODAY": "2026-03-14"]) == 0)
        #expect(future.err == "")
        #expect(try exists(site, "public/movies/later/index.html"))
    }

    @Test("a SITEGEN_TODAY that is not a date is an error")
    func badToday() async throws {
        let site = try TemporaryFolder(datedSite)
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url, variables: ["SITEGEN_TODAY": "tomorrow"]) == 1)
        #expect(console.err == "SITEGEN_TODAY must be a date written YYYY-MM-DD, not \"tomorrow\"\n")
        #expect(try !exists(site, "public"))
    }

    @Test("serve leaves future reviews out unless --future, says so, and lists uncached reviews with --verbose")
    func serveFuture() async throws {
        var files = datedSite
        files["content/movies/heat.md"] = page("title: Heat\ndate: 2024-01-01\nyear: 1995")
        let site = try TemporaryFolder(files)
        let server = try RunningBinary(
            ["serve", "--port", "0", "--verbose"], in: site.url, variables: ["SITEGEN_TODAY": "2026-03-10"])
        let url = try #require(await server.servedURL(timeout: 30), "\(server.err)")
        #expect(
            server.err
                == "content/movies/heat.md:1:1: warning: names film \"Heat\" (1995) but the metadata cache has nothing "
                + "for it: run sitegen fetch\n"
                + "warning: 2 reviews are dated after today and left out until their dates, the first on "
                + "2026-03-14 and the last on 2026-04-02: --future includes them\n")
        #expect(try await status(url + "movies/past/") == 200)
        #expect(try await status(url + "movies/soon/") == 404)
        server.send(SIGINT)
        #expect(try await server.waitForExit() == 0)

        let all = try RunningBinary(
            ["serve", "--port", "0", "--future"], in: site.url, variables: ["SITEGEN_TODAY": "2026-03-10"])
        let allURL = try #require(await all.servedURL(timeout: 30), "\(all.err)")
        #expect(
            all.err
                == "warning: 1 review names a film or book with nothing in the metadata cache: run sitegen fetch "
                + "(--verbose lists it)\n")
        #expect(try await status(allURL + "movies/later/") == 200)
        all.send(SIGINT)
        #expect(try await all.waitForExit() == 0)
    }
}

/// Three films: one past, two dated after 2026-03-10.
private let datedSite = [
    "site.yml": "title: T\nbase_url: https://example.org/\n",
    "content/movies/past.md": page("title: Past\ndate: 2026-03-01"),
    "content/movies/soon.md": page("title: Soon\ndate: 2026-03-14"),
    "content/movies/later.md": page("title: Later\ndate: 2026-04-02"),
]

/// A Markdown file with front matter and a body.
private func page(_ frontMatter: String, body: String = "Text.") -> String {
    "---\n\(frontMatter)\n---\n\(body)\n"
}

private func read(_ folder: borrowing TemporaryFolder, _ path: String) throws -> String {
    try String(contentsOf: folder.url.appendingPathComponent(path), encoding: .utf8)
}

private func exists(_ folder: borrowing TemporaryFolder, _ path: String) throws -> Bool {
    FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(path).path)
}

/// The status of a GET.
private func status(_ url: String) async throws -> Int {
    let (_, response) = try await URLSession.shared.data(from: URL(string: url)!)
    return (response as? HTTPURLResponse)?.statusCode ?? 0
}
