import Foundation
import SiteGenCLI
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `sitegen serve` end to end: the built binary serving a fixture site on a free port,
/// talked to over HTTP, edited while it runs, and stopped with a signal.
@Suite("sitegen serve command", .serialized)
struct ServeCommandTests {
    @Test(
        "--port 0 takes a free port and prints its URL; SIGINT or SIGTERM stops it with exit 0 and frees the port",
        arguments: [SIGINT, SIGTERM])
    func servesAndStops(signal: Int32) async throws {
        let site = try TemporaryFolder(smallSite)
        let server = try RunningBinary(["serve", "--port", "0"], in: site.url)
        let url = try #require(await server.servedURL(), "\(server.err)")
        let port = try #require(url.wholeMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\//).flatMap { Int($0.output.1) })
        #expect(port > 0)
        #expect(server.out == "Serving . at \(url) (Ctrl-C to stop)\n")

        let (page, response) = try await get(url + "movies/parasite/")
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/html; charset=utf-8")
        #expect(page.contains(#"<h1 class="review-title" lang="en">Parasite</h1>"#))
        #expect(page.contains(#"<link rel="canonical" href="\#(url)movies/parasite/">"#))
        #expect(page.contains(#"<script>(function(){var e=new EventSource("/__sitegen/events");"#))
        let (_, css) = try await get(url + "assets/site.css")
        #expect(css.value(forHTTPHeaderField: "Content-Type") == "text/css; charset=utf-8")
        #expect(throws: ListeningSocket.BindError.self) { _ = try ListeningSocket(port: port) }

        server.send(signal)
        #expect(try await server.waitForExit() == 0)
        #expect(server.out == "Serving . at \(url) (Ctrl-C to stop)\nStopped.\n")
        #expect(server.err == "")
        let again = try ListeningSocket(port: port)
        #expect(again.port == port)
    }

    @Test("a port in use is a clear error and exit code 1")
    func portInUse() async throws {
        let site = try TemporaryFolder(smallSite)
        let taken = try ListeningSocket()
        let server = try RunningBinary(["serve", "--port", "\(taken.port)"], in: site.url)
        #expect(try await server.waitForExit() == 1)
        #expect(
            server.err
                == "sitegen serve: port \(taken.port) on 127.0.0.1 is already in use: pick another with --port,"
                + " or --port 0 for any free one\n")
        #expect(server.out == "")
    }

    @Test("--source and --drafts choose what is served; --host chooses where it listens")
    func options() async throws {
        var files: [String: String] = [:]
        for (path, text) in smallSite { files["site/" + path] = text }
        files["site/content/movies/wip.md"] = review("title: Work in Progress\ndate: 2026-04-01\ndraft: true")
        let folder = try TemporaryFolder(files)

        let drafts = try RunningBinary(["serve", "--source", "site", "--port", "0", "--drafts"], in: folder.url)
        let draftsURL = try #require(await drafts.servedURL(), "\(drafts.err)")
        #expect(drafts.out == "Serving site at \(draftsURL) (Ctrl-C to stop)\n")
        let (page, found) = try await get(draftsURL + "movies/wip/")
        #expect(found.statusCode == 200)
        #expect(page.contains(#"<h1 class="review-title" lang="en">Work in Progress</h1>"#))

        let everywhere = try RunningBinary(
            ["serve", "--source", "site", "--host", "0.0.0.0", "--port", "0"], in: folder.url)
        let everywhereURL = try #require(await everywhere.servedURL(), "\(everywhere.err)")
        let port = try #require(
            everywhereURL.wholeMatch(of: /http:\/\/0\.0\.0\.0:(\d+)\//).flatMap { Int($0.output.1) })
        let (missing, notFound) = try await get("http://127.0.0.1:\(port)/movies/wip/")
        #expect(notFound.statusCode == 404)
        #expect(missing.contains("<h1>Page not found</h1>"))

        for server in [drafts, everywhere] {
            server.send(SIGINT)
            #expect(try await server.waitForExit() == 0)
            #expect(server.err == "")
        }
    }

    @Test(
        "a broken file prints path:line:column, keeps serving the last good site with the errors over it, and a fix recovers"
    )
    func brokenFileRecovers() async throws {
        let site = try TemporaryFolder(smallSite)
        let server = try RunningBinary(["serve", "--port", "0"], in: site.url)
        let url = try #require(await server.servedURL(), "\(server.err)")

        try save(
            review("title: Parasite\ndate: someday"), to: site.url.appendingPathComponent("content/movies/parasite.md"))
        let failure = """
            Rebuild failed; still serving the last good site:
            content/movies/parasite.md:3:7: "date" must be a date written YYYY-MM-DD, not "someday"
            loading the site failed: 1 error

            """
        #expect(try await server.waitForOutput { _, err in err.contains(failure) }, "\(server.err)")
        #expect(server.err.hasPrefix(failure))
        let (broken, status) = try await get(url + "movies/parasite/")
        #expect(status.statusCode == 200)
        #expect(broken.contains(#"<h1 class="review-title" lang="en">Parasite</h1>"#))
        #expect(broken.contains(#"<div id="sitegen-errors" role="alert""#))
        #expect(
            broken.contains(
                "content/movies/parasite.md:3:7: &quot;date&quot; must be a date written YYYY-MM-DD, not &quot;someday&quot;"
            ))

        try save(
            smallSite["content/movies/parasite.md"]!.replacingOccurrences(of: "The *stairs*.", with: "Fixed."),
            to: site.url.appendingPathComponent("content/movies/parasite.md"))
        #expect(try await server.waitForOutput { _, err in err.contains("\nRebuilt (") }, "\(server.err)")
        let (fixed, _) = try await get(url + "movies/parasite/")
        #expect(fixed.contains("<p>Fixed.</p>"))
        #expect(!fixed.contains("sitegen-errors"))

        server.send(SIGINT)
        #expect(try await server.waitForExit() == 0)
        #expect(
            server.err.wholeMatch(
                of:
                    /(Rebuild failed; still serving the last good site:\n[^\n]+\n[^\n]+\n)+(Rebuilt \(\d+ files changed\) in \d+ ms\n)+/
            ) != nil, "\(server.err)")
        #expect(server.out == "Serving . at \(url) (Ctrl-C to stop)\nStopped.\n")
    }

    @Test("a site that does not build never starts serving: the errors and exit code 1")
    func brokenAtStart() async throws {
        var files = smallSite
        files["content/movies/parasite.md"] = review("title: Parasite\ndate: someday")
        let site = try TemporaryFolder(files)
        let server = try RunningBinary(["serve", "--port", "0"], in: site.url)
        #expect(try await server.waitForExit() == 1)
        #expect(
            server.err == """
                content/movies/parasite.md:3:7: "date" must be a date written YYYY-MM-DD, not "someday"
                loading the site failed: 1 error

                """)
        #expect(server.out == "")
    }

    @Test("pages that sitegen build writes carry no live-reload script")
    func builtPagesHaveNoScript() async throws {
        let site = try TemporaryFolder(smallSite)
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let output = site.url.appendingPathComponent("public")
        let pages = try FileManager.default.subpathsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".html") }
        #expect(pages.count == 23)
        for page in pages {
            let text = try String(contentsOf: output.appendingPathComponent(page), encoding: .utf8)
            #expect(!text.contains("EventSource"), "\(page)")
            #expect(!text.contains("__sitegen"), "\(page)")
            #expect(!text.contains("is-preview"), "\(page)")
        }
    }

    @Test(
        "usage errors print the usage and exit 64",
        arguments: [
            (
                ["serve", "--port", "70000"],
                "sitegen serve: --port must be a whole number from 0 to 65535, not \"70000\"\n"
            ),
            (
                ["serve", "--port", "http"],
                "sitegen serve: --port must be a whole number from 0 to 65535, not \"http\"\n"
            ),
            (["serve", "--port", "-1"], "sitegen serve: --port must be a whole number from 0 to 65535, not \"-1\"\n"),
            (["serve", "--port"], "sitegen serve: option --port needs a value\n"),
            (["serve", "--host"], "sitegen serve: option --host needs a value\n"),
            (["serve", "--frobnicate"], "sitegen serve: unknown option --frobnicate\n"),
            (["serve", "extra"], "sitegen serve: unexpected argument extra\n"),
        ])
    func usageErrors(arguments: [String], message: String) async throws {
        let site = try TemporaryFolder(smallSite)
        let console = TestConsole()
        #expect(await console.run(arguments, in: site.url) == 64)
        #expect(console.err.hasPrefix(message + "Usage: sitegen serve [--source DIR]"), "\(console.err)")
        #expect(console.out.isEmpty)
    }
}

/// A review file with front matter and a body.
private func review(_ frontMatter: String, body: String = "A review.") -> String {
    "---\n\(frontMatter)\n---\n\(body)\n"
}

/// Two sections, three reviews with tags, a plain page and a static file.
private let smallSite: [String: String] = [
    "site.yml": "title: Test Reviews\nbase_url: https://example.org/\nauthor: Tester\n",
    "content/movies/_index.md": review("title: Films\nkind: movie", body: "Films, *newest* first."),
    "content/movies/parasite.md": review(
        "title: Parasite\ndate: 2026-03-14\nrating: 4.5\ntags: [thriller, korea]", body: "The *stairs*."),
    "content/movies/past-lives.md": review("title: Past Lives\ndate: 2025-06-01\nrating: 4\ntags: [korea]"),
    "content/books/stoner.md": review("title: Stoner\ndate: 2024-11-02\ntags: [campus]"),
    "content/about.md": review("title: About", body: "Who writes here."),
    "static/robots.txt": "User-agent: *\n",
]

/// Saves a file the way an editor does: written aside, then renamed over the old one.
private func save(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url, options: .atomic)
}

/// The body and response of a GET.
private func get(_ url: String) async throws -> (String, HTTPURLResponse) {
    let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
    return (String(decoding: data, as: UTF8.self), try #require(response as? HTTPURLResponse))
}
