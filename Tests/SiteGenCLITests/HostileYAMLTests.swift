import Foundation
import SiteGenCLI
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Front matter and site.yml a user (or an attacker) can write, through the built binary:
/// every one is an error at `path:line:column` with exit 1 and nothing written, or a site.
@Suite("Hostile YAML, end to end", .serialized)
struct HostileYAMLTests {
    @Test("billion laughs (aliases of aliases, nine levels) stops sitegen build at the alias")
    func billionLaughs() async throws {
        try await expectBuildFails(
            ["content/movies/laughs.md": laughs],
            with: ["content/movies/laughs.md:9:8: this YAML expands to more than 100,000 values through aliases"])
    }

    @Test(
        "100,000 and 1,000,000 levels of [ or {a: stop at the first depth error",
        arguments: [
            (100_000, "[", "]", 67), (1_000_000, "[", "]", 67), (100_000, "{a: ", "}", 256),
            (1_000_000, "{a: ", "}", 256),
        ])
    func deepNesting(levels: Int, open: String, close: String, column: Int) async throws {
        let yaml = "v: " + String(repeating: open, count: levels) + "x" + String(repeating: close, count: levels)
        try await expectBuildFails(
            ["content/movies/deep.md": review("title: Deep\ndate: 2024-01-01\n" + yaml)],
            with: ["content/movies/deep.md:4:\(column): lists and mappings nest deeper than 64 levels here"])
    }

    @Test("a site.yml with a second document is an error at its --- line")
    func secondDocumentInSiteYML() async throws {
        try await expectBuildFails(
            ["site.yml": "title: Test\nbase_url: https://example.org/\n---\npage_size: 3\n"],
            with: [
                "site.yml:3:1: a second YAML document starts here, but only one is read: "
                    + "remove this \"---\" line to make one document"
            ])
    }

    @Test("the common mistakes get a hint in plain words, at the place it speaks of")
    func hints() async throws {
        try await expectBuildFails(
            [
                "content/movies/colon.md": review("title: Dune: Part Two\ndate: 2024-03-01"),
                "content/movies/tab.md": review("title: Tabs\n\tdate: 2024-03-01"),
                "content/movies/list.md": review("title: List\ntags: [sci-fi, desert\ndate: 2024-03-01"),
                "content/movies/quote.md": review("title: \"Quote\ndate: 2024-03-01"),
                "content/books/_index.md": review("title: Books\nintro: {a: 1"),
            ],
            with: [
                #"content/books/_index.md:3:8: did not find expected ',' or '}' while parsing a flow mapping: the "{" that starts here is never closed with "}""#,
                #"content/movies/colon.md:2:12: mapping values are not allowed in this context: put the value in quotes, as in title: "Dune: Part Two""#,
                #"content/movies/list.md:3:7: did not find expected ',' or ']' while parsing a flow sequence: the "[" that starts here is never closed with "]""#,
                #"content/movies/quote.md:2:8: found unexpected end of stream while scanning a quoted scalar: the " that starts here is never closed"#,
                "content/movies/tab.md:3:1: found a tab character that violates indentation while scanning a plain scalar: "
                    + "YAML indents with spaces, not tabs",
            ])
    }

    @Test("invalid UTF-8 in a review, a page, an _index.md or site.yml is reported at its first bad byte")
    func invalidUTF8() async throws {
        let bad = Data("---\ntitle: Caf".utf8) + [0xE9] + Data("\n---\n".utf8)
        let site = try TemporaryFolder(smallSite)
        try write(
            Data("title: T\nbase_url: https://example.org/\nauthor: Ren".utf8) + [0xE9, 0x0A], to: "site.yml", in: site)
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 1)
        #expect(
            console.err
                == "site.yml:3:12: not valid UTF-8 text (byte 0xE9): save the file as UTF-8\nloading the site failed: 1 error\n"
        )

        try site.write("site.yml", smallSite["site.yml"]!)
        for path in ["content/about.md", "content/movies/_index.md", "content/movies/parasite.md"] {
            try write(bad, to: path, in: site)
        }
        let again = TestConsole()
        #expect(await again.run(["build"], in: site.url) == 1)
        // SiteLoader also reads a plain page it could not decode as empty text (a second,
        // "no front matter" error for content/about.md): its own business, not checked here.
        let lines = again.err.split(separator: "\n").map(String.init)
        for path in ["content/about.md", "content/movies/_index.md", "content/movies/parasite.md"] {
            #expect(
                lines.contains("\(path):2:11: not valid UTF-8 text (byte 0xE9): save the file as UTF-8"), "\(again.err)"
            )
        }
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
    }

    @Test("NUL in front matter, a front matter never closed, a recursive alias and a bad merge: each at its place")
    func otherErrors() async throws {
        try await expectBuildFails(
            [
                "content/movies/nul.md": review("title: Nul\u{0}\ndate: 2024-01-01"),
                "content/movies/open.md": "---\ntitle: Open\ndate: 2024-01-01\nThe body, but no closing line.\n",
                "content/movies/self.md": review("title: Self\ndate: 2024-01-01\nloop: &l [a, *l]"),
                "content/movies/merge.md": review("title: Merge\ndate: 2024-01-01\n<<: [a, b]"),
            ],
            with: [
                #"content/movies/merge.md:4:6: "<<" merges a mapping (like <<: *defaults) or a list of mappings, not a single value"#,
                "content/movies/nul.md:2:11: control characters are not allowed (U+0000)",
                #"content/movies/open.md:1:1: front matter is not closed: add a "---" line after the YAML"#,
                #"content/movies/self.md:4:14: the alias "*l" is inside the value it names, so it would never end"#,
            ])
    }

    @Test("a BOM and CRLF, merge keys, aliases and a redefined anchor build the site they say")
    func acceptedInput() async throws {
        var files = smallSite
        files["content/movies/crlf.md"] = "\u{FEFF}---\r\ntitle: Windows\r\ndate: 2024-02-02\r\n---\r\nLine one.\r\n"
        files["content/movies/merged.md"] = review(
            "_film: &film {director: Bong Joon-ho, year: 2019}\n<<: *film\ntitle: Merged\ndate: 2024-03-03\n"
                + "tags: &t [korea]\nthemes: *t\nn: &n 1\nn2: &n 2\nrating: *n")
        let site = try TemporaryFolder(files)
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 0, "\(console.err)")
        let output = site.url.appendingPathComponent("public")
        let crlf = try String(contentsOf: output.appendingPathComponent("movies/crlf/index.html"), encoding: .utf8)
        #expect(crlf.contains(#"<h1 class="review-title" lang="en">Windows</h1>"#))
        #expect(crlf.contains("<p>Line one.</p>"))
        let merged = try String(contentsOf: output.appendingPathComponent("movies/merged/index.html"), encoding: .utf8)
        #expect(merged.contains(#"aria-label="2 out of 5 stars""#))
        let section = try String(contentsOf: output.appendingPathComponent("movies/index.html"), encoding: .utf8)
        #expect(section.contains(#"<span>2019</span><span lang="en">Bong Joon-ho</span>"#))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("tags/korea/index.html").path))
    }

    @Test("a 1 MB single-line value builds, and reaches the page")
    func oneMegabyteLine() async throws {
        let summary = String(repeating: "word ", count: 200_000) + "end"
        var files = smallSite
        files["content/movies/long.md"] = review("title: Long\ndate: 2024-01-01\nsummary: \(summary)")
        let site = try TemporaryFolder(files)
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 0, "\(console.err)")
        let page = try String(
            contentsOf: site.url.appendingPathComponent("public/movies/long/index.html"), encoding: .utf8)
        #expect(page.contains(#"<meta name="description" content="\#(summary)">"#))
    }

    @Test("a 50 MB front matter builds, and an error on its last line has that line's number")
    func fiftyMegabytes() async throws {
        // 50 MB: under the 64 MiB limit on text files.
        let notes = (0..<1_700_000).map { "  - note number \($0) of many\n" }.joined()
        var files = smallSite
        files["content/movies/huge.md"] = "---\ntitle: Huge\ndate: 2024-01-01\nnotes:\n" + notes + "---\nBody\n"
        #expect(files["content/movies/huge.md"]!.utf8.count > 50_000_000)
        let site = try TemporaryFolder(files)
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 0, "\(console.err)")
        #expect(
            FileManager.default.fileExists(
                atPath: site.url.appendingPathComponent("public/movies/huge/index.html").path))

        try site.write(
            "content/movies/huge.md", "---\ntitle: Huge\ndate: 2024-01-01\nnotes:\n" + notes + "rating: 9\n---\nBody\n")
        let failing = TestConsole()
        #expect(await failing.run(["build"], in: site.url) == 1)
        #expect(
            failing.err == """
                content/movies/huge.md:1700005:9: "rating" must be a number from 0 to 5 in half steps (like 3.5), not "9"
                loading the site failed: 1 error

                """)
    }

    @Test("sitegen serve: billion laughs or deep nesting saved while it runs fails the rebuild and keeps serving")
    func serveKeepsRunning() async throws {
        let site = try TemporaryFolder(smallSite)
        let server = try RunningBinary(["serve", "--port", "0"], in: site.url)
        let url = try #require(await server.servedURL(), "\(server.err)")
        let parasite = site.url.appendingPathComponent("content/movies/parasite.md")

        try save(laughs, to: parasite)
        let laughsFailure = """
            Rebuild failed; still serving the last good site:
            content/movies/parasite.md:9:8: this YAML expands to more than 100,000 values through aliases
            loading the site failed: 1 error

            """
        #expect(try await server.waitForOutput { _, err in err.contains(laughsFailure) }, "\(server.err)")
        let (page, response) = try await get(url + "movies/parasite/")
        #expect(response.statusCode == 200)
        #expect(
            page.contains(
                "content/movies/parasite.md:9:8: this YAML expands to more than 100,000 values through aliases"))

        let deep = "v: " + String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000)
        try save(review("title: Parasite\ndate: 2026-03-14\n" + deep), to: parasite)
        #expect(
            try await server.waitForOutput { _, err in
                err.contains("content/movies/parasite.md:4:67: lists and mappings nest deeper than 64 levels here\n")
            }, "\(server.err)")
        #expect(try await get(url + "movies/parasite/").1.statusCode == 200)

        server.send(SIGINT)
        #expect(try await server.waitForExit() == 0)
    }

    @Test("sitegen serve on a site whose front matter is billion laughs starts and serves the error")
    func serveRefusesAtStart() async throws {
        var files = smallSite
        files["content/movies/parasite.md"] = laughs
        let site = try TemporaryFolder(files)
        let server = try RunningBinary(["serve", "--port", "0"], in: site.url)
        let url = try #require(await server.servedURL(), "\(server.err)")
        #expect(
            server.err == """
                The site did not build; serving its errors until a change builds it:
                content/movies/parasite.md:9:8: this YAML expands to more than 100,000 values through aliases
                loading the site failed: 1 error

                """)
        let (page, response) = try await get(url + "movies/parasite/")
        #expect(response.statusCode == 500)
        #expect(
            page.contains(
                "content/movies/parasite.md:9:8: this YAML expands to more than 100,000 values through aliases"))
        server.send(SIGINT)
        #expect(try await server.waitForExit() == 0)
    }
}

/// A review whose front matter is "billion laughs": 387 million values from 400 bytes.
private let laughs =
    "---\ntitle: Parasite\ndate: 2026-03-14\na: &a [x,x,x,x,x,x,x,x,x]\n"
    + zip("bcdefghi", "abcdefgh").map { name, previous in
        "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]\n"
    }.joined() + "---\nBody\n"

/// A review file with front matter and a body.
private func review(_ frontMatter: String, body: String = "A review.") -> String {
    "---\n\(frontMatter)\n---\n\(body)\n"
}

/// Two sections, two reviews, a plain page.
private let smallSite: [String: String] = [
    "site.yml": "title: Test Reviews\nbase_url: https://example.org/\n",
    "content/movies/_index.md": review("title: Films\nkind: movie", body: "Films."),
    "content/movies/parasite.md": review("title: Parasite\ndate: 2026-03-14\nrating: 4.5"),
    "content/books/stoner.md": review("title: Stoner\ndate: 2024-11-02"),
    "content/about.md": review("title: About", body: "Who writes here."),
]

/// Builds `smallSite` with `files` over it and expects exit 1, exactly `errors` on standard
/// error, and no output folder.
private func expectBuildFails(
    _ files: [String: String], with errors: [String], sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let site = try TemporaryFolder(smallSite.merging(files) { _, new in new })
    let console = TestConsole()
    #expect(await console.run(["build"], in: site.url) == 1, sourceLocation: sourceLocation)
    let count = errors.count
    let expected = (errors + ["loading the site failed: \(count) error\(count == 1 ? "" : "s")"]).joined(
        separator: "\n")
    #expect(console.err == expected + "\n", sourceLocation: sourceLocation)
    #expect(console.out == "", sourceLocation: sourceLocation)
    #expect(
        !FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path),
        sourceLocation: sourceLocation)
}

private func write(_ data: Data, to path: String, in folder: borrowing TemporaryFolder) throws {
    try data.write(to: folder.url.appendingPathComponent(path))
}

/// Saves a file the way an editor does: written aside, then renamed over the old one.
private func save(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url, options: .atomic)
}

private func get(_ url: String) async throws -> (String, HTTPURLResponse) {
    let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
    return (String(decoding: data, as: UTF8.self), try #require(response as? HTTPURLResponse))
}
