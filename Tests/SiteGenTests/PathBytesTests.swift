import Foundation
import Testing

@testable import SiteGen

#if canImport(Glibc)
    import Glibc
#endif

/// Paths with a name that starts with a combining mark (`a/\u{301}b`), where a `/` and the mark
/// are one Swift Character: each step cuts them at the `/` byte, as the kernel does.
@Suite("Paths cut at slash bytes")
struct PathBytesTests {
    @Test("a review's file: a bundle's index.md is one, and the default slug is the name")
    func reviewFile() {
        #expect(ReviewFile.isBundle("content/movies/\u{301}x/index.md"))
        #expect(ReviewFile.defaultSlug(of: "content/movies/\u{301}x/index.md") == "\u{301}x")
        #expect(ReviewFile.defaultSlug(of: "content/movies/\u{301}y.md") == "\u{301}y")
    }

    @Test("Markdown links: ../ before such a name climbs, and a root-relative image goes under the base path")
    func markdownLinks() throws {
        let source = "content/books/a.md"
        let front = try FrontMatter(
            splitting: "---\ntitle: A\n---\n[x](../\u{301}x.md#\u{301}f) [out](../../../\u{301}y.md) "
                + "![i](/\u{301}i.png)\n",
            path: source)
        let links = MarkdownLinks(basePath: "/reviews/", targets: { $0 == "content/\u{301}x.md" ? "\u{301}x/" : nil })
        let (rendered, found) = links.render(front, source: source, allowRawHTML: false)
        #expect(found.map(\.target) == ["content/\u{301}x.md", nil])
        #expect(
            rendered.html
                == """
                <p><a href="/reviews/%CC%81x/#%CC%81f">x</a> <a href="../../../%CC%81y.md">out</a> \
                <img src="/reviews/%CC%81i.png" alt="i" /></p>

                """)
    }

    @Test("site.yml's image: a `..` before such a name is refused, and a leading `/` is dropped")
    func siteImage() {
        let settings = "title: T\nbase_url: https://example.org/\nimage: "
        let (climbing, problems) = SiteConfig.read(settings + "\"../\\u0301x.png\"\n", path: "site.yml")
        #expect(climbing?.image == nil)
        #expect(problems.map(\.message) == ["\"image\" must be the path of a file in static/, like images/card.png"])
        let (rooted, none) = SiteConfig.read(settings + "\"/\\u0301x.png\"\n", path: "site.yml")
        #expect(rooted?.image == "\u{301}x.png")
        #expect(none.isEmpty)
    }

    @Test("an output folder inside the site's sources, or holding the site folder, is refused")
    func outputFolder() throws {
        let scratch = try ScratchFolder()
        try scratch.write("\u{301}site/site.yml", "title: x\n")
        let site = scratch.url.appendingPathComponent("\u{301}site")
        #expect(
            OutputFolder.refusal(output: site.appendingPathComponent("content/\u{301}out"), source: site, home: "/root")
                == "it is inside the site's sources")
        #expect(OutputFolder.refusal(output: scratch.url, source: site, home: "/root") == "it holds the site's sources")
        // A source that is a link into the output, or to a folder that holds it: it would be
        // read from the output, then removed from it.
        try FileManager.default.createDirectory(
            at: site.appendingPathComponent("public/theme"), withIntermediateDirectories: true)
        for target in ["public/theme", "."] {
            try? FileManager.default.removeItem(at: site.appendingPathComponent("Templates"))
            try FileManager.default.createSymbolicLink(
                atPath: site.appendingPathComponent("Templates").path, withDestinationPath: target)
            #expect(
                OutputFolder.refusal(output: site.appendingPathComponent("public"), source: site, home: "/root")
                    == "the site's Templates is a link into it, or to a folder that holds it", "\(target)")
        }
        try FileManager.default.removeItem(at: site.appendingPathComponent("Templates"))
        #expect(OutputFolder.refusal(output: site.appendingPathComponent("public"), source: site, home: "/root") == nil)
    }

    @Test("an output folder that a link inside the sources leads into, or that holds where one leads, is refused")
    func outputFolderOfNestedLinks() throws {
        let scratch = try ScratchFolder()
        try scratch.write("site/site.yml", "title: x\n")
        try scratch.write("site/films/heat.md", "my only copy")
        try scratch.write("site/shelf/keep.txt", "mine")
        try scratch.write("site/tp/review.mustache", "mine")
        try scratch.write("site/content/books/2046/index.md", "x")
        try scratch.write("site/static/a.txt", "x")
        try scratch.write("site/Templates/page.mustache", "x")
        let site = scratch.url.appendingPathComponent("site")
        let link = { (path: String, target: String) in
            try FileManager.default.createSymbolicLink(
                atPath: site.appendingPathComponent(path).path, withDestinationPath: target)
        }
        try link("content/movies", "../films")
        try link("static/sub", "../shelf")
        try link("content/books/2046/poster.jpg", "../../../shelf/keep.txt")
        try link("Templates/review.mustache", "../tp/review.mustache")
        let refusal = { (output: String) in
            OutputFolder.refusal(output: site.appendingPathComponent(output), source: site, home: "/root")
        }
        #expect(refusal("films") == "the site's content/movies is a link into it, or to a folder that holds it")
        #expect(refusal("films/sub") == "the site's content/movies is a link into it, or to a folder that holds it")
        #expect(
            refusal("shelf")
                == "the site's content/books/2046/poster.jpg is a link into it, or to a folder that holds it")
        #expect(refusal("tp") == "the site's Templates/review.mustache is a link into it, or to a folder that holds it")
        #expect(refusal("public") == nil)
        // A link inside a folder reached by a link, and a loop, which is searched once.
        try FileManager.default.removeItem(at: site.appendingPathComponent("content/books/2046/poster.jpg"))
        #expect(refusal("shelf") == "the site's static/sub is a link into it, or to a folder that holds it")
        try link("films/again", ".")
        try link("films/cover.jpg", "../tp/review.mustache")
        #expect(refusal("tp") == "the site's content/movies/cover.jpg is a link into it, or to a folder that holds it")
        #expect(refusal("public") == nil)
        // Links out of the site are found, never searched (a link to / would be the whole disk).
        try link("content/root", "/")
        #expect(refusal("public") == nil, "the loading refuses a link out of the site, in its own words")
        try FileManager.default.moveItem(
            at: site.appendingPathComponent("static"), to: scratch.url.appendingPathComponent("static"))
        try link("static", "../static")
        let links = OutputFolder.followedLinks(in: SafePath.realPath(site.path) ?? site.path)
        #expect(links.first { $0.path == "content/root" }?.target == "/")
        #expect(links.contains { $0.path == "static" })
        #expect(!links.contains { $0.path.hasPrefix("content/root/") || $0.path.hasPrefix("static/") })
    }

    @Test(".sitegen may not be a link out of the site, nor into a folder the site reads or publishes, nor to the site")
    func stateFolderLinks() throws {
        let scratch = try ScratchFolder()
        try scratch.write("site/site.yml", "title: x\n")
        try scratch.write("site/static/inner/keep.txt", "mine")
        try scratch.write("site/notes/keep.txt", "mine")
        let site = scratch.url.appendingPathComponent("site")
        let link = site.appendingPathComponent(".sitegen")
        let cases: [(String, String?)] = [
            (
                "static",
                "refused: it is a link into static/, and sitegen writes its own files there (its records would be read or published as the site's); make it a folder of its own, or remove it"
            ),
            (
                "static/inner",
                "refused: it is a link into static/, and sitegen writes its own files there (its records would be read or published as the site's); make it a folder of its own, or remove it"
            ),
            (
                ".",
                "refused: it is a link into the site folder itself, and sitegen writes its own files there (its records would be read or published as the site's); make it a folder of its own, or remove it"
            ),
            (
                "..",
                "refused: it is a link that leads out of the site folder (or nowhere), and sitegen writes its own files there; make it a folder, or remove it"
            ),
            ("notes", nil),
        ]
        for (target, message) in cases {
            try? FileManager.default.removeItem(at: link)
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target)
            #expect(StateFolder.refusal(in: site)?.message == message, "\(target)")
        }
    }

    @Test("a page in a new folder of such a name is placed in an output folder sitegen wrote before")
    func outputPlaced() throws {
        let folder = try ScratchFolder()
        let home = Data("home".utf8)
        _ = try OutputWriter(folder: folder.url).write(["index.html": home])
        let report = try OutputWriter(folder: folder.url).write([
            "index.html": home, "a/\u{301}b/index.html": Data("b".utf8),
        ])
        #expect(report == OutputWriter.Report(written: 1, unchanged: 1, removed: 0))
        #expect(try folder.contents(hidden: false) == ["index.html": "home", "a/\u{301}b/index.html": "b"])
    }

    @Test("serve sees a change to such a file, and a bundle folder of such a name put in a section")
    func watchTable() throws {
        let folder = try ScratchFolder()
        try folder.write("content/movies/a.md", "a")
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        defer { close(descriptor) }
        var table = WatchTable(descriptor: descriptor, root: folder.url.path, watched: ["content", "static"])
        table.watchEverything()
        let watch = { (path: String) in table.folders.first { $0.value == path }?.key ?? -1 }
        let saved = WatchEvent(watch: watch("content"), mask: UInt32(IN_CLOSE_WRITE), name: "\u{301}x.md")
        #expect(table.apply(saved) == ["content/\u{301}x.md"])
        try folder.write("content/movies/\u{301}b/index.md", "b")
        let made = WatchEvent(watch: watch("content/movies"), mask: UInt32(IN_CREATE | IN_ISDIR), name: "\u{301}b")
        #expect(table.apply(made) == ["content/movies/\u{301}b", "content/movies/\u{301}b/index.md"])
    }

    @Test("a name starting with the byte '.' is hidden, a combining mark after it too: not read, not published")
    func hiddenByByte() throws {
        let hidden = ".\u{301}x"
        let site = InMemorySite([
            "content/movies/a.md": "---\ntitle: A\ndate: 2024-01-01\n---\nA.\n",
            "content/movies/\(hidden).md": "---\ntitle: Hidden\ndate: 2024-01-01\n---\nB.\n",
            "static/\(hidden).txt": "not published",
            "static/\(hidden)/y.txt": "not published either",
            "static/\u{301}.txt": "published: a mark, then a dot",
            "static/ok.txt": "published",
        ])
        let content = try site.load()
        #expect(content.reviews.map(\.title) == ["A"])
        #expect(content.staticFiles.keys.filter { !$0.hasPrefix("assets/") }.sorted() == ["ok.txt", "\u{301}.txt"])
        let folder = try ScratchFolder()
        try folder.write("site.yml", "title: T\n")
        try folder.write("content/movies/\(hidden).md", "x")
        try folder.write("static/\(hidden)/y.txt", "x")
        let scanned = BuildManifest.scan(folder.url)?.map(\.path).sorted()
        #expect(scanned == ["content/", "content/movies/", "site.yml", "static/"])
        var undecodable: [String] = []
        #expect(OutputTransaction.visibleFiles(in: folder.url.path, undecodable: &undecodable) == ["site.yml"])
    }

    @Test("the link checker: root-relative and absolute links to such a name reach its file")
    func linkResolver() throws {
        let resolver = LinkResolver(base: try #require(BaseURL("https://example.org/")), files: ["\u{301}x/index.html"])
        let file = LinkTarget.file("\u{301}x/index.html", fragment: nil)
        #expect(resolver.resolve("/\u{301}x/", from: "/movies/") == file)
        #expect(resolver.resolve("https://example.org/\u{301}x/", from: "/movies/") == file)
        #expect(
            resolver.resolve("/\u{301}x/?\u{301}q#\u{301}f", from: "/movies/")
                == LinkTarget.file("\u{301}x/index.html", fragment: "\u{301}f"))
    }

    /// U+0600 is a "prepend" mark: it joins the Character after it, so `\u{600}/` is one
    /// Character and `hasSuffix("/")` denies that the path ends with a slash.
    @Test("a path ending in a prepend mark and '/' ends with a slash: link checker, fetch --only")
    func prependBeforeSlash() throws {
        #expect("a/\u{600}/".endsWithSlash && !"a/\u{600}".endsWithSlash)
        let resolver = LinkResolver(base: try #require(BaseURL("https://example.org/")), files: ["\u{600}/index.html"])
        #expect(resolver.resolve("/\u{600}/", from: "/movies/") == .file("\u{600}/index.html", fragment: nil))

        let reviews = try InMemorySite([
            "content/movies/\u{600}/index.md":
                "---\ntitle: Mark\ndate: 2024-01-01\nyear: 2018\nslug: mark\n---\nText.\n",
            "content/movies/other.md": "---\ntitle: Other\ndate: 2024-01-02\nyear: 2019\n---\nText.\n",
        ]).load().reviews
        let cache = try ScratchFolder()
        let fetcher = MetadataFetcher(
            cache: MetadataCache(folder: cache.url), sources: .defaults, language: .english,
            client: CurlHTTPClient(), options: .init(only: ["content/movies/\u{600}/"]))
        #expect(fetcher.jobs(for: reviews).jobs.flatMap(\.sources) == ["content/movies/\u{600}/index.md"])
    }
}
