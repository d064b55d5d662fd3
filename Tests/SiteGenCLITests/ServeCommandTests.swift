import EventHTTP
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
            everywhereURL.wholeMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\//).flatMap { Int($0.output.1) })
        // Then the addresses other devices open, when this machine has any.
        let others = InterfaceAddresses.list(ipv6: false).map { "http://\($0):\(port)/" }
        let announced =
            "Serving site at \(everywhereURL) (Ctrl-C to stop)\n"
            + (others.isEmpty ? "" : "On other devices of your network: \(others.joined(separator: ", "))\n")
        #expect(try await everywhere.waitForOutput { out, _ in out == announced }, "\(everywhere.out)")
        let (missing, notFound) = try await get("http://127.0.0.1:\(port)/movies/wip/")
        #expect(notFound.statusCode == 404)
        #expect(missing.contains("<h1>Page not found</h1>"))

        // An IPv6 address may be written as URLs write it.
        let bracketed = try RunningBinary(
            ["serve", "--source", "site", "--host", "[::1]", "--port", "0"], in: folder.url)
        let bracketedURL = try #require(await bracketed.servedURL(), "\(bracketed.err)")
        #expect(bracketedURL.hasPrefix("http://[::1]:"))

        for server in [drafts, everywhere, bracketed] {
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
                    /(Rebuild failed; still serving the last good site:\n[^\n]+\n[^\n]+\n)+(Rebuilt \(\d+ files? changed; the errors are fixed\) in \d+ ms\n)(Rebuilt \(\d+ files? changed\) in \d+ ms\n)*/
            ) != nil, "\(server.err)")
        #expect(server.out == "Serving . at \(url) (Ctrl-C to stop)\nStopped.\n")
    }

    @Test(
        "a host that cannot be bound is an error naming the host and the reason, exit code 1",
        arguments: [
            (
                "999.1.1.1",
                "sitegen serve: cannot listen on \"999.1.1.1\": it is neither an IP address nor a name this machine"
                    + " can resolve (not a valid IP address)\n"
            ),
            (
                "not a host",
                "sitegen serve: cannot listen on \"not a host\": it is neither an IP address nor a name this machine"
                    + " can resolve (Name or service not known)\n"
            ),
            (
                "192.0.2.1",
                "sitegen serve: cannot listen on 192.0.2.1 port 1313: that is not an address of this machine;"
                    + " use 127.0.0.1 (this machine only) or 0.0.0.0 (every network interface)\n"
            ),
        ])
    func unbindableHost(host: String, message: String) async throws {
        let site = try TemporaryFolder(smallSite)
        let console = TestConsole()
        #expect(await console.run(["serve", "--host", host, "--port", "1313"], in: site.url) == 1)
        #expect(console.err == message)
        #expect(console.out == "")
    }

    @Test("GET and HEAD only: other methods HTTP defines get 405 with Allow, others 501, CONNECT closes its connection")
    func methods() async throws {
        let site = try TemporaryFolder(smallSite)
        let server = try RunningBinary(["serve", "--port", "0"], in: site.url)
        let port = try #require(try await server.servedPort(), "\(server.err)")
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT"] {
            let response = try RawConnection.request(port: port, method, "/")
            #expect(response.status == 405, "\(method)")
            #expect(response.header("Allow") == "GET, HEAD", "\(method)")
            #expect(response.header("Content-Length") == "23", "\(method)")
            #expect(response.text == "405 Method Not Allowed\n", "\(method)")
        }
        let unknown = try RawConnection.request(port: port, "PROPFIND", "/")
        #expect(unknown.status == 501)
        #expect(unknown.text.contains("<H1>Not Implemented</H1>"))
        // evhttp would keep a CONNECT's connection open and answer what follows on it.
        let connection = try RawConnection(port: port)
        try connection.send(
            Array("CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let answer = String(decoding: try connection.receiveAll(), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
        #expect(answer.hasSuffix("\r\n\r\n405 Method Not Allowed\n"))
        #expect(try RawConnection.request(port: port, "GET", "/robots.txt").text == "User-agent: *\n")
        server.send(SIGINT)
        #expect(try await server.waitForExit() == 0)
        #expect(server.err == "")
    }

    @Test("hostile requests get short answers and the server goes on serving")
    func hostileRequests() async throws {
        let site = try TemporaryFolder(smallSite)
        let server = try RunningBinary(["serve", "--port", "0"], in: site.url)
        let port = try #require(try await server.servedPort(), "\(server.err)")
        let long = String(repeating: "a", count: 100_000)
        let manyHeaders = (0..<10_000).map { ("X-Header-\($0)", "v") }
        for (target, headers, status) in [
            ("/" + long, [], 400),
            ("/", [("X-Long", long)], 400),
            ("/", manyHeaders, 400),
            ("/%00", [], 400),
            ("/index.html%00.css", [], 400),
            ("/%C0%AE%C0%AE/site.yml", [], 400),
            ("/%2e%2e/site.yml", [], 400),
            ("/../site.yml", [], 400),
            ("/%zz", [], 400),
        ] as [(String, [(String, String)], Int)] {
            let response = try RawConnection.request(port: port, "GET", target, headers: headers)
            #expect(response.status == status, "\(target.prefix(30)) with \(headers.count) headers")
            #expect(response.body.count < 200, "\(target.prefix(30))")
            #expect(!response.text.contains("base_url"))
        }
        // A body of a megabyte is refused before it is read.
        let body = try RawConnection(port: port)
        try body.send(Array("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n".utf8))
        #expect(try RawResponse(body.receiveAll()).status == 413)

        // 50 requests sent at once on one connection get 50 answers, in order.
        let pipelined = try RawConnection(port: port)
        let one = "GET /robots.txt HTTP/1.1\r\nHost: x\r\n\r\n"
        try pipelined.send(
            Array(
                (String(repeating: one, count: 49) + "GET /about/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .utf8))
        let answers = String(decoding: try pipelined.receiveAll(), as: UTF8.self)
        #expect(answers.components(separatedBy: "HTTP/1.1 200 OK\r\n").count == 51)
        #expect(answers.components(separatedBy: "\r\n\r\nUser-agent: *\n").count == 50)
        #expect(answers.hasSuffix("</html>\n"))

        // 1,000 connections that send half a request and wait do not keep others from being answered.
        let waiting = try (0..<1000).map { _ in try RawConnection(port: port) }
        for connection in waiting { try connection.send(Array("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8)) }
        let response = try RawConnection.request(port: port, "GET", "/movies/parasite/")
        #expect(response.status == 200)
        #expect(response.text.contains("Parasite"))
        for connection in waiting { try connection.send(Array("1\r\nConnection: close\r\n\r\n".utf8)) }
        let statuses = try waiting.map { try RawResponse($0.receiveAll(timeout: 10)).status }
        #expect(statuses.filter { $0 == 200 }.count == 1000)

        server.send(SIGINT)
        #expect(try await server.waitForExit() == 0)
        #expect(server.err == "")
    }

    @Test("a 100 MB static file is served whole with its exact bytes; HEAD says its length")
    func largeStaticFile() async throws {
        let site = try TemporaryFolder(smallSite)
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        let expected = random.readData(ofLength: 100_000_000)
        try expected.write(to: site.url.appendingPathComponent("static/film.bin"))
        let server = try RunningBinary(["serve", "--port", "0"], in: site.url)
        let port = try #require(try await server.servedPort(timeout: 30), "\(server.err)")
        let head = try RawConnection.request(port: port, "HEAD", "/film.bin")
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "100000000")
        #expect(head.body.isEmpty)
        // Read the answer as it comes, comparing it with the file instead of keeping it.
        let connection = try RawConnection(port: port)
        try connection.sendRequest("GET", "/film.bin")
        var head2: [UInt8] = []
        var offset = 0
        var same = true
        try connection.stream(timeout: 60) { chunk in
            var body = chunk
            if offset == 0 && head2.count < 4096 {
                let before = head2.count
                head2 += chunk
                guard let end = head2.indices.first(where: { head2[$0...].starts(with: Array("\r\n\r\n".utf8)) })
                else { return true }
                body = chunk[(chunk.startIndex + end + 4 - before)...]
                head2.removeSubrange((end + 4)...)
            }
            guard offset + body.count <= expected.count else {
                same = false
                return false
            }
            same =
                same
                && expected[offset..<offset + body.count].withUnsafeBytes { wanted in
                    body.isEmpty
                        || body.withUnsafeBytes { memcmp(wanted.baseAddress!, $0.baseAddress!, body.count) == 0 }
                }
            offset += body.count
            return true
        }
        #expect(String(decoding: head2, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(String(decoding: head2, as: UTF8.self).contains("\r\nContent-Length: 100000000\r\n"))
        #expect(offset == 100_000_000)
        #expect(same)
        server.send(SIGINT)
        #expect(try await server.waitForExit() == 0)
    }

    @Test("out of file descriptors, it stops accepting for a moment and says so once, then serves again")
    func outOfFileDescriptors() async throws {
        let site = try TemporaryFolder(smallSite)
        var (server, port, held) = try await serverOutOfFiles(site.url)
        try await Task.sleep(for: .seconds(2))
        #expect(
            server.err
                == "Not accepting new connections for now: Too many open files (this process may open 64 files);"
                + " waiting for connections to close\n")
        held.removeAll()
        try await Task.sleep(for: .seconds(1.5))
        #expect(try RawConnection.request(port: port, "GET", "/robots.txt").text == "User-agent: *\n")
        server.send(SIGINT)
        #expect(try await server.waitForExit() == 0)
    }

    @Test("a rebuild that ran out of open files is tried again once they are back, without another save")
    func rebuildOutOfFileDescriptors() async throws {
        let site = try TemporaryFolder(smallSite)
        var (server, port, held) = try await serverOutOfFiles(site.url)
        try save(
            review("title: Stoner\ndate: 2024-11-02\ntags: [campus]", body: "Read again."),
            to: site.url.appendingPathComponent("content/books/stoner.md"))
        #expect(
            try await server.waitForOutput { _, err in
                err.contains("Too many open files") && err.contains("Trying again in 1 s")
            }, "\(server.err)")
        held.removeAll()
        // Tried again after 1, 2, 4… s: a test kept waiting for a while may see a later try succeed.
        #expect(
            try await server.waitForOutput(timeout: 60) { _, err in err.contains("the errors are fixed") },
            "\(server.err)")
        let page = try RawConnection.request(port: port, "GET", "/books/stoner/").text
        #expect(page.contains("Read again."))
        server.send(SIGINT)
        #expect(try await server.waitForExit() == 0)
    }

    @Test(
        "a section folder moved out of content/: its pages are 404 after the rebuild, and editing it there rebuilds nothing"
    )
    func folderMovedOut() async throws {
        let site = try TemporaryFolder(smallSite)
        let outside = try TemporaryFolder()
        let server = try RunningBinary(["serve", "--port", "0"], in: site.url)
        let url = try #require(await server.servedURL(), "\(server.err)")
        let (_, before) = try await get(url + "books/stoner/")
        #expect(before.statusCode == 200)
        let moved = outside.url.appendingPathComponent("books")
        try FileManager.default.moveItem(at: site.url.appendingPathComponent("content/books"), to: moved)
        #expect(try await server.waitForOutput { _, err in err.contains("Rebuilt (") }, "\(server.err)")
        for page in ["books/stoner/", "books/", "tags/campus/"] {
            let (_, after) = try await get(url + page)
            #expect(after.statusCode == 404, "\(page)")
        }
        let (home, _) = try await get(url)
        #expect(!home.contains("Stoner"))
        let log = server.err
        try save(
            review("title: Stoner\ndate: 2024-11-02\ntags: [campus]", body: "Edited elsewhere."),
            to: moved.appendingPathComponent("stoner.md"))
        try save(review("title: New\ndate: 2024-11-03"), to: moved.appendingPathComponent("new.md"))
        try await Task.sleep(for: .seconds(1))
        #expect(server.err == log)
        #expect(log.wholeMatch(of: /Rebuilt \(\d+ files? changed\) in \d+ ms\n/) != nil, "\(log)")
        server.send(SIGINT)
        #expect(try await server.waitForExit() == 0)
    }

    @Test("a site that does not build is served as its errors until a save fixes it, then as the site")
    func brokenAtStart() async throws {
        var files = smallSite
        files["content/movies/parasite.md"] = review("title: Parasite\ndate: someday")
        let site = try TemporaryFolder(files)
        let server = try RunningBinary(["serve", "--port", "0"], in: site.url)
        let url = try #require(await server.servedURL(), "\(server.err)")
        let errors = """
            content/movies/parasite.md:3:7: "date" must be a date written YYYY-MM-DD, not "someday"
            loading the site failed: 1 error
            """
        #expect(server.err == "The site did not build; serving its errors until a change builds it:\n\(errors)\n")
        #expect(server.out == "Serving . at \(url) (Ctrl-C to stop)\n")
        for path in ["", "movies/parasite/", "assets/site.css", "nowhere/"] {
            let (page, response) = try await get(url + path)
            #expect(response.statusCode == 500, "\(path)")
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/html; charset=utf-8")
            #expect(page.contains("The site did not build: save a fix and this page reloads"))
            #expect(page.contains("content/movies/parasite.md:3:7: &quot;date&quot; must be a date"), "\(page)")
            #expect(page.contains(#"new EventSource("/__sitegen/events")"#))
        }

        // Fixed, with a film the metadata cache has nothing for: the warning a build prints, once built.
        try save(
            review("title: Parasite\ndate: 2025-01-02\nyear: 2019", body: "Fixed at last."),
            to: site.url.appendingPathComponent("content/movies/parasite.md"))
        let warning =
            "warning: 1 review names a film or book with nothing in the metadata cache: run sitegen fetch "
            + "(--verbose lists it)\n"
        #expect(try await server.waitForOutput { _, err in err.hasSuffix(warning) }, "\(server.err)")
        let built = try #require(server.err.split(separator: "\n").dropLast().last)
        #expect(built.wholeMatch(of: /Built \(\d+ files; the errors are fixed\) in \d+ ms/) != nil, "\(server.err)")
        let (page, response) = try await get(url + "movies/parasite/")
        #expect(response.statusCode == 200)
        #expect(page.contains("<p>Fixed at last.</p>"))
        #expect(!page.contains("sitegen-errors"))
        server.send(SIGINT)
        #expect(try await server.waitForExit() == 0)
    }

    @Test("a save that brings a warning prints it after its rebuild, once; fixed and brought back, again")
    func warningsOfEdits() async throws {
        let site = try TemporaryFolder(smallSite)
        let server = try RunningBinary(["serve", "--port", "0"], in: site.url)
        _ = try #require(await server.servedURL(), "\(server.err)")
        #expect(server.err == "")
        let file = site.url.appendingPathComponent("content/movies/parasite.md")
        let rebuilds = { (count: Int) in
            try await server.waitForOutput { _, err in err.components(separatedBy: "Rebuilt (").count > count }
        }
        let mood =
            "content/movies/parasite.md:4:1: warning: \"mood\" is not a field sitegen knows: templates get it as "
            + "review.extra.mood; if that is meant, list it in site.yml under extra_fields"
        try save(review("title: Parasite\ndate: 2026-03-14\nmood: grim", body: "The stairs."), to: file)
        #expect(try await rebuilds(1), "\(server.err)")
        #expect(try await server.waitForOutput { _, err in err.contains(mood) }, "\(server.err)")
        #expect(
            server.err.wholeMatch(of: /Rebuilt \(\d+ files? changed\) in \d+ ms\n(.*)\n/)?.1 == mood[...],
            "\(server.err)")
        // Saved again with the same field: nothing new to say.
        try save(review("title: Parasite\ndate: 2026-03-14\nmood: grim", body: "The stairs, again."), to: file)
        #expect(try await rebuilds(2), "\(server.err)")
        // Dated after today: the review is left out, and the warning says so.
        try save(review("title: Parasite\ndate: 2999-01-01\nmood: grim"), to: file)
        let later =
            "content/movies/parasite.md:1:1: warning: dated after today and left out until 2999-01-01: --future includes it"
        #expect(try await server.waitForOutput { _, err in err.contains(later) }, "\(server.err)")
        // Fixed, then the field brought back: printed again.
        try save(review("title: Parasite\ndate: 2026-03-14"), to: file)
        #expect(try await rebuilds(4), "\(server.err)")
        try save(review("title: Parasite\ndate: 2026-03-14\nmood: calm"), to: file)
        #expect(
            try await server.waitForOutput { _, err in err.components(separatedBy: mood).count == 3 }, "\(server.err)")
        let lines = server.err.split(separator: "\n").map { $0.hasPrefix("Rebuilt (") ? "Rebuilt" : String($0) }
        #expect(lines == ["Rebuilt", mood, "Rebuilt", "Rebuilt", later, "Rebuilt", "Rebuilt", mood], "\(server.err)")
        server.send(SIGINT)
        #expect(try await server.waitForExit() == 0)
    }

    @Test("a folder without site.yml is not served: the error and exit code 1")
    func notASite() async throws {
        let site = try TemporaryFolder(["content/movies/parasite.md": review("title: Parasite\ndate: 2025-01-02")])
        let server = try RunningBinary(["serve", "--port", "0"], in: site.url)
        #expect(try await server.waitForExit() == 1)
        #expect(
            server.err == """
                site.yml:1:1: no site.yml here: is \(site.url.standardizedFileURL.path) a site folder?
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

/// `sitegen serve` of the site at `folder`, allowed 64 open files, with 100 connections held
/// open to it: it has run out of files, and said so.
private func serverOutOfFiles(_ folder: URL) async throws -> (RunningBinary, Int, [RawConnection]) {
    let server = try RunningBinary(["serve", "--port", "0"], in: folder, openFiles: 64)
    let port = try #require(try await server.servedPort(), "\(server.err)")
    var held: [RawConnection] = []
    for _ in 0..<100 { held.append(try RawConnection(port: port)) }
    #expect(
        try await server.waitForOutput { _, err in err.contains("Not accepting new connections for now") },
        "\(server.err)")
    return (server, port, held)
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
