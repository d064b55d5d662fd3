import Foundation
import Testing

/// `sitegen check` end to end: it builds the site, then reads what the build wrote.
@Suite("sitegen check")
struct CheckCommandTests {
    static let config = "title: T\nbase_url: https://example.org/reviews/\nraw_html: true\n"

    /// `text` with the run's time taken out of the summary line.
    func timeless(_ text: String) -> String {
        text.replacing(/, in \d+\.\d\d s\./, with: ", in T s.")
    }

    @Test("a new site passes: exit 0 and a summary")
    func newSitePasses() async throws {
        let folder = try TemporaryFolder()
        #expect(await TestConsole().run(["init"], in: folder.url, variables: ["SITEGEN_TODAY": "2026-11-30"]) == 0)
        let console = TestConsole()
        #expect(await console.run(["check"], in: folder.url) == 0)
        #expect(console.err == "")
        let lines = console.out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("Built 21 pages (39 files) into public/") == true)
        #expect(
            timeless(String(lines.last ?? "")).wholeMatch(
                of: /Checked 21 pages in public\/: \d+ links to \d+ files of the site; none broken, in T s\./) != nil,
            "\(console.out)")
        // The second check builds nothing: the build stops early.
        let again = TestConsole()
        #expect(await again.run(["check"], in: folder.url) == 0)
        #expect(again.out.contains("(nothing changed since the last build)"))
    }

    @Test(
        "broken links, fragments, images, srcset entries and links that leave the base path are named with their page")
    func brokenLinks() async throws {
        let folder = try TemporaryFolder([
            "site.yml": Self.config,
            "content/movies/a.md": """
            ---
            title: A
            date: 2026-01-01
            ---
            [gone](/movies/gone/) [to b](/books/b/#cast) [b ok](/books/b/#top) [top](#TOP) [b also](../../books/b/)
            [self](#nowhere) [abs](https://example.org/reviews/books/) [out](https://example.org/elsewhere/)
            [mail](mailto:me@example.org) [rel](nope/) [folder](/books/b) [see b](../books/b.md)

            ![missing](/images/none.png)

            <img src="/reviews/images/x.png" srcset="/reviews/images/x.png 1x, /reviews/missing-2x.png 2x" alt="">
            <a href="/top-level/">forgot the base path</a>

            """,
            "content/books/b.md":
                "---\ntitle: B\ndate: 2026-01-02\n---\n<h2 id=\"found\">B</h2>\n\n[back](/movies/a/#found)\n",
            "static/images/x.png": "not really a png",
        ])
        let console = TestConsole()
        #expect(await console.run(["check"], in: folder.url) == 1)
        #expect(
            console.err == """
                public/books/b/index.html: broken link /reviews/movies/a/#found (no element with id "found" on /movies/a/)
                public/feed.xml: broken link nope/ (no such page)
                public/movies/a/index.html: broken link #nowhere (no element with id "nowhere" on this page)
                public/movies/a/index.html: broken link /reviews/books/b/#cast (no element with id "cast" on /books/b/)
                public/movies/a/index.html: broken image /reviews/images/none.png (no such file)
                public/movies/a/index.html: broken image /reviews/missing-2x.png (no such file)
                public/movies/a/index.html: broken link /reviews/movies/gone/ (no such page)
                public/movies/a/index.html: broken link /top-level/ (outside the site, whose address is https://example.org/reviews/)
                public/movies/a/index.html: broken link https://example.org/elsewhere/ (outside the site, whose address is https://example.org/reviews/)
                public/movies/a/index.html: broken link nope/ (no such page)
                public/movies/feed.xml: broken link nope/ (no such page)

                """)
        #expect(timeless(console.out).hasSuffix("; 11 broken, in T s.\n"), "\(console.out)")
    }

    @Test(
        "a page bundle's files are published beside its page; feeds resolve the review's relative URLs as the page does"
    )
    func bundleFiles() async throws {
        let folder = try TemporaryFolder([
            "site.yml": Self.config,
            "content/movies/2046/index.md":
                "---\ntitle: '2046'\ndate: 2026-01-01\n---\n![A still](still.png) ![Gone](gone.png) [Up](../)\n",
            "content/movies/2046/still.png": "not really a png",
        ])
        let console = TestConsole()
        #expect(await console.run(["check"], in: folder.url) == 1)
        #expect(
            console.err == """
                public/feed.xml: broken image gone.png (no such file)
                public/movies/2046/index.html: broken image gone.png (no such file)
                public/movies/feed.xml: broken image gone.png (no such file)

                """)
        let feed = try String(contentsOf: folder.url.appendingPathComponent("public/movies/feed.xml"), encoding: .utf8)
        #expect(feed.contains(#"<content type="html" xml:base="https://example.org/reviews/movies/2046/">"#))
        let still = try Data(contentsOf: folder.url.appendingPathComponent("public/movies/2046/still.png"))
        #expect(still == Data("not really a png".utf8))
    }

    @Test("the example site (this repository) has no broken link, at its base path and at the root of a host")
    func exampleSite() async throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = try TemporaryFolder()
        for name in ["site.yml", "content", "metadata"] {
            try FileManager.default.copyItem(
                at: repository.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
        }
        for arguments in [["check"], ["check", "--base-url", "http://127.0.0.1:8000/", "--output", "root"]] {
            let console = TestConsole()
            #expect(await console.run(arguments, in: folder.url) == 0, "\(arguments): \(console.err)")
            #expect(console.err == "")
            #expect(console.out.contains("; none broken, in "))
        }
    }

    @Test("a tag typed composed or decomposed (é, or e and an accent) is one page every link reaches, byte for byte")
    func decomposedTag() async throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let folder = try TemporaryFolder([
            "site.yml": Self.config,
            "content/movies/a.md": "---\ntitle: A\ndate: 2025-01-01\ntags: [\"\(composed)\"]\n---\nA.\n",
            "content/movies/b.md": "---\ntitle: B\ndate: 2025-01-02\ntags: [\"\(decomposed)\"]\n---\nB.\n",
            // All three in one review: one tag, listed once.
            "content/movies/d.md":
                "---\ntitle: D\ndate: 2025-01-04\ntags: [\"\(composed)\", \"\(decomposed)\", Café]\n---\nD.\n",
        ])
        let console = TestConsole()
        #expect(await console.run(["check"], in: folder.url) == 0, "\(console.err)")
        let tags = try FileManager.default.contentsOfDirectory(
            atPath: folder.url.appendingPathComponent("public/tags").path)
        #expect(tags.map { Array($0.utf8) }.contains(Array(composed.utf8)), "\(tags)")
        for page in ["a", "b", "d"] {
            let html = try String(
                contentsOf: folder.url.appendingPathComponent("public/movies/\(page)/index.html"), encoding: .utf8)
            #expect(html.contains("href=\"/reviews/tags/caf%C3%A9/\""), "\(page)")
            #expect(!html.contains("cafe%CC%81"), "\(page)")
            #expect(html.components(separatedBy: "rel=\"tag\"").count == 2, "\(page)")
        }

        // check compares bytes, as a server does: a link to the decomposed name does not reach the page.
        try folder.write(
            "content/movies/c.md", "---\ntitle: C\ndate: 2025-01-03\n---\n[tag](/tags/cafe%CC%81/)\n")
        let broken = TestConsole()
        #expect(await broken.run(["check"], in: folder.url) == 1)
        #expect(broken.err == "public/movies/c/index.html: broken link /reviews/tags/cafe%CC%81/ (no such page)\n")
    }

    @Test("--no-build checks the folder as it is; a missing folder is an error")
    func noBuild() async throws {
        let folder = try TemporaryFolder(["site.yml": Self.config])
        let missing = TestConsole()
        #expect(await missing.run(["check", "--no-build"], in: folder.url) == 1)
        #expect(
            missing.err
                == "sitegen check: \(folder.url.standardizedFileURL.path)/public: no such folder: build the site first\n"
        )
        // A file, or a folder without a page, is no site that passed either.
        try folder.write("notes.txt", "mine")
        try folder.write("empty/notes.txt", "mine")
        for (output, reason) in [
            ("notes.txt", "not a folder: name the built site's folder with --output"),
            ("empty", "no HTML page to check: build the site first, or name its folder with --output"),
        ] {
            let console = TestConsole()
            #expect(await console.run(["check", "--no-build", "--output", output], in: folder.url) == 1)
            #expect(console.err == "sitegen check: \(folder.url.standardizedFileURL.path)/\(output): \(reason)\n")
            #expect(console.out == "")
        }

        try folder.write("elsewhere/index.html", "<a href=\"/reviews/x/\">x</a><link rel=stylesheet href=\"/s.css\">")
        let console = TestConsole()
        #expect(
            await console.run(
                ["check", "--no-build", "--output", "elsewhere", "--base-url", "https://example.org/"], in: folder.url)
                == 1)
        #expect(
            console.err == """
                elsewhere/index.html: broken link /reviews/x/ (no such page)
                elsewhere/index.html: broken stylesheet /s.css (no such file)

                """)
        #expect(
            timeless(console.out) == "Checked 1 page in elsewhere/: 2 links to 0 files of the site; 2 broken, in T s.\n"
        )
    }

    @Test("a relative URL with a colon after a slash, ? or # is relative, on pages and in feed entries")
    func colonInRelativeURLs() async throws {
        let folder = try TemporaryFolder([
            "site.yml": Self.config,
            "content/movies/a.md": """
            ---
            title: A
            date: 2026-01-01
            ---
            [a](../../files/12:30.txt) [b](../../files/plain.txt?t=12:30) [c](../b/?from=a:b) [fn](#fn:1)
            [b fn](../b/#fn:1) [gone](../../files/13:30.txt) [no fn](../b/#fn:2) [scheme](x-y+z.1:thing)

            <p id="fn:1">Note.</p>

            """,
            "content/movies/b.md": "---\ntitle: B\ndate: 2026-01-02\n---\n<p id=\"fn:1\">Note.</p>\n",
            "static/files/12:30.txt": "noon",
            "static/files/plain.txt": "plain",
        ])
        let console = TestConsole()
        #expect(await console.run(["check"], in: folder.url) == 1)
        #expect(
            console.err == """
                public/feed.xml: broken link ../../files/13:30.txt (no such file)
                public/feed.xml: broken link ../b/#fn:2 (no element with id "fn:2" on /movies/b/)
                public/movies/a/index.html: broken link ../../files/13:30.txt (no such file)
                public/movies/a/index.html: broken link ../b/#fn:2 (no element with id "fn:2" on /movies/b/)
                public/movies/feed.xml: broken link ../../files/13:30.txt (no such file)
                public/movies/feed.xml: broken link ../b/#fn:2 (no element with id "fn:2" on /movies/b/)

                """)
    }

    @Test("an empty href, or one of only a query, is the page itself, also on a page not named index.html")
    func selfLinks() async throws {
        let folder = try TemporaryFolder([
            "out/index.html": "<p>Home.</p>",
            "out/docs/page.html": """
            <h1 id="sec">S</h1><a href="">self</a><a href="?lang=en">en</a><a href="?lang=en#sec">sec</a>
            <a href="?lang=en#nope">nope</a><a href="#sec">sec</a>
            """,
        ])
        let console = await checkFailing(folder.url)
        #expect(
            console.err == "out/docs/page.html: broken link ?lang=en#nope (no element with id \"nope\" on this page)\n")
        #expect(
            timeless(console.out) == "Checked 2 pages in out/: 5 links to 1 file of the site; 1 broken, in T s.\n")
    }

    @Test("what is commented out is not checked, and a comment ends where a browser ends it")
    func comments() async throws {
        let folder = try TemporaryFolder([
            "out/index.html": """
            <!-->
            <a href="/missing-a/">a</a>
            <!-- note --!>
            <a href="/missing-b/">b</a>
            <!-- ok --><!-- <a href="/hidden/">c</a> -->
            """
        ])
        let console = await checkFailing(folder.url)
        #expect(
            console.err == """
                out/index.html: broken link /missing-a/ (no such page)
                out/index.html: broken link /missing-b/ (no such page)

                """)
    }

    @Test(".htm and .HTML pages are checked as pages, and their fragments too")
    func htmPages() async throws {
        let folder = try TemporaryFolder([
            "out/index.html": """
            <a href="/docs/old.htm#nope">old</a><a href="/docs/UPPER.HTML#x">upper</a><a href="/docs/missing.HTM">gone</a>
            """,
            "out/docs/old.htm": "<a href=\"/gone/\">x</a>",
            "out/docs/UPPER.HTML": "<a href=\"/gone-2/\" id=\"x\">x</a>",
        ])
        let console = await checkFailing(folder.url)
        #expect(
            console.err == """
                out/docs/UPPER.HTML: broken link /gone-2/ (no such page)
                out/docs/old.htm: broken link /gone/ (no such page)
                out/index.html: broken link /docs/missing.HTM (no such page)
                out/index.html: broken link /docs/old.htm#nope (no element with id "nope" on /docs/old.htm)

                """)
        #expect(timeless(console.out).hasPrefix("Checked 3 pages in out/: 5 links to 2 files"), "\(console.out)")
    }

    @Test("a hidden file of the output folder is a file links reach, built or not; hidden pages are not checked")
    func hiddenFiles() async throws {
        let folder = try TemporaryFolder([
            "site.yml": "title: T\nbase_url: https://example.org/\n",
            "content/movies/a.md":
                "---\ntitle: A\ndate: 2026-01-01\n---\n[security](/.well-known/security.txt) [gone](/.well-known/gone.txt) [h](/.hidden/) [h2](/.hidden)\n",
        ])
        #expect(await TestConsole().run(["build"], in: folder.url) == 0)
        try folder.write("public/.well-known/security.txt", "Contact: mailto:me@example.org\n")
        try folder.write("public/.hidden/index.html", "<a href=\"/not-checked/\">x</a>")
        for arguments in [["check"], ["check", "--no-build"]] {
            let console = TestConsole()
            #expect(await console.run(arguments, in: folder.url) == 1)
            #expect(
                console.err == """
                    public/movies/a/index.html: broken link /.well-known/gone.txt (no such file)

                    """, "\(arguments)")
        }
    }

    @Test("paths, URLs and ids are compared byte for byte: é is not e and a combining accent")
    func bytewise() async throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let folder = try TemporaryFolder()
        try folder.write(
            "out/index.html",
            "<p id=\"\(composed)\">x</p><a href=\"#\(composed)\">1</a><a href=\"#\(decomposed)\">2</a>")
        try folder.write("out/\(composed).html", "<img src=\"/\(composed).png\"><img src=\"/\(decomposed).png\">")
        try folder.write("out/\(decomposed).html", "<img src=\"/\(decomposed).png\"><img src=\"/\(composed).png\">")
        try folder.write("out/\(composed).png", "not really a png")
        let console = await checkFailing(folder.url)
        // In the order of their bytes: "e" before "é".
        let expected = """
            out/\(decomposed).html: broken image /\(decomposed).png (no such file)
            out/\(composed).html: broken image /\(decomposed).png (no such file)
            out/index.html: broken link #\(decomposed) (no element with id "\(decomposed)" on this page)

            """
        #expect(Array(console.err.utf8) == Array(expected.utf8), "\(console.err)")
        #expect(timeless(console.out).hasPrefix("Checked 3 pages in out/"), "\(console.out)")
    }

    @Test("--output with a final slash is shown without it doubled; an empty URL is shown as \"\"")
    func shownNames() async throws {
        let folder = try TemporaryFolder([
            "out/index.html": "<a href=\"/gone/\">x</a>",
            "out/feed.xml": """
            <feed><entry><content type="html" xml:base="https://example.org/gone/">&lt;a href=""&gt;x&lt;/a&gt;</content></entry></feed>
            """,
        ])
        let console = TestConsole()
        #expect(
            await console.run(
                ["check", "--no-build", "--output", "out/", "--base-url", "https://example.org/"], in: folder.url) == 1)
        #expect(
            console.err == """
                out/feed.xml: broken link "" (no such page)
                out/index.html: broken link /gone/ (no such page)

                """)
        #expect(timeless(console.out).hasPrefix("Checked 1 page in out/: "), "\(console.out)")
    }

    @Test("a page that cannot be read (4 GiB, a FIFO) is named and fails the check; the others are checked")
    func unreadablePages() async throws {
        let folder = try TemporaryFolder([
            "site.yml": Self.config,
            "out/index.html": "<a href=\"/missing/\">x</a>",
            "out/big.html": "<a href=\"/\">home</a>",
        ])
        #expect(truncate(folder.url.appendingPathComponent("out/big.html").path, 4 << 30) == 0)
        #expect(mkfifo(folder.url.appendingPathComponent("out/pipe.html").path, 0o644) == 0)
        let console = await checkFailing(folder.url)
        #expect(
            console.err == """
                out/big.html: cannot be checked: the file is 4294967296 bytes; files over 1024 MiB are refused here
                out/pipe.html: cannot be checked: not a regular file
                out/index.html: broken link /missing/ (no such page)

                """)
        #expect(
            timeless(console.out)
                == "Checked 3 pages in out/: 1 link to 0 files of the site; 1 broken, 2 files not read, in T s.\n")

        // Nothing broken, two files not read: still a failure.
        try folder.write("out/index.html", "<p>No links.</p>")
        let again = await checkFailing(folder.url)
        #expect(again.err.hasPrefix("out/big.html: cannot be checked: "))
        #expect(timeless(again.out).hasSuffix("none broken, 2 files not read, in T s.\n"), "\(again.out)")
    }

    /// `sitegen check --no-build` of the folder `out` in `folder`, built for https://example.org/,
    /// which must fail.
    private func checkFailing(_ folder: URL) async -> TestConsole {
        let console = TestConsole()
        #expect(
            await console.run(
                ["check", "--no-build", "--output", "out", "--base-url", "https://example.org/"], in: folder) == 1)
        return console
    }

    @Test("control characters in a page's links are shown escaped, and a very long link cut short")
    func hostileLinks() async throws {
        let long = String(repeating: "a", count: 600)
        let folder = try TemporaryFolder([
            "site.yml": Self.config,
            "out/index.html": "<a href=\"/&#27;[2J&#x9b;31m&#7;x/\">x</a><a href=\"/\(long)\">y</a>",
        ])
        let console = await checkFailing(folder.url)
        #expect(
            console.err == """
                out/index.html: broken link /\\u{1B}[2J\\u{9B}31m\\u{7}x/ (no such page)
                out/index.html: broken link /\(long.prefix(499))… (no such file)

                """)
    }

    @Test("a build that fails is reported as the build reports it, and nothing is checked")
    func buildFails() async throws {
        let folder = try TemporaryFolder([
            "site.yml": Self.config,
            "content/movies/a.md": "---\ntitle: A\ndate: 2026-01-01\n---\n[x](missing.md)\n",
        ])
        let console = TestConsole()
        #expect(await console.run(["check"], in: folder.url) == 1)
        #expect(
            console.err == """
                content/movies/a.md:5:1: the link "missing.md" names content/movies/missing.md, which does not exist
                loading the site failed: 1 error

                """)
        #expect(console.out == "")
    }

    @Test("--external: HEAD, then GET when HEAD is refused; time-outs; successes remembered for a day")
    func external() async throws {
        let fake = try FakeProviders()
        fake.route("/ok", .json("{}"))
        fake.route("/head-refused", .status(405), .json("{}"))
        fake.route("/gone", .status(404))
        fake.route("/slow", .stall)
        let links = ["ok", "head-refused", "gone", "slow"].map { "[\($0)](\(fake.url)/\($0))" }.joined(separator: " ")
        // A link with a password: checked, but never written into the cache file.
        let secret = fake.url.replacingOccurrences(of: "http://", with: "http://reader:s3cret@") + "/ok"
        let folder = try TemporaryFolder([
            "site.yml": Self.config,
            "content/movies/a.md": "---\ntitle: A\ndate: 2026-01-01\n---\n\(links)\n",
            "content/movies/b.md":
                "---\ntitle: B\ndate: 2026-01-02\n---\n[ok again](\(fake.url)/ok) [mine](\(secret))\n",
        ])
        let without = TestConsole()
        #expect(await without.run(["check"], in: folder.url) == 0)
        #expect(without.out.contains(", 6 links to other sites not checked (use --external); none broken"))
        #expect(fake.requests.isEmpty)

        let console = TestConsole()
        #expect(await console.run(["check", "--external", "--timeout", "1"], in: folder.url) == 1)
        #expect(
            console.err == """
                public/movies/a/index.html: broken link \(fake.url)/gone (HTTP 404)
                public/movies/a/index.html: broken link \(fake.url)/slow (no answer within 1 s)

                """)
        #expect(
            timeless(console.out).hasSuffix(", 6 links to 5 other addresses; 2 broken, in T s.\n"), "\(console.out)")
        #expect(
            fake.requests.map { "\($0.method) \($0.path)" }.sorted() == [
                "GET /gone", "GET /head-refused", "HEAD /gone", "HEAD /head-refused", "HEAD /ok", "HEAD /ok",
                "HEAD /slow",
            ])
        let cacheFile = folder.url.appendingPathComponent(".sitegen/external-links.json")
        let cache = try JSONDecoder().decode([String: Double].self, from: Data(contentsOf: cacheFile))
        #expect(cache.keys.sorted() == ["\(fake.url)/head-refused", "\(fake.url)/ok"])
        #expect(try !String(contentsOf: cacheFile, encoding: .utf8).contains("s3cret"))

        // Successes are not asked again within a day; failures (and the link with a password) are.
        let asked = fake.requests.count
        let again = TestConsole()
        #expect(await again.run(["check", "--external", "--timeout", "1"], in: folder.url) == 1)
        #expect(again.out.contains("(2 answered within the last day, not asked again)"))
        #expect(fake.requests.dropFirst(asked).map(\.path).sorted() == ["/gone", "/gone", "/ok", "/slow"])

        // A day later they are, and so are answers dated after now (the clock set back since).
        var old = cache.mapValues { $0 - ExternalLinkCheckerDay.seconds - 1 }
        old["\(fake.url)/head-refused"] = Date().timeIntervalSince1970 + 1_000_000
        try JSONEncoder().encode(old).write(to: cacheFile)
        let later = TestConsole()
        let before = fake.requests.count
        #expect(await later.run(["check", "--external", "--timeout", "1"], in: folder.url) == 1)
        #expect(fake.requests.dropFirst(before).filter { $0.path == "/ok" }.count == 2)
        #expect(fake.requests.dropFirst(before).filter { $0.path == "/head-refused" }.count == 1)
    }

    @Test("options: a bad time-out, concurrency or base URL exits 64 with the usage")
    func usage() async throws {
        let folder = try TemporaryFolder()
        for (arguments, message) in [
            (["check", "--timeout", "0"], "--timeout must be a number of seconds above 0 and at most 600, not \"0\""),
            (["check", "--concurrency", "100"], "--concurrency must be a whole number from 1 to 64, not \"100\""),
            (["check", "--base-url", "x"], "--base-url must be an absolute http or https URL, not \"x\""),
            (
                ["check", "--base-url", "https://example.org/./"],
                "--base-url cannot have an empty, \".\" or \"..\" part in its path, as \"https://example.org/./\" has: "
                    + "every link of the site starts with that path, and //assets/ would be another host's, /../ another folder"
            ),
            (["check", "public"], "unexpected argument public"),
        ] {
            let console = TestConsole()
            #expect(await console.run(arguments, in: folder.url) == 64)
            #expect(console.err.hasPrefix("sitegen check: \(message)\nUsage: sitegen check"), "\(console.err)")
        }
    }
}

/// A day, as the external link cache counts it.
enum ExternalLinkCheckerDay {
    static let seconds: Double = 24 * 60 * 60
}
