import EventHTTP
import Foundation
import Mustache
import Synchronization
import Testing

@testable import SiteGen

#if canImport(Glibc)
    import Glibc
#endif

/// `sitegen serve` as a library: a ``PreviewServer`` on a free loopback port, talked to over
/// real sockets, and ``LiveSite``'s incremental rebuilds checked against full builds.
@Suite("sitegen serve", .serialized)
struct ServeTests {
    // MARK: Answers

    @Test("each kind of file is served with its Content-Type, an ETag, no-cache and its exact bytes")
    func contentTypes() throws {
        let site = try ServedSite(fixture)
        let built = try builtFiles(site.folder, port: site.port)
        let types = [
            ("/", "text/html; charset=utf-8"),
            ("/movies/parasite/", "text/html; charset=utf-8"),
            ("/assets/site.css", "text/css; charset=utf-8"),
            ("/app.js", "text/javascript; charset=utf-8"),
            ("/data.json", "application/json"),
            ("/feed.xml", "application/atom+xml; charset=utf-8"),
            ("/sitemap.xml", "application/xml; charset=utf-8"),
            ("/images/data.xml", "application/xml; charset=utf-8"),
            ("/assets/favicon.svg", "image/svg+xml"),
            ("/pic.png", "image/png"),
            ("/photo.jpg", "image/jpeg"),
            ("/photo.jpeg", "image/jpeg"),
            ("/pic.webp", "image/webp"),
            ("/font.woff2", "font/woff2"),
            ("/robots.txt", "text/plain; charset=utf-8"),
            ("/notes.unknownext", "application/octet-stream"),
            ("/paper.pdf", "application/pdf"),
            ("/clip.mp4", "video/mp4"),
            ("/module.wasm", "application/wasm"),
            ("/app.webmanifest", "application/manifest+json"),
        ]
        for (target, contentType) in types {
            let response = try site.request("GET", target)
            #expect(response.status == 200, "\(target)")
            #expect(response.header("Content-Type") == contentType, "\(target)")
            #expect(response.header("Cache-Control") == "no-cache", "\(target)")
            #expect(response.header("ETag")?.wholeMatch(of: /"[0-9a-f]{1,16}"/) != nil, "\(target): \(response)")
            #expect(response.header("Content-Length") == "\(response.body.count)", "\(target)")
            let path = target.hasSuffix("/") ? String(target.dropFirst()) + "index.html" : String(target.dropFirst())
            let file = try #require(built[path], "\(path)")
            if contentType.hasPrefix("text/html") {
                #expect(response.body == LiveReload.inject(into: [UInt8](file), overlay: nil), "\(target)")
            } else {
                #expect(response.body == [UInt8](file), "\(target)")
            }
            if let original = fixture["static" + target] { #expect(response.text == original, "\(target)") }
        }
    }

    @Test("HEAD answers with GET's status and headers, Content-Length included, and no body")
    func head() throws {
        let site = try ServedSite(fixture)
        for target in ["/", "/assets/site.css", "/nope", "/movies"] {
            let get = try site.request("GET", target)
            let head = try site.request("HEAD", target)
            #expect(head.status == get.status, "\(target)")
            #expect(head.body.isEmpty, "\(target)")
            for name in ["Content-Type", "Content-Length", "ETag", "Cache-Control", "Location"] {
                #expect(head.header(name) == get.header(name), "\(target): \(name)")
            }
        }
        // A body after a HEAD answer would be read as the next answer on the same connection.
        let connection = try RawConnection(port: site.port)
        try connection.sendRequest("HEAD", "/", keepAlive: true)
        try connection.sendRequest("GET", "/robots.txt")
        let both = String(decoding: try connection.receiveAll(), as: UTF8.self)
        #expect(both.components(separatedBy: "HTTP/1.1 200 OK\r\n").count == 3, "\(both.prefix(300))")
        #expect(both.hasSuffix("\r\n\r\nUser-agent: *\n"))
    }

    @Test("HEAD of the live-reload stream gets its headers and ends; a request after it is answered at once")
    func headOfEvents() throws {
        let site = try ServedSite(fixture)
        let connection = try RawConnection(port: site.port)
        try connection.sendRequest("HEAD", LiveReload.eventsPath, keepAlive: true)
        try connection.sendRequest("GET", "/robots.txt")
        let both = String(decoding: try connection.receiveAll(timeout: 5), as: UTF8.self)
        #expect(both.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(both)")
        #expect(both.contains("Content-Type: text/event-stream\r\n"))
        #expect(both.hasSuffix("\r\n\r\nUser-agent: *\n"))
    }

    @Test("a live-reload stream gets a comment while nothing is rebuilt, so the idle time-out never closes it")
    func heartbeat() async throws {
        let site = try ServedSite(fixture, limits: HTTPLimits(idleSeconds: 1), heartbeatSeconds: 0.25)
        let stream = try RawConnection(port: site.port)
        try stream.sendRequest("GET", LiveReload.eventsPath, keepAlive: true)
        // Three idle time-outs pass: each comment restarts it.
        let start = Date()
        while Date().timeIntervalSince(start) < 3 { try stream.receive(timeout: 0.5) }
        let text = { String(decoding: stream.received, as: UTF8.self) }
        #expect(!stream.isClosed)
        #expect(text().components(separatedBy: ": keep-alive\n\n").count > 4, "\(text())")
        try site.write("content/movies/parasite.md", parasite(body: "The *stairs*.\n\nA second look."))
        #expect(
            try stream.receive(until: { String(decoding: $0, as: UTF8.self).contains("event: reload") }, timeout: 10))
        // Without comments, an idle stream is closed.
        let quiet = try ServedSite(fixture, limits: HTTPLimits(idleSeconds: 1), heartbeatSeconds: 1000)
        let closed = try RawConnection(port: quiet.port)
        try closed.sendRequest("GET", LiveReload.eventsPath, keepAlive: true)
        #expect(try closed.waitForClose(timeout: 10))
    }

    @Test("methods HTTP defines other than GET and HEAD get 405 with Allow: GET, HEAD and a one-line body")
    func otherMethods() throws {
        let site = try ServedSite(fixture)
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT"] {
            for target in ["/", "/movies/parasite/", "/nope", LiveReload.eventsPath, "/../site.yml", "*"] {
                let response = try site.request(method, target)
                #expect(response.status == 405, "\(method) \(target)")
                #expect(response.header("Allow") == "GET, HEAD", "\(method) \(target)")
                #expect(response.header("Content-Type") == "text/plain", "\(method) \(target)")
                #expect(response.header("Content-Length") == "23", "\(method) \(target)")
                #expect(response.text == "405 Method Not Allowed\n", "\(method) \(target)")
            }
        }
        // A body is read (up to 64 KB) before the method is looked at; a longer one gets 413 from libevent.
        for (size, status) in [(5, 405), (64 * 1024, 405), (64 * 1024 + 1, 413)] {
            let connection = try RawConnection(port: site.port)
            try connection.send(
                Array("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(size)\r\n\r\n".utf8)
                    + [UInt8](repeating: 120, count: size))
            #expect(try RawResponse(connection.receiveAll()).status == status, "\(size) bytes")
        }
    }

    @Test("a method HTTP does not define gets 501 Not Implemented from libevent, and the connection closes")
    func unknownMethods() throws {
        let site = try ServedSite(fixture)
        for method in ["PROPFIND", "MKCOL", "BREW", "get", "Get"] {
            let connection = try RawConnection(port: site.port)
            try connection.sendRequest(method, "/", keepAlive: true)
            let response = try RawResponse(connection.receiveAll(timeout: 5))
            #expect(response.status == 501, "\(method)")
            #expect(response.header("Connection") == "close", "\(method)")
            #expect(response.header("Content-Type") == "text/html", "\(method)")
            #expect(
                response.text
                    == "<HTML><HEAD>\n<TITLE>501 Not Implemented</TITLE>\n</HEAD><BODY>\n<H1>Not Implemented</H1>\n</BODY></HTML>\n",
                "\(method)")
        }
    }

    @Test("a CONNECT answer says its length and closes the connection; a request pipelined behind it is not answered")
    func connect() throws {
        let site = try ServedSite(fixture)
        let connection = try RawConnection(port: site.port)
        try connection.send(
            Array(
                "CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8
            ))
        let bytes = try connection.receiveAll(timeout: 5)
        let response = try RawResponse(bytes)
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD")
        #expect(response.header("Connection") == "close")
        #expect(response.text == "405 Method Not Allowed\n")
        #expect(String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").count == 2)
        #expect(try site.request("GET", "/robots.txt").text == "User-agent: *\n")
    }

    @Test("the ETag hash is the same for the same bytes and differs when any one byte or the length changes")
    func etagHash() {
        let bytes = (0..<37).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let hash = { (bytes: [UInt8]) in bytes.withUnsafeBytes(ServedFile.hash) }
        #expect(hash(bytes) == hash(bytes))
        var seen: Set<UInt64> = [hash(bytes), hash(Array(bytes.dropLast())), hash([])]
        #expect(seen.count == 3)
        for position in bytes.indices {
            var changed = bytes
            changed[position] ^= 1
            seen.insert(hash(changed))
        }
        #expect(seen.count == 3 + bytes.count)
    }

    @Test("an ETag sent back in If-None-Match gets 304 with no body until the file changes")
    func conditionalRequests() async throws {
        let site = try ServedSite(fixture)
        let first = try site.request("GET", "/movies/parasite/")
        let etag = try #require(first.header("ETag"))
        let again = try site.request("GET", "/movies/parasite/", headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.header("ETag") == etag)
        #expect(again.header("Cache-Control") == "no-cache")
        let weak = "W/" + etag
        for header in [
            "\"0\", \(etag)", "*", weak, "\"0\",\(weak)", "  \(weak) ,\"1\"", "\"a,b\", \(etag)",
            "W/\"0\", W/\"1\", \(weak)",
        ] {
            #expect(
                try site.request("GET", "/movies/parasite/", headers: [("If-None-Match", header)]).status == 304,
                "\(header)")
        }
        // Other tags, the tag unquoted or cut short, and a star that is not a list of its own do not match.
        let unquoted = String(etag.dropFirst().dropLast())
        for header in [
            "\"0\"", "W/\"0\"", unquoted, "W/\(unquoted)", String(etag.dropLast()), "w/\(etag)", "\"*\"", "",
        ] {
            let other = try site.request("GET", "/movies/parasite/", headers: [("If-None-Match", header)])
            #expect(other.status == 200, "\(header)")
            #expect(other.body == first.body, "\(header)")
        }
        #expect(try site.request("GET", "/", headers: [("If-None-Match", etag)]).status == 200)
        #expect(try site.request("GET", "/nope", headers: [("If-None-Match", "*")]).status == 404)
        #expect(try site.request("HEAD", "/movies/parasite/", headers: [("If-None-Match", etag)]).status == 304)
        #expect(try site.request("HEAD", "/movies/parasite/", headers: [("If-None-Match", weak)]).status == 304)
        // Sent as two header lines, the list still matches.
        let split = try site.request(
            "GET", "/movies/parasite/", headers: [("If-None-Match", "\"0\""), ("If-None-Match", weak)])
        #expect(split.status == 304)

        try site.write("content/movies/parasite.md", parasite(body: "The *stairs*.\n\nA second look."))
        _ = try #require(await site.waitForRebuild { $0.update?.changedFiles.isEmpty == false })
        let changed = try site.request("GET", "/movies/parasite/", headers: [("If-None-Match", etag)])
        #expect(changed.status == 200)
        #expect(changed.text.contains("<p>A second look.</p>"))
        let newTag = try #require(changed.header("ETag"))
        #expect(newTag != etag)
        #expect(try site.request("GET", "/movies/parasite/", headers: [("If-None-Match", newTag)]).status == 304)
    }

    @Test(
        "a range of a file is sent with 206 (how browsers play video and resume downloads); HEAD, If-Range and bad ranges get the whole file"
    )
    func rangeRequests() throws {
        var files = fixture
        let video = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        files["static/clip.mp4"] = String(decoding: video.map { $0 & 0x7F }, as: UTF8.self)
        let site = try ServedSite(files)
        let whole = try site.request("GET", "/clip.mp4")
        #expect(whole.status == 200)
        #expect(whole.header("Accept-Ranges") == "bytes")
        #expect(whole.header("Content-Type") == "video/mp4")
        let etag = try #require(whole.header("ETag"))
        #expect(whole.body.count == 5000)
        for (header, part) in [
            ("bytes=0-1", 0..<2), ("bytes=4990-", 4990..<5000), ("bytes=-7", 4993..<5000),
            ("bytes=100-99999", 100..<5000),
        ] {
            let response = try site.request("GET", "/clip.mp4", headers: [("Range", header)])
            #expect(response.status == 206, "\(header)")
            #expect(response.body == Array(whole.body[part]), "\(header)")
            #expect(response.header("Content-Length") == "\(part.count)", "\(header)")
            #expect(response.header("Content-Range") == "bytes \(part.lowerBound)-\(part.upperBound - 1)/5000")
            #expect(response.header("ETag") == etag)
            #expect(response.header("Content-Type") == "video/mp4")
        }
        let beyond = try site.request("GET", "/clip.mp4", headers: [("Range", "bytes=5000-")])
        #expect(beyond.status == 416)
        #expect(beyond.header("Content-Range") == "bytes */5000")
        for headers in [
            [("Range", "bytes=0-1,3-4")], [("Range", "bytes=9-2")], [("Range", "lines=1-2")],
            [("Range", "bytes=0-1"), ("If-Range", "\"other\"")], [("Range", "bytes=0-1"), ("If-Range", "W/" + etag)],
        ] {
            let response = try site.request("GET", "/clip.mp4", headers: headers)
            #expect(response.status == 200, "\(headers)")
            #expect(response.body == whole.body, "\(headers)")
        }
        let current = try site.request("GET", "/clip.mp4", headers: [("Range", "bytes=1-2"), ("If-Range", etag)])
        #expect(current.status == 206)
        #expect(current.body == Array(whole.body[1..<3]))
        // HEAD ignores Range; a page (with the live-reload script) has ranges too.
        let head = try site.request("HEAD", "/clip.mp4", headers: [("Range", "bytes=0-1")])
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "5000")
        #expect(head.body.isEmpty)
        let page = try site.request("GET", "/movies/parasite/")
        let tail = try site.request("GET", "/movies/parasite/", headers: [("Range", "bytes=-20")])
        #expect(tail.status == 206)
        #expect(tail.body == Array(page.body.suffix(20)))
        // A tag that matches still answers 304 before any range is read.
        #expect(
            try site.request("GET", "/clip.mp4", headers: [("Range", "bytes=0-1"), ("If-None-Match", etag)])
                .status == 304)
    }

    @Test("a folder is served from its index.html; without its final slash it redirects, keeping the query")
    func folders() throws {
        let site = try ServedSite(fixture)
        let index = try site.request("GET", "/index.html")
        #expect(try site.request("GET", "/").body == index.body)
        #expect(try site.request("GET", "/movies/").body == (try site.request("GET", "/movies/index.html")).body)
        for (target, location) in [
            ("/movies", "/movies/"), ("/movies/parasite", "/movies/parasite/"), ("/movies?page=2", "/movies/?page=2"),
            ("/tags/korea", "/tags/korea/"),
        ] {
            let response = try site.request("GET", target)
            #expect(response.status == 301, "\(target)")
            #expect(response.header("Location") == location)
            #expect(response.text == "Moved to \(location)\n")
        }
        let query = try site.request("GET", "/movies/?utm=x")
        #expect(query.status == 200)
        #expect(query.body == (try site.request("GET", "/movies/")).body)
    }

    @Test("a missing file gets status 404 with the site's own 404 page")
    func notFound() throws {
        let site = try ServedSite(fixture)
        let page = try String(decoding: #require(builtFiles(site.folder, port: site.port)["404.html"]), as: UTF8.self)
        #expect(page.contains("<h1>Page not found</h1>"))
        for target in [
            "/nope", "/movies/nope/", "/movies/parasite/index.htm", "/content/movies/parasite.md", "/site.yml",
        ] {
            let response = try site.request("GET", target)
            #expect(response.status == 404, "\(target)")
            #expect(response.header("Content-Type") == "text/html; charset=utf-8")
            #expect(
                response.text
                    == String(decoding: LiveReload.inject(into: Array(page.utf8), overlay: nil), as: UTF8.self))
        }
    }

    // MARK: Never outside the site

    @Test("requests that try to leave the site get 400, or 404 when they stay inside it")
    func traversal() throws {
        let site = try ServedSite(fixture)
        let attempts = [
            ("/../site.yml", 400),
            ("/../../../../etc/passwd", 400),
            ("/movies/../../site.yml", 400),
            ("/movies/parasite/../", 400),
            ("/./index.html", 400),
            ("/%2e%2e/site.yml", 400),
            ("/%2E%2E/%2E%2E/etc/passwd", 400),
            ("/.%2e/site.yml", 400),
            ("/%2e/index.html", 400),
            ("/..%2fsite.yml", 400),
            ("/..%2Fsite.yml", 400),
            ("/movies%2fparasite/index.html", 400),
            ("/%2fetc%2fpasswd", 400),
            ("/..%5csite.yml", 400),
            ("/..%5Csite.yml", 400),
            ("/..\\site.yml", 400),
            ("/movies\\..\\..\\site.yml", 400),
            ("/%00", 400),
            ("/index.html%00.css", 400),
            ("/%", 400),
            ("/%zz", 400),
            ("http://127.0.0.1/../site.yml", 400),
            ("*", 400),
            ("site.yml", 400),
            // Decoded bytes that are not UTF-8: overlong forms of "." and "/", a surrogate, past U+10FFFF.
            ("/%C0%AE%C0%AE/site.yml", 400),
            ("/%c0%ae%c0%ae%c0%afsite.yml", 400),
            ("/%E0%80%AE%E0%80%AE/site.yml", 400),
            ("/%ED%A0%80", 400),
            ("/%F4%90%80%80", 400),
            ("/%FF", 400),
            // Escaped control characters (a header injection among them), truncated and bad escapes.
            ("/%01", 400),
            ("/%1f", 400),
            ("/%7F", 400),
            ("/index.html%0d%0aSet-Cookie:%20x=1", 400),
            ("/%2", 400),
            ("/%g0", 400),
            // Raw bytes a request target may not hold.
            ("/caf\u{e9}", 400),
            ("/?q=\u{e9}", 400),
            ("//etc/passwd", 404),
            ("//movies", 404),
            ("/etc/passwd", 404),
            ("/a%20b", 404),
            // "/" and a combining mark are one Character: the path must still be read byte by byte.
            ("/%CC%9Aindex.html", 404),
            ("/%CC%9A../site.yml", 404),
            ("/...", 404),
            ("/..../site.yml", 404),
            ("/%2e%2e%2e/site.yml", 404),
        ]
        for (target, status) in attempts {
            let response = try site.request("GET", target)
            #expect(response.status == status, "\(target): \(response)")
            #expect(!response.text.contains("base_url"), "\(target)")
            if status == 400 {
                #expect(response.text == "400 Bad Request\n", "\(target)")
                #expect(response.header("Content-Type") == "text/plain", "\(target)")
            } else {
                #expect(response.text.contains("<h1>Page not found</h1>"), "\(target)")
            }
        }
        // Escaped letters are only letters.
        #expect(try site.request("GET", "/%72obots.txt").text == "User-agent: *\n")
        #expect(
            try site.request("GET", "/movies/par%61site/").body == (try site.request("GET", "/movies/parasite/")).body)
    }

    @Test("a redirect to a folder keeps the path as it was sent, escapes and all")
    func redirectKeepsEscapes() throws {
        var files = fixture
        files["static/sub folder/index.html"] = "<!DOCTYPE html><title>sub</title><body>sub</body>\n"
        let site = try ServedSite(files)
        let redirect = try site.request("GET", "/sub%20folder?x=%20")
        #expect(redirect.status == 301)
        #expect(redirect.header("Location") == "/sub%20folder/?x=%20")
        #expect(try site.request("GET", "/sub%20folder/").text.hasPrefix("<!DOCTYPE html><title>sub</title>"))
    }

    @Test("a NUL byte in the request line is refused with 400 before any file is looked up")
    func nulByte() throws {
        let site = try ServedSite(fixture)
        for target in ["/\u{0}", "/index.html\u{0}.css", "/..\u{0}/site.yml"] {
            let connection = try RawConnection(port: site.port)
            try connection.send(Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            let response = try RawResponse(connection.receiveAll())
            #expect(response.status == 400, "\(target.debugDescription)")
            #expect(!response.text.contains("<!DOCTYPE html>\n<html lang=\"en\">"))
        }
    }

    @Test("a file or folder in static/ that links outside it is never served, and the rebuild says why")
    func symlinksOutOfTheTree() async throws {
        let site = try ServedSite(fixture)
        let outside = try ScratchFolder()
        try outside.write("secret.txt", "do not publish")
        let fileManager = FileManager.default
        try fileManager.createSymbolicLink(
            at: site.folder.appendingPathComponent("static/leak.txt"),
            withDestinationURL: outside.url.appendingPathComponent("secret.txt"))
        let failed = try #require(await site.waitForRebuild { $0.errors != nil })
        #expect(
            failed.errors == """
                static/leak.txt:1:1: refused: it is a link to a place outside the site folder
                loading the site failed: 1 error
                """)
        try fileManager.createSymbolicLink(
            at: site.folder.appendingPathComponent("static/outside"), withDestinationURL: outside.url)
        let count = site.rebuilds.count
        _ = try #require(await site.waitForRebuild(after: count) { $0.errors != nil })
        for target in ["/leak.txt", "/outside/secret.txt", "/outside/"] {
            let response = try site.request("GET", target)
            #expect(response.status == 404, "\(target)")
            #expect(!response.text.contains("do not publish"))
        }
        try site.remove("static/leak.txt")
        try site.remove("static/outside")
        let recovered = try #require(await site.waitForRebuild(after: count + 1) { $0.errors == nil })
        #expect(recovered.update != nil)
        #expect(try site.request("GET", "/leak.txt").status == 404)
        #expect(!(try site.request("GET", "/").text.contains("sitegen-errors")))
    }

    @Test("a site that links outside static/ when the server starts serves only the error, which names the file")
    func symlinkAtStart() throws {
        let outside = try ScratchFolder()
        try outside.write("secret.txt", "do not publish")
        let folder = try ScratchFolder()
        for (path, text) in fixture { try folder.write(path, text) }
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("static/leak.txt"),
            withDestinationURL: outside.url.appendingPathComponent("secret.txt"))
        let log = Mutex<[String]>([])
        let server = try PreviewServer(
            options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")),
            host: "127.0.0.1", port: 0, log: { line in log.withLock { $0.append(line) } })
        defer { server.stop() }
        try server.start()
        let error = BuildError(
            step: "loading the site",
            diagnostics: [
                Diagnostic(
                    "refused: it is a link to a place outside the site folder",
                    at: Mustache.SourceLocation(path: "static/leak.txt", line: 1, column: 1))
            ])
        #expect(log.withLock { $0 } == [PreviewServer.unbuilt + "\n\(error)"])
        let leak = try RawConnection.request(port: server.port, "GET", "/leak.txt")
        #expect(leak.status == 500)
        #expect(!leak.text.contains("do not publish"))
        #expect(leak.text.contains("static/leak.txt:1:1: refused: it is a link to a place outside the site folder"))
    }

    @Test("a save during the first build is seen: the files are watched before it starts")
    func saveDuringFirstBuild() async throws {
        let folder = try ScratchFolder()
        for (path, text) in fixture { try folder.write(path, text) }
        try folder.write("content/movies/parasite.md", "---\ntitle: Parasite\ndate: someday\n---\nBroken.\n")
        let rebuilds = Mutex<[String?]>([])
        let server = try PreviewServer(
            options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")),
            host: "127.0.0.1", port: 0, limits: HTTPLimits(), heartbeatSeconds: 25, log: { _ in },
            beforeFirstBuild: { try folder.write("content/movies/parasite.md", parasite(body: "Fixed early.")) })
        server.onRebuild = { _, errors in rebuilds.withLock { $0.append(errors) } }
        defer { server.stop() }
        try server.start()
        // The build read the fixed file; the save it made is reported once serving starts.
        for _ in 0..<500 where rebuilds.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(rebuilds.withLock { $0 } == [nil])
        #expect(try RawConnection.request(port: server.port, "GET", "/movies/parasite/").text.contains("Fixed early."))
    }

    @Test("a .sitegen link out of the site at start is served as the error, and removing it builds the site")
    func stateFolderLinkAtStart() async throws {
        let outside = try ScratchFolder()
        let folder = try ScratchFolder()
        for (path, text) in fixture { try folder.write(path, text) }
        let link = folder.url.appendingPathComponent(".sitegen")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside.url)
        let rebuilds = Mutex<[String?]>([])
        let server = try PreviewServer(
            options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")),
            host: "127.0.0.1", port: 0, log: { _ in })
        server.onRebuild = { _, errors in rebuilds.withLock { $0.append(errors) } }
        defer { server.stop() }
        try server.start()
        let unbuilt = try RawConnection.request(port: server.port, "GET", "/")
        #expect(unbuilt.status == 500)
        #expect(unbuilt.text.contains(".sitegen:1:1: refused: it is a link that leads out of the site folder"))
        // A malformed target is still a bad request, as when the site is built.
        for target in ["/../site.yml", "/%00", "*"] {
            let bad = try RawConnection.request(port: server.port, "GET", target)
            #expect(bad.status == 400, "\(target)")
            #expect(bad.text == "400 Bad Request\n", "\(target)")
        }
        try FileManager.default.removeItem(at: link)
        for _ in 0..<500 where rebuilds.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(rebuilds.withLock { $0 } == [nil])
        #expect(try RawConnection.request(port: server.port, "GET", "/").status == 200)
    }

    @Test("the watcher reports a link put at .sitegen or taken away, not sitegen's own folder there")
    func watcherStateFolder() async throws {
        let folder = try ScratchFolder()
        try folder.write("content/books/a.md", "a")
        let outside = try ScratchFolder()
        let reports = Mutex<[Set<String>]>([])
        let watcher = try Watcher(root: folder.url.path, watched: ["content"]) { paths in
            reports.withLock { $0.append(paths) }
        }
        watcher.start()
        defer { watcher.stop() }
        let state = folder.url.appendingPathComponent(".sitegen")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: false)
        try folder.write(".sitegen/cache", "x")
        #expect(try await nextReport(reports) == nil)
        try FileManager.default.removeItem(at: state)
        #expect(try await nextReport(reports) == nil)
        try FileManager.default.createSymbolicLink(at: state, withDestinationURL: outside.url)
        #expect(try await nextReport(reports) == [".sitegen"])
        try FileManager.default.removeItem(at: state)
        #expect(try await nextReport(reports) == [".sitegen"])
    }

    // MARK: Live reload

    @Test("HTML pages carry the live-reload script once, before </body>; other files and the built site do not")
    func liveReloadScript() throws {
        let site = try ServedSite(fixture)
        let built = try builtFiles(site.folder, port: site.port)
        let script = #"<script>(function(){var e=new EventSource("/__sitegen/events");"#
        for (path, data) in built {
            let served = try site.request("GET", "/" + path)
            #expect(served.status == 200, "\(path)")
            let builtText = String(decoding: data, as: UTF8.self)
            #expect(!builtText.contains("EventSource"), "\(path) as built")
            if path.hasSuffix(".html") {
                #expect(served.text.components(separatedBy: script).count == 2, "\(path)")
                #expect(served.text.hasSuffix(LiveReload.script + "</body>\n</html>\n"), "\(path)")
                #expect(
                    served.text == builtText.replacingOccurrences(of: "</body>", with: LiveReload.script + "</body>"))
            } else {
                #expect(served.body == [UInt8](data), "\(path)")
            }
        }
        #expect(built.count == 56)
    }

    @Test("the events stream is open, typed text/event-stream, and says `reload` after a review changes")
    func reloadEvent() async throws {
        let site = try ServedSite(fixture)
        let events = try EventStreamClient(port: site.port)
        let second = try EventStreamClient(port: site.port)
        #expect(events.head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(events.head.contains("\r\nContent-Type: text/event-stream\r\n"))
        #expect(events.head.contains("\r\nCache-Control: no-cache\r\n"))
        #expect(events.head.contains("\r\nTransfer-Encoding: chunked\r\n"))
        let start = ContinuousClock.now
        try site.write("content/movies/parasite.md", parasite(body: "The *stairs*.\n\nSeen again."))
        #expect(try events.next(timeout: 3) == "reload")
        #expect(ContinuousClock.now - start < .seconds(1.5))
        #expect(try second.next(timeout: 3) == "reload")
        #expect(try site.request("GET", "/movies/parasite/").text.contains("<p>Seen again.</p>"))
        let rebuild = try #require(await site.waitForRebuild())
        #expect(
            rebuild.update
                == LiveSite.Update(
                    kind: .reviews,
                    changedFiles: [
                        "feed.xml", "movies/feed.xml", "movies/parasite/index.html", "search/text-0.txt",
                        "tags/korea/feed.xml", "tags/thriller/feed.xml",
                    ]))
        #expect(site.log.last?.wholeMatch(of: /Rebuilt \(6 files changed\) in \d+ ms/) != nil, "\(site.log)")
        #expect(try events.next(timeout: 0.3) == nil)
    }

    @Test("a stylesheet-only change sends `css`; a template or page change sends `reload`")
    func cssEvent() async throws {
        let site = try ServedSite(fixture)
        let events = try EventStreamClient(port: site.port)
        try site.write("static/assets/extra.css", "p { color: teal }\n")
        #expect(try events.next() == "css")
        #expect(
            try await site.waitForChange()?.update
                == LiveSite.Update(kind: .staticFiles, changedFiles: ["assets/extra.css"]))
        #expect(try site.request("GET", "/assets/extra.css").text == "p { color: teal }\n")
        var before = site.rebuilds.count
        try site.write("Templates/assets/site.css", "body { color: red }\n")
        #expect(try events.next() == "css")
        #expect(
            try await site.waitForChange(after: before)?.update
                == LiveSite.Update(kind: .templates, changedFiles: ["assets/site.css"]))
        #expect(try site.request("GET", "/assets/site.css").text == "body { color: red }\n")
        before = site.rebuilds.count
        try site.write("static/robots.txt", "User-agent: nobody\n")
        #expect(try events.next() == "reload")
        _ = try await site.waitForChange(after: before)
        before = site.rebuilds.count
        try site.write(
            "Templates/page.mustache",
            "{{<layout}}{{$content}}<h1 class=\"mine\">{{title}}</h1>{{/content}}{{/layout}}\n")
        #expect(try events.next() == "reload")
        #expect(
            try await site.waitForChange(after: before)?.update
                == LiveSite.Update(kind: .templates, changedFiles: ["about/index.html"]))
        #expect(try site.request("GET", "/about/").text.contains("<h1 class=\"mine\">About</h1>"))
    }

    @Test("rebuild(_:) can be called directly: the changed page is served and open pages get `reload`")
    func directRebuild() async throws {
        let site = try ServedSite(fixture)
        let events = try EventStreamClient(port: site.port)
        try site.write("content/movies/past-lives.md", pastLives(body: "Rewritten."))
        site.server.rebuild(["content/movies/past-lives.md"])
        #expect(try events.next() == "reload")
        let page = try site.request("GET", "/movies/past-lives/")
        #expect(page.text.contains("<p>Rewritten.</p>"))
        let rebuild = try #require(await site.waitForRebuild())
        #expect(
            rebuild.update
                == LiveSite.Update(
                    kind: .reviews,
                    changedFiles: [
                        "feed.xml", "movies/feed.xml", "movies/past-lives/index.html", "search/text-0.txt",
                        "tags/korea/feed.xml",
                    ]))
    }

    // MARK: Failed rebuilds

    @Test("bad YAML keeps the last good site, logs path:line:column, overlays every page, and a fix recovers")
    func brokenReview() async throws {
        let site = try ServedSite(fixture)
        let events = try EventStreamClient(port: site.port)
        let good = try site.request("GET", "/movies/parasite/")
        let goodHome = try site.request("GET", "/")
        let css = try site.request("GET", "/assets/site.css")
        try site.write("content/movies/parasite.md", "---\ntitle: Parasite\ndate: someday\nrating: [4\n---\nBroken.\n")
        #expect(try events.next() == "reload")
        let failed = try #require(await site.waitForRebuild { $0.errors != nil })
        let message = try #require(failed.errors)
        #expect(message.hasSuffix("loading the site failed: 1 error"), "\(message)")
        #expect(
            message.wholeMatch(of: /content\/movies\/parasite\.md:\d+:\d+: [^\n]+\nloading the site failed: 1 error/)
                != nil, "\(message)")
        #expect(site.log.last == "Rebuild failed; still serving the last good site:\n\(message)")
        let overlay = LiveReload.overlayHTML(message)
        for (target, before) in [("/movies/parasite/", good), ("/", goodHome)] {
            let served = try site.request("GET", target)
            #expect(served.status == 200)
            #expect(served.text.contains(#"<div id="sitegen-errors" role="alert""#))
            #expect(served.text.contains(HTML.escape(message)))
            #expect(
                served.text
                    == before.text.replacingOccurrences(of: LiveReload.script, with: overlay + LiveReload.script))
            #expect(served.header("ETag") != before.header("ETag"))
        }
        let missing = try site.request("GET", "/nope")
        #expect(missing.status == 404)
        #expect(missing.text.contains(overlay))
        #expect(try site.request("GET", "/assets/site.css").body == css.body)

        let failures = site.rebuilds.count
        try site.write("content/movies/parasite.md", parasite(body: "Fixed."))
        #expect(try events.next() == "reload")
        _ = try #require(await site.waitForRebuild(after: failures) { $0.errors == nil })
        let fixed = try site.request("GET", "/movies/parasite/")
        #expect(fixed.text.contains("<p>Fixed.</p>"))
        #expect(!fixed.text.contains("sitegen-errors"))
        #expect(!(try site.request("GET", "/").text.contains("sitegen-errors")))
        #expect(site.log.last?.hasPrefix("Rebuilt (") == true)
        #expect(site.log.last?.contains(" changed; the errors are fixed) in ") == true, "\(site.log)")
    }

    @Test("a site that never built serves its errors on every path, and builds in full once a change fixes it")
    func brokenFromTheStart() async throws {
        var files = fixture
        files["content/movies/parasite.md"] = "---\ntitle: Parasite\ndate: someday\n---\nBroken.\n"
        let site = try ServedSite(files)
        let first = try #require(site.log.first)
        #expect(first.hasPrefix(PreviewServer.unbuilt + "\ncontent/movies/parasite.md:3:7: "), "\(first)")
        #expect(site.server.warnings.isEmpty)
        for (method, target) in [("GET", "/"), ("GET", "/movies/parasite/"), ("GET", "/404.html"), ("HEAD", "/x")] {
            let served = try site.request(method, target)
            #expect(served.status == 500, "\(target)")
            #expect(served.header("Cache-Control") == "no-store")
            if method == "GET" {
                #expect(served.text.contains(#"<div id="sitegen-errors" role="alert""#))
                #expect(served.text.contains("content/movies/parasite.md:3:7: &quot;date&quot;"), "\(served.text)")
                #expect(served.text.contains(LiveReload.script))
            }
        }
        #expect(try site.request("POST", "/").status == 405)
        let events = try EventStreamClient(port: site.port)

        // Another broken save: tried again from the start, the new errors served and logged.
        try site.write("content/movies/parasite.md", "---\ntitle: Parasite\nrating: [4\n---\nBroken.\n")
        #expect(try events.next() == "reload")
        let again = try #require(await site.waitForRebuild { $0.errors != nil })
        let message = try #require(again.errors)
        #expect(message.hasPrefix("content/movies/parasite.md:"), "\(message)")
        #expect(!message.contains("someday"))
        #expect(site.log.last == PreviewServer.unbuilt + "\n" + message)
        #expect(try site.request("GET", "/").text.contains(HTML.escape(message)))

        // A change elsewhere than the broken file still builds the whole site, which still fails.
        try site.write("content/movies/other.md", parasite(title: "Other", body: "Another."))
        #expect(try events.next() == "reload")
        _ = try #require(await site.waitForRebuild(after: 1) { $0.errors != nil })

        let failures = site.rebuilds.count
        try site.write("content/movies/parasite.md", parasite(body: "Fixed."))
        #expect(try events.next() == "reload")
        let built = try #require(await site.waitForRebuild(after: failures) { $0.errors == nil })
        #expect(built.update?.kind == .full)
        let log = try #require(site.log.last)
        #expect(log.wholeMatch(of: /Built \(\d+ files; the errors are fixed\) in \d+ ms/) != nil, "\(log)")
        let page = try site.request("GET", "/movies/parasite/")
        #expect(page.status == 200)
        #expect(page.text.contains("<p>Fixed.</p>"))
        #expect(!page.text.contains("sitegen-errors"))
        #expect(try site.request("GET", "/nope").status == 404)
        #expect(try site.request("GET", "/movies/other/").text.contains("<p>Another.</p>"))

        // From here on it is a built site: a change is an update, not a full build.
        try site.write("content/movies/parasite.md", parasite(body: "Edited."))
        let edited = try #require(await site.waitForRebuild(after: failures + 1))
        #expect(edited.update?.kind != .full)
        #expect(try site.request("GET", "/movies/parasite/").text.contains("<p>Edited.</p>"))
    }

    @Test("a page is served from the site's own bytes, not from a second copy with the script in it")
    func pagesNotCopied() async throws {
        let site = try ServedSite(fixture)
        let shares = { (path: String) -> Bool in
            let (served, built) = site.server.heldPage(path)
            guard let served, let built, served == built else { return false }
            let a = served.withUnsafeBytes { $0.baseAddress }
            return a != nil && a == built.withUnsafeBytes { $0.baseAddress }
        }
        for path in ["index.html", "movies/parasite/index.html", "404.html"] { #expect(shares(path), "\(path)") }
        #expect(site.server.heldPage("assets/site.css").served == nil)
        try site.write("content/movies/parasite.md", parasite(body: "Edited."))
        _ = try #require(await site.waitForChange())
        #expect(try site.request("GET", "/movies/parasite/").text.contains("<p>Edited.</p>"))
        #expect(shares("movies/parasite/index.html"))
    }

    @Test("a failed rebuild's errors are added to each page as it is asked for, not copied into every page at once")
    func overlayMadePerRequest() async throws {
        let site = try ServedSite(fixture)
        let held = site.server.servedBytes
        let long = (1...400).map { "tags: [\($0)" }.joined(separator: "\n")
        try site.write("content/movies/parasite.md", "---\ntitle: Parasite\n\(long)\n---\nBroken.\n")
        let failed = try #require(await site.waitForRebuild { $0.errors != nil })
        #expect(site.server.servedBytes == held)
        let page = try site.request("GET", "/movies/parasite/")
        #expect(page.text.contains(LiveReload.overlayHTML(try #require(failed.errors))))
        #expect(site.server.servedBytes == held)
    }

    @Test("a template error is shown with the template's path, line and column until the template is fixed")
    func brokenTemplate() async throws {
        let site = try ServedSite(fixture)
        let events = try EventStreamClient(port: site.port)
        try site.write(
            "Templates/review.mustache", "{{<layout}}\n{{$content}}\n  {{#review.tags}}\n{{/content}}\n{{/layout}}\n")
        #expect(try events.next() == "reload")
        let failed = try #require(await site.waitForRebuild { $0.errors != nil })
        let message = """
            Templates/review.mustache:4:1: closing tag "content" does not match "review.tags" (opened at 3:3)
            compiling templates failed: 1 error
            """
        #expect(failed.errors == message)
        #expect(site.log.last == "Rebuild failed; still serving the last good site:\n\(message)")
        let page = try site.request("GET", "/movies/parasite/")
        #expect(page.text.contains(#"<h1 class="review-title" lang="en">Parasite</h1>"#))
        #expect(page.text.contains("<pre style=\"white-space:pre-wrap;margin:0\">\(HTML.escape(message))</pre>"))
        #expect(page.text.contains("closing tag &quot;content&quot; does not match &quot;review.tags&quot;"))

        let failures = site.rebuilds.count
        try site.write(
            "Templates/review.mustache",
            "{{<layout}}{{$content}}<p class=\"mine\">{{review.title}}</p>{{/content}}{{/layout}}\n")
        #expect(try events.next() == "reload")
        _ = try #require(await site.waitForRebuild(after: failures) { $0.errors == nil })
        let fixed = try site.request("GET", "/movies/parasite/")
        #expect(fixed.text.contains(#"<p class="mine">Parasite</p>"#))
        #expect(!fixed.text.contains("sitegen-errors"))
        #expect(site.rebuilds.last?.errors == nil)
    }

    @Test("the pages an update touches are served, each made when asked for, before the rest are made")
    func pendingPagesServedFirst() async throws {
        let site = try ServedSite(fixture)
        let events = try EventStreamClient(port: site.port)
        let (held, release) = holdCompletions(of: site)
        try site.write(
            "Templates/review.mustache",
            "{{<layout}}{{$content}}<p class=\"mine\">{{review.title}}</p>{{/content}}{{/layout}}\n")
        #expect(held.wait(timeout: .now() + 5) == .success)
        // The update is read and checked; no page of it is made yet, and none has been rebuilt.
        #expect(try events.next() == "reload")
        #expect(site.rebuilds.isEmpty)
        #expect(try site.request("GET", "/movies/parasite/").text.contains(#"<p class="mine">Parasite</p>"#))
        #expect(try site.request("GET", "/movies/past-lives/").text.contains(#"<p class="mine">Past Lives</p>"#))
        #expect(try site.request("GET", "/movies/parasite").status == 301)
        #expect(try site.request("GET", "/about/").text.contains("<h1"))
        release.signal()
        // The first rebuild that changed files: a save's temporary file can reach the watcher
        // alone on a busy machine, which makes an update that changes nothing.
        let rebuild = try #require(await site.waitForChange())
        #expect(
            rebuild.update
                == LiveSite.Update(
                    kind: .templates,
                    changedFiles: [
                        "books/stoner/index.html", "movies/parasite/index.html", "movies/past-lives/index.html",
                    ]))
        #expect(try site.request("GET", "/books/stoner/").text.contains(#"<p class="mine">Stoner</p>"#))
        #expect(try events.next(timeout: 0.3) == nil)

        // A page that cannot be rendered shows the error over its old bytes; the rebuild then fails
        // on it and the last good site comes back.
        try site.write("Templates/review.mustache", "{{<layout}}{{$content}}{{> nowhere}}{{/content}}{{/layout}}\n")
        #expect(held.wait(timeout: .now() + 5) == .success)
        #expect(try events.next() == "reload")
        let broken = try site.request("GET", "/movies/parasite/").text
        #expect(broken.contains(#"<p class="mine">Parasite</p>"#))
        #expect(broken.contains("sitegen-errors"))
        #expect(broken.contains("nowhere"))
        release.signal()
        let failed = try #require(await site.waitForRebuild(after: 1) { $0.errors != nil })
        #expect(failed.errors?.contains("Templates/review.mustache:1:") == true, "\(failed.errors ?? "")")
        #expect(failed.errors?.contains("nowhere") == true)
        #expect(try events.next() == "reload")
        let kept = try site.request("GET", "/books/stoner/").text
        #expect(kept.contains(#"<p class="mine">Stoner</p>"#))
        #expect(kept.contains("sitegen-errors"))
    }

    @Test("a change that comes while an update's pages are being made stops that; its rebuild goes on from there")
    func changeWhileCompleting() async throws {
        let site = try ServedSite(fixture)
        try saveWhileCompleting(
            site,
            template: "{{<layout}}{{$content}}<p class=\"mine\">{{review.title}}</p>{{{review.html}}}"
                + "{{/content}}{{/layout}}\n",
            thenParasite: parasite(body: "The *stairs*.\n\nSeen again."))
        let rebuild = try #require(await site.waitForChange())
        #expect(
            rebuild.update
                == LiveSite.Update(
                    kind: .reviews,
                    changedFiles: [
                        "books/stoner/index.html", "feed.xml", "movies/feed.xml", "movies/parasite/index.html",
                        "movies/past-lives/index.html", "search/text-0.txt", "tags/korea/feed.xml",
                        "tags/thriller/feed.xml",
                    ]))
        let page = try site.request("GET", "/movies/parasite/").text
        #expect(page.contains(#"<p class="mine">Parasite</p>"#))
        #expect(page.contains("<p>Seen again.</p>"))
        #expect(try site.request("GET", "/books/stoner/").text.contains(#"<p class="mine">Stoner</p>"#))
        #expect(site.log.contains { $0.hasPrefix("Rebuilt (8 files changed)") }, "\(site.log)")
    }

    @Test("a failed rebuild after an unfinished one shows its errors over the pages still to be made, too")
    func failureAfterUnfinishedUpdate() async throws {
        let site = try ServedSite(fixture)
        try saveWhileCompleting(
            site, template: "{{<layout}}{{$content}}<p class=\"mine\">{{review.title}}</p>{{/content}}{{/layout}}\n",
            thenParasite: "---\ntitle: Parasite\nrating: [4\n---\nBroken.\n")
        let failed = try #require(await site.waitForRebuild { $0.errors != nil })
        #expect(failed.errors?.contains("content/movies/parasite.md:") == true, "\(failed.errors ?? "")")
        // The template edit's pages were left to be made; made now, they carry the errors.
        let page = try site.request("GET", "/books/stoner/").text
        #expect(page.contains(#"<p class="mine">Stoner</p>"#))
        #expect(page.contains("sitegen-errors"))
        #expect(try site.request("GET", "/").text.contains("sitegen-errors"))
        try site.write("content/movies/parasite.md", parasite(body: "Fixed."))
        let fixed = try #require(await site.waitForRebuild(after: 1) { $0.errors == nil })
        #expect(fixed.update?.changedFiles.contains("books/stoner/index.html") == true)
        let after = try site.request("GET", "/books/stoner/").text
        #expect(after.contains(#"<p class="mine">Stoner</p>"#))
        #expect(!after.contains("sitegen-errors"))
    }

    @Test("a static file in a generated page's place is an error until it is removed, which recovers")
    func staticClashRecovers() async throws {
        let site = try ServedSite(fixture)
        let home = try site.request("GET", "/").text
        try site.write("static/index.html", "<p>mine</p>")
        let failed = try #require(await site.waitForRebuild { $0.errors != nil })
        #expect(failed.errors?.contains("static/index.html would replace the page sitegen generates") == true)
        let failures = site.rebuilds.count
        try site.remove("static/index.html")
        _ = try #require(await site.waitForRebuild(after: failures) { $0.errors == nil }, "\(site.log)")
        #expect(try site.request("GET", "/").text == home)
        // And later edits are shown again.
        let edits = site.rebuilds.count
        try site.write("content/movies/parasite.md", parasite(body: "After the clash."))
        _ = try #require(await site.waitForRebuild(after: edits) { $0.errors == nil })
        #expect(try site.request("GET", "/movies/parasite/").text.contains("<p>After the clash.</p>"))
    }

    @Test("a .sitegen folder made a link out of the site while serving stops the next rebuild; nothing goes there")
    func stateFolderLinkedWhileServing() async throws {
        let site = try ServedSite(fixture)
        let outside = try ScratchFolder()
        try FileManager.default.createDirectory(at: outside.url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside.url) }
        try? site.remove(".sitegen")
        try FileManager.default.createSymbolicLink(
            at: site.folder.appendingPathComponent(".sitegen"), withDestinationURL: outside.url)
        try site.write("content/movies/parasite.md", parasite(body: "Edited."))
        let failed = try #require(await site.waitForRebuild { $0.errors != nil })
        #expect(failed.errors?.contains(".sitegen:1:1: refused: it is a link") == true, "\(failed.errors ?? "")")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.url.path).isEmpty)
    }

    @Test("content/ replaced while serving by a link to a folder of the site is watched there, as at the start")
    func contentBecomesALink() async throws {
        let site = try ServedSite(fixture)
        let manager = FileManager.default
        let before = site.rebuilds.count
        try manager.moveItem(
            at: site.folder.appendingPathComponent("content"), to: site.folder.appendingPathComponent("src"))
        try manager.createSymbolicLink(
            atPath: site.folder.appendingPathComponent("content").path, withDestinationPath: "src")
        _ = try #require(await site.waitForRebuild(after: before) { $0.errors == nil })
        for round in 1...2 {
            let edits = site.rebuilds.count
            try site.write("content/movies/parasite.md", parasite(body: "Through the link \(round)."))
            _ = try #require(await site.waitForChange(after: edits), "\(site.log)")
            #expect(try site.request("GET", "/movies/parasite/").text.contains("<p>Through the link \(round).</p>"))
        }
    }

    @Test("the site folder deleted and made again, or moved away and back, is watched again and rebuilt whole")
    func siteFolderComesBack() async throws {
        let site = try ServedSite(fixture)
        let manager = FileManager.default
        // Deleted, then made again.
        try manager.removeItem(at: site.folder)
        _ = try #require(await site.waitForRebuild { $0.errors != nil })
        var before = site.rebuilds.count
        for (path, text) in fixture { try site.write(path, text) }
        _ = try #require(await site.waitForRebuild(after: before) { $0.errors == nil }, "\(site.log)")
        before = site.rebuilds.count
        try site.write("content/movies/parasite.md", parasite(body: "Made again."))
        _ = try #require(await site.waitForChange(after: before), "\(site.log)")
        #expect(try site.request("GET", "/movies/parasite/").text.contains("<p>Made again.</p>"))
        // Moved away, edited there (not the site), and moved back.
        let away = site.folder.deletingLastPathComponent().appendingPathComponent(
            site.folder.lastPathComponent + "-away")
        defer { try? manager.removeItem(at: away) }
        try manager.moveItem(at: site.folder, to: away)
        try Data(parasite(body: "Edited away.").utf8).write(
            to: away.appendingPathComponent("content/movies/parasite.md"))
        try await Task.sleep(for: .milliseconds(300))
        before = site.rebuilds.count
        try manager.moveItem(at: away, to: site.folder)
        _ = try #require(await site.waitForRebuild(after: before) { $0.errors == nil }, "\(site.log)")
        #expect(try site.request("GET", "/movies/parasite/").text.contains("<p>Edited away.</p>"))
    }

    @Test("static files with names editors use for temporary files are followed, as build publishes them")
    func editorNamesInStatic() async throws {
        let site = try ServedSite(fixture.merging(["static/data.tmp": "a", "static/notes~": "a"]) { $1 })
        #expect(try site.request("GET", "/data.tmp").text == "a")
        try site.write("static/data.tmp", "changed")
        try site.write("static/notes~", "changed")
        try site.write("static/4913", "new")
        for _ in 0..<200 where try site.request("GET", "/4913").status != 200 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try site.request("GET", "/data.tmp").text == "changed")
        #expect(try site.request("GET", "/notes~").text == "changed")
        #expect(try site.request("GET", "/4913").text == "new")
    }

    // MARK: Connections and the port

    @Test("200 connections open at once are all answered with 200")
    func concurrentConnections() throws {
        let site = try ServedSite(fixture)
        let expected = try site.request("GET", "/movies/parasite/").body
        let connections = try (0..<200).map { _ in try RawConnection(port: site.port) }
        for connection in connections { try connection.sendRequest("GET", "/movies/parasite/") }
        let answers = try connections.map { try RawResponse($0.receiveAll(timeout: 10)) }
        #expect(answers.count == 200)
        #expect(answers.filter { $0.status == 200 }.count == 200)
        #expect(answers.allSatisfy { $0.body == expected })
    }

    @Test("stop() closes open connections, the event stream included, and frees the port")
    func stop() throws {
        let site = try ServedSite(fixture)
        let port = site.port
        let events = try EventStreamClient(port: port)
        let idle = try RawConnection(port: port)
        try idle.sendRequest("GET", "/", keepAlive: true)
        _ = try idle.receive(until: { $0.contains(Array("</html>".utf8)) }, timeout: 5)
        site.server.stop()
        #expect(try events.waitForClose(timeout: 2))
        #expect(try idle.receive(until: { _ in false }, timeout: 2) == false)
        #expect(idle.isClosed)
        #expect(throws: SocketError.self) { try RawConnection(port: port) }
        let again = try HTTPServer(host: "127.0.0.1", port: port) { _, exchange in
            exchange.respond(status: 204, headers: [], body: [])
        }
        #expect(again.port == port)
        again.stop()
        site.server.stop()
    }

    @Test("a port in use is a clear error")
    func portInUse() throws {
        let site = try ServedSite(fixture)
        let folder = try ScratchFolder()
        for (path, text) in fixture { try folder.write(path, text) }
        #expect(throws: HTTPServerError.portInUse(host: "127.0.0.1", port: site.port)) {
            try PreviewServer(
                options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")),
                host: "127.0.0.1", port: site.port, log: { _ in })
        }
        #expect(
            HTTPServerError.portInUse(host: "127.0.0.1", port: 1313).description
                == "port 1313 on 127.0.0.1 is already in use: pick another with --port, or --port 0 for any free one")
    }

    @Test(
        "by default it listens on the loopback interface only; the URL names the host and the port it got, or the loopback for every interface"
    )
    func loopbackOnly() throws {
        let site = try ServedSite(fixture)
        #expect(site.server.url == "http://127.0.0.1:\(site.port)/")
        #expect(site.port > 0)
        #expect(try site.request("GET", "/").text.contains("href=\"http://127.0.0.1:\(site.port)/\""))
        if let address = nonLoopbackAddress() {
            #expect(throws: SocketError.self) { try RawConnection(host: address, port: site.port) }
            // Every interface: the pages name the loopback address (no browser opens 0.0.0.0),
            // and the other devices' addresses are this machine's own.
            let open = try ServedSite(fixture, host: "0.0.0.0")
            #expect(open.server.url == "http://127.0.0.1:\(open.port)/")
            #expect(open.server.networkURLs.contains("http://\(address):\(open.port)/"))
            #expect(!open.server.networkURLs.contains { $0.contains("127.0.0.1") || $0.contains("[") })
            let page = try RawConnection.request(port: open.port, "GET", "/", host: address)
            #expect(page.status == 200)
            #expect(page.text.contains("href=\"http://127.0.0.1:\(open.port)/\""))
            #expect(!page.text.contains("0.0.0.0"))
        }
        let six = try ServedSite(fixture, host: "::1")
        #expect(six.server.url == "http://[::1]:\(six.port)/")
        #expect(six.server.networkURLs.isEmpty)
        #expect(try RawConnection.request(port: six.port, "GET", "/", host: "::1").status == 200)
        let everySix = try ServedSite(fixture, host: "::")
        #expect(everySix.server.url == "http://[::1]:\(everySix.port)/")
        #expect(everySix.server.networkURLs.allSatisfy { $0.hasPrefix("http://[") && !$0.contains("[fe80") })
        #expect(try RawConnection.request(port: everySix.port, "GET", "/", host: "::1").status == 200)
    }

    // MARK: Folders that come and go

    @Test(
        "a section folder moved out of content/: its pages are 404 after the rebuild, and editing it there rebuilds nothing"
    )
    func folderMovedOut() async throws {
        let site = try ServedSite(fixture)
        #expect(try site.request("GET", "/books/stoner/").status == 200)
        #expect(site.server.watchedFolders.contains("content/books"))
        let outside = try ScratchFolder()
        try FileManager.default.createDirectory(at: outside.url, withIntermediateDirectories: true)
        let moved = outside.url.appendingPathComponent("books")
        try FileManager.default.moveItem(at: site.folder.appendingPathComponent("content/books"), to: moved)
        let rebuild = try #require(await site.waitForRebuild())
        #expect(rebuild.errors == nil)
        #expect(rebuild.update?.kind == .full)
        for target in ["/books/stoner/", "/books/", "/books/by-title/", "/tags/campus/"] {
            #expect(try site.request("GET", target).status == 404, "\(target)")
        }
        #expect(try site.request("GET", "/movies/parasite/").status == 200)
        #expect(!(try site.request("GET", "/").text.contains("Stoner")))
        #expect(!site.server.watchedFolders.contains { $0.hasPrefix("content/books") })

        let rebuilds = site.rebuilds.count
        try Data(stoner(extra: "\nsummary: Edited elsewhere.").utf8).write(
            to: moved.appendingPathComponent("stoner.md"))
        try Data(stoner().utf8).write(to: moved.appendingPathComponent("another.md"))
        try FileManager.default.createDirectory(
            at: moved.appendingPathComponent("drafts"), withIntermediateDirectories: true)
        try FileManager.default.removeItem(at: moved.appendingPathComponent("another.md"))
        try await Task.sleep(for: .milliseconds(500))
        #expect(site.rebuilds.count == rebuilds, "\(site.log)")
    }

    @Test("a section folder moved back in is served and watched again")
    func folderMovedBackIn() async throws {
        let site = try ServedSite(fixture)
        let outside = try ScratchFolder()
        try FileManager.default.createDirectory(at: outside.url, withIntermediateDirectories: true)
        let inside = site.folder.appendingPathComponent("content/books")
        let moved = outside.url.appendingPathComponent("books")
        try FileManager.default.moveItem(at: inside, to: moved)
        _ = try #require(await site.waitForRebuild())
        #expect(try site.request("GET", "/books/stoner/").status == 404)
        try FileManager.default.moveItem(at: moved, to: inside)
        let back = try #require(await site.waitForRebuild(after: 1))
        #expect(back.errors == nil)
        #expect(try site.request("GET", "/books/stoner/").status == 200)
        #expect(site.server.watchedFolders.contains("content/books"))
        try site.write("content/books/stoner.md", stoner(extra: "\nsummary: Back home."))
        _ = try #require(await site.waitForRebuild(after: 2))
        #expect(try site.request("GET", "/books/stoner/").text.contains("Back home."))
    }

    @Test(
        "a section folder moved out and back again and again is watched after each return",
        arguments: 0..<4)
    func folderMovedBackAndForth(round: Int) async throws {
        // The move that brings a folder back can report it to the folder's new watch too
        // (see the watcher test below); without a check, one return in a few left it unwatched.
        let site = try ServedSite(fixture)
        let outside = try ScratchFolder()
        try FileManager.default.createDirectory(at: outside.url, withIntermediateDirectories: true)
        let inside = site.folder.appendingPathComponent("content/books")
        let moved = outside.url.appendingPathComponent("books")
        for step in 0..<12 {
            let before = site.rebuilds.count
            try FileManager.default.moveItem(at: inside, to: moved)
            _ = try #require(await site.waitForRebuild(after: before))
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...20)))
            let out = site.rebuilds.count
            try FileManager.default.moveItem(at: moved, to: inside)
            _ = try #require(await site.waitForRebuild(after: out))
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...20)))
            #expect(site.server.watchedFolders.contains("content/books"), "return \(step + 1): \(site.log)")
        }
        let settled = site.rebuilds.count
        try site.write("content/books/stoner.md", stoner(extra: "\nsummary: Back for good."))
        _ = try #require(await site.waitForChange(after: settled))
        #expect(try site.request("GET", "/books/stoner/").text.contains("Back for good."))
    }

    @Test("a section folder deleted: its pages are 404 after the rebuild and nothing of it is watched")
    func folderDeleted() async throws {
        let site = try ServedSite(fixture)
        try site.remove("content/books")
        _ = try #require(await site.waitForRebuild { $0.errors == nil && $0.update?.kind == .full })
        // Deleting files one by one can take more than one rebuild; wait until they settle.
        try await Task.sleep(for: .milliseconds(200))
        #expect(try site.request("GET", "/books/stoner/").status == 404)
        #expect(try site.request("GET", "/books/").status == 404)
        #expect(try site.request("GET", "/movies/parasite/").status == 200)
        #expect(!site.server.watchedFolders.contains { $0.hasPrefix("content/books") })
    }

    @Test("a section folder renamed: the old address is 404, the new one is served and its files are watched")
    func folderRenamed() async throws {
        let site = try ServedSite(fixture)
        try FileManager.default.moveItem(
            at: site.folder.appendingPathComponent("content/movies"),
            to: site.folder.appendingPathComponent("content/films"))
        _ = try #require(await site.waitForRebuild { $0.errors == nil })
        try await Task.sleep(for: .milliseconds(200))
        #expect(try site.request("GET", "/movies/parasite/").status == 404)
        #expect(try site.request("GET", "/films/parasite/").status == 200)
        #expect(site.server.watchedFolders.contains("content/films"))
        #expect(!site.server.watchedFolders.contains("content/movies"))
        let rebuilds = site.rebuilds.count
        try site.write("content/films/parasite.md", parasite(body: "The *stairs*.\n\nRenamed and edited."))
        _ = try #require(await site.waitForRebuild(after: rebuilds))
        #expect(try site.request("GET", "/films/parasite/").text.contains("<p>Renamed and edited.</p>"))
    }

    @Test("a folder moved into content/ from outside is served")
    func folderMovedIn() async throws {
        let site = try ServedSite(fixture)
        let outside = try ScratchFolder()
        try outside.write("films/_index.md", review("title: More films\nkind: movie"))
        try outside.write("films/heat.md", review("title: Heat\ndate: 2025-02-02\nrating: 4\ntags: [crime]"))
        try FileManager.default.moveItem(
            at: outside.url.appendingPathComponent("films"), to: site.folder.appendingPathComponent("content/films"))
        _ = try #require(await site.waitForRebuild { $0.errors == nil })
        #expect(try site.request("GET", "/films/heat/").text.contains("Heat"))
        #expect(site.server.watchedFolders.contains("content/films"))
    }

    @Test("a folder of static/ moved out: its files are no longer served")
    func staticFolderMovedOut() async throws {
        let site = try ServedSite(fixture)
        #expect(try site.request("GET", "/images/data.xml").status == 200)
        let outside = try ScratchFolder()
        try FileManager.default.createDirectory(at: outside.url, withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: site.folder.appendingPathComponent("static/images"), to: outside.url.appendingPathComponent("images"))
        let rebuild = try #require(await site.waitForRebuild())
        #expect(rebuild.errors == nil)
        #expect(try site.request("GET", "/images/data.xml").status == 404)
        #expect(try site.request("GET", "/images/tmdb-1-w342.svg").status == 200)
        #expect(try site.request("GET", "/robots.txt").status == 200)
    }

    @Test("the watcher reports a folder that leaves by its path, files that arrive by theirs, and forgets what left")
    func watcherReports() async throws {
        let folder = try ScratchFolder()
        try folder.write("content/books/a.md", "a")
        try folder.write("content/books/deep/b.md", "b")
        try folder.write("content/movies/c.md", "c")
        let outside = try ScratchFolder()
        try outside.write("films/d.md", "d")
        try outside.write("films/inner/e.md", "e")
        let reports = Mutex<[Set<String>]>([])
        let watcher = try Watcher(root: folder.url.path, watched: ["content", "site.yml"]) { paths in
            reports.withLock { $0.append(paths) }
        }
        watcher.start()
        defer { watcher.stop() }
        #expect(watcher.watchedFolders == ["", "content", "content/books", "content/books/deep", "content/movies"])
        let manager = FileManager.default
        try manager.moveItem(
            at: folder.url.appendingPathComponent("content/books"), to: outside.url.appendingPathComponent("books"))
        #expect(try await nextReport(reports) == ["content/books"])
        #expect(watcher.watchedFolders == ["", "content", "content/movies"])
        try Data("edited".utf8).write(to: outside.url.appendingPathComponent("books/deep/b.md"))
        try manager.moveItem(
            at: outside.url.appendingPathComponent("films"), to: folder.url.appendingPathComponent("content/films"))
        #expect(try await nextReport(reports) == ["content/films/d.md", "content/films/inner/e.md"])
        #expect(watcher.watchedFolders == ["", "content", "content/films", "content/films/inner", "content/movies"])
        try manager.moveItem(
            at: folder.url.appendingPathComponent("content/films"),
            to: folder.url.appendingPathComponent("content/cinema"))
        #expect(try await nextReport(reports) == ["content/films", "content/cinema/d.md", "content/cinema/inner/e.md"])
        #expect(watcher.watchedFolders == ["", "content", "content/cinema", "content/cinema/inner", "content/movies"])
        try manager.removeItem(at: folder.url.appendingPathComponent("content/cinema"))
        #expect(
            try await nextReport(reports) == [
                "content/cinema", "content/cinema/d.md", "content/cinema/inner", "content/cinema/inner/e.md",
            ])
        #expect(watcher.watchedFolders == ["", "content", "content/movies"])
        try await Task.sleep(for: .milliseconds(200))
        #expect(reports.withLock { $0 } == [])
    }

    @Test("a folder whose permissions change is reported by its path, so that serve reads it anew")
    func watcherReportsPermissions() async throws {
        let folder = try ScratchFolder()
        try folder.write("content/books/a.md", "a")
        try folder.write("content/books/.hidden/b.md", "b")
        let reports = Mutex<[Set<String>]>([])
        let watcher = try Watcher(root: folder.url.path, watched: ["content"]) { paths in
            reports.withLock { $0.append(paths) }
        }
        watcher.start()
        defer { watcher.stop() }
        let books = folder.url.appendingPathComponent("content/books").path
        #expect(chmod(books, 0o000) == 0)
        #expect(try await nextReport(reports) == ["content/books"])
        #expect(chmod(books, 0o755) == 0)
        #expect(try await nextReport(reports) == ["content/books"])
        // Hidden folders are never read, so their permissions are nobody's business.
        #expect(chmod(books + "/.hidden", 0o700) == 0)
        #expect(try await nextReport(reports) == nil)
        #expect(watcher.watchedFolders == ["", "content", "content/books", "content/books/.hidden"])
        // An empty folder made in a section is reported (the rebuild warns that it is no review);
        // one deeper down, or in static/, is not.
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("content/books/empty"), withIntermediateDirectories: false)
        #expect(try await nextReport(reports) == ["content/books/empty"])
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("content/books/empty/deeper"), withIntermediateDirectories: false)
        #expect(try await nextReport(reports) == nil)
    }

    @Test("a change where a link of the site leads (a file or a folder inside the site) is reported at the link too")
    func watcherFollowsLinks() async throws {
        let folder = try ScratchFolder()
        try folder.write("content/movies/ten.md", "ten")
        try folder.write("shelf/essays/first.md", "first")
        try folder.write("notes/link.txt", "v1")
        let manager = FileManager.default
        let link = { (path: String, target: String) in
            try manager.createSymbolicLink(
                atPath: folder.url.appendingPathComponent(path).path, withDestinationPath: target)
        }
        try link("content/movies/nine.md", "ten.md")
        try link("content/essays", "../shelf/essays")
        try manager.createDirectory(at: folder.url.appendingPathComponent("static"), withIntermediateDirectories: true)
        try link("static/link.txt", "../notes/link.txt")
        let outside = try ScratchFolder()
        try outside.write("away.md", "away")
        try link("content/movies/away.md", outside.url.appendingPathComponent("away.md").path)
        let reports = Mutex<[Set<String>]>([])
        let watcher = try Watcher(root: folder.url.path, watched: ["content", "static", "site.yml"]) { paths in
            reports.withLock { $0.append(paths) }
        }
        watcher.start()
        defer { watcher.stop() }
        try folder.write("content/movies/ten.md", "ten, edited")
        #expect(try await nextReport(reports) == ["content/movies/ten.md", "content/movies/nine.md"])
        try folder.write("shelf/essays/first.md", "first, edited")
        #expect(try await nextReport(reports) == ["content/essays/first.md"])
        try folder.write("shelf/essays/second.md", "second")
        #expect(try await nextReport(reports) == ["content/essays/second.md"])
        try folder.write("notes/link.txt", "v2")
        #expect(try await nextReport(reports) == ["static/link.txt"])
        // A link led somewhere else, then taken away: the old place no longer counts.
        try manager.removeItem(at: folder.url.appendingPathComponent("content/movies/nine.md"))
        try link("content/movies/nine.md", "../essays/first.md")
        #expect(try await nextReport(reports) == ["content/movies/nine.md"])
        try folder.write("content/movies/ten.md", "ten, again")
        #expect(try await nextReport(reports) == ["content/movies/ten.md"])
        try folder.write("shelf/essays/first.md", "first, again")
        #expect(try await nextReport(reports) == ["content/essays/first.md", "content/movies/nine.md"])
        try manager.removeItem(at: folder.url.appendingPathComponent("content/essays"))
        #expect(try await nextReport(reports) == ["content/essays"])
        try folder.write("shelf/essays/second.md", "second, edited")
        #expect(try await nextReport(reports) == nil)
        // A link out of the site is the build's to refuse: nothing there is watched.
        try outside.write("away.md", "away, edited")
        #expect(try await nextReport(reports) == nil)
    }

    @Test("when inotify's queue overflows, everything is watched afresh and rebuilt")
    func watcherOverflow() throws {
        let folder = try ScratchFolder()
        try folder.write("content/books/a.md", "a")
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        defer { close(descriptor) }
        var table = WatchTable(
            descriptor: descriptor, root: folder.url.path, watched: ["content", "static", "site.yml"])
        table.watchEverything()
        #expect(Set(table.folders.values) == ["", "content", "content/books"])
        try folder.write("static/new/x.css", "x")
        let changed = table.apply(WatchEvent(watch: -1, mask: UInt32(IN_Q_OVERFLOW), name: ""))
        #expect(changed == ["content", "static", "site.yml"])
        #expect(Set(table.folders.values) == ["", "content", "content/books", "static", "static/new"])
    }

    @Test("a folder moved in stays watched when the move reports it to the folder's new watch as well")
    func watcherMoveSelfOfArrival() throws {
        let folder = try ScratchFolder()
        try folder.write("content/books/a.md", "a")
        let outside = try ScratchFolder()
        try outside.write("films/b.md", "b")
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        defer { close(descriptor) }
        var table = WatchTable(descriptor: descriptor, root: folder.url.path, watched: ["content"])
        table.watchEverything()
        func watch(_ path: String) throws -> Int32 {
            try #require(table.folders.first { $0.value == path }?.key)
        }
        let manager = FileManager.default
        let films = folder.url.appendingPathComponent("content/films")
        try manager.moveItem(at: outside.url.appendingPathComponent("films"), to: films)
        let arrived = WatchEvent(watch: try watch("content"), mask: UInt32(IN_MOVED_TO | IN_ISDIR), name: "films")
        #expect(table.apply(arrived) == ["content/films/b.md"])
        // The watcher can add the folder's watch while the kernel is still reporting the move:
        // the folder's own "moved" then reaches that new watch. The folder is where it was
        // watched, so it is still watched and nothing is reported.
        let filmsWatch = try watch("content/films")
        #expect(table.apply(WatchEvent(watch: filmsWatch, mask: UInt32(IN_MOVE_SELF), name: "")) == [])
        #expect(Set(table.folders.values) == ["", "content", "content/books", "content/films"])
        // A folder that did leave is forgotten and reported, even before its old parent says so.
        try manager.moveItem(
            at: folder.url.appendingPathComponent("content/books"), to: outside.url.appendingPathComponent("books"))
        let booksWatch = try watch("content/books")
        #expect(table.apply(WatchEvent(watch: booksWatch, mask: UInt32(IN_MOVE_SELF), name: "")) == ["content/books"])
        // So is one with another folder in its place already: the watch was for the one that left.
        try manager.moveItem(at: films, to: outside.url.appendingPathComponent("gone"))
        try manager.createDirectory(at: films, withIntermediateDirectories: false)
        #expect(table.apply(WatchEvent(watch: filmsWatch, mask: UInt32(IN_MOVE_SELF), name: "")) == ["content/films"])
        #expect(Set(table.folders.values) == ["", "content"])
    }

    @Test("a finished save is reported after the short quiet wait; a file still open for writing waits for the settle")
    func watcherWaitsForOpenFiles() async throws {
        let folder = try ScratchFolder()
        try folder.write("content/books/a.md", "a")
        let reports = Mutex<[(paths: Set<String>, at: ContinuousClock.Instant)]>([])
        // A long settle, so that only a file left open can make the watcher wait for it.
        let watcher = try Watcher(root: folder.url.path, watched: ["content"], settle: 3, quiet: 0.01) { paths in
            reports.withLock { $0.append((paths, .now)) }
        }
        watcher.start()
        defer { watcher.stop() }
        func waitForReport(within seconds: Int) async throws {
            for _ in 0..<(seconds * 100) where reports.withLock({ $0.isEmpty }) {
                try await Task.sleep(for: .milliseconds(10))
            }
        }

        // Written and closed: complete, reported well before the settle.
        let saved = ContinuousClock.now
        try Data("edited".utf8).write(to: folder.url.appendingPathComponent("content/books/a.md"))
        try await waitForReport(within: 2)
        let first = reports.withLock { reports in
            defer { reports.removeAll() }
            return reports
        }
        #expect(first.map(\.paths) == [["content/books/a.md"]])
        #expect(first.allSatisfy { $0.at - saved < .seconds(2) })

        // Written in three parts with pauses far longer than the quiet wait, then closed: one report.
        let path = folder.url.appendingPathComponent("content/books/b.md").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        for part in ["one ", "two ", "three"] {
            _ = part.withCString { write(descriptor, $0, strlen($0)) }
            try await Task.sleep(for: .milliseconds(150))
        }
        #expect(reports.withLock { $0.isEmpty })
        close(descriptor)
        try await waitForReport(within: 2)
        try await Task.sleep(for: .milliseconds(200))
        #expect(reports.withLock { $0.map(\.paths) } == [["content/books/b.md"]])
    }

    // MARK: Incremental rebuilds

    @Test("after every kind of edit, an incremental update has the same files as a full build of the folder")
    func incrementalMatchesFullBuild() throws {
        let folder = try ScratchFolder()
        for (path, text) in fixture { try folder.write(path, text) }
        let root = folder.url
        let builder = SiteBuilder(
            options: .init(
                source: root, output: root.appendingPathComponent("public"),
                baseURL: BaseURL("http://127.0.0.1:1313/")))
        var site = try LiveSite.build(builder)
        #expect(site.lastUpdate == LiveSite.Update(kind: .full, changedFiles: site.files.keys.sorted()))
        let steps: [(name: String, kind: LiveSite.Update.Kind, edit: [String: String?])] = [
            (
                "a review's second paragraph", .reviews,
                ["content/movies/parasite.md": parasite(body: "The *stairs*.\n\nMore.")]
            ),
            (
                "a review's first paragraph (its summary)", .reviews,
                ["content/movies/past-lives.md": pastLives(body: "New summary.")]
            ),
            (
                "a review's summary and extra fields", .reviews,
                ["content/books/stoner.md": stoner(extra: "\nsummary: Quiet.\nmood: calm")]
            ),
            (
                "a review's metadata entry (another poster, same genres)", .allPages,
                ["content/movies/past-lives.md": pastLives(tmdb: 3)]
            ),
            (
                "the metadata cache", .reviews,
                [
                    "metadata/movies/tmdb-3.json": metadataEntry(
                        id: 3, genres: ["Drama", "Romance"], image: "tmdb-3-w342.svg", overview: "Changed.")
                ]
            ),
            (
                "a director (shown on cards)", .reviews,
                ["content/movies/parasite.md": parasite(extra: "\ndirector: Bong Joon-ho")]
            ),
            ("a title (re-sorts)", .reviews, ["content/movies/parasite.md": parasite(title: "Zz Parasite")]),
            (
                "a rating (and back to the first poster: every page again)", .allPages,
                ["content/movies/past-lives.md": pastLives(rating: "2.5")]
            ),
            ("a rating alone", .reviews, ["content/movies/past-lives.md": pastLives(rating: "3")]),
            ("tags", .reviews, ["content/movies/parasite.md": parasite(tags: "[thriller, family]")]),
            (
                "a date (a new year in the footer: every page again)", .allPages,
                ["content/books/stoner.md": stoner(date: "2027-01-01")]
            ),
            (
                "a new review", .reviews,
                ["content/movies/new.md": review("title: Brand New\ndate: 2026-05-01\nrating: 3\ntags: [korea]")]
            ),
            (
                "a deleted review (the last with genres: every page again)", .allPages,
                ["content/movies/past-lives.md": nil]
            ),
            (
                "a review and a template at once", .reviews,
                [
                    "content/movies/parasite.md": parasite(tags: "[thriller, family]", body: "Together."),
                    "Templates/review.mustache":
                        "{{<layout}}{{$content}}<p class=\"mine\">{{review.title}}</p>{{{review.html}}}{{/content}}{{/layout}}\n",
                ]
            ),
            (
                "a template", .templates,
                [
                    "Templates/home.mustache":
                        "{{<layout}}{{$content}}<h1>Home</h1>{{#latest}}{{title}}{{/latest}}{{/content}}{{/layout}}\n"
                ]
            ),
            ("a template removed", .templates, ["Templates/review.mustache": nil]),
            ("a partial", .templates, ["Templates/rating.mustache": "<b>{{stars}}</b>"]),
            (
                "a review's body and a partial its lists use at once", .reviews,
                [
                    "content/movies/parasite.md": parasite(tags: "[thriller, family]", body: "Together again."),
                    "Templates/rating.mustache": "<i>{{stars}}</i>",
                ]
            ),
            ("a new stylesheet in static/", .staticFiles, ["static/assets/extra.css": "p { color: teal }\n"]),
            ("a static file changed", .staticFiles, ["static/robots.txt": "User-agent: nobody\n"]),
            ("a theme stylesheet overridden", .templates, ["Templates/assets/site.css": "body { color: red }\n"]),
            ("the overriding stylesheet removed", .templates, ["Templates/assets/site.css": nil]),
            ("a new theme asset", .templates, ["Templates/assets/theme-extra.css": "a { color: blue }\n"]),
            ("the new theme asset removed", .templates, ["Templates/assets/theme-extra.css": nil]),
            ("static/ overriding a theme asset", .staticFiles, ["static/assets/site.css": "body { color: green }\n"]),
            (
                "a template while static/ overrides an asset", .templates,
                ["Templates/tag.mustache": "{{<layout}}{{$content}}<h1>{{heading}}</h1>{{/content}}{{/layout}}\n"]
            ),
            (
                "a second template while static/ overrides an asset", .templates,
                ["Templates/tag.mustache": "{{<layout}}{{$content}}<h2>{{heading}}</h2>{{/content}}{{/layout}}\n"]
            ),
            ("the static override removed", .staticFiles, ["static/assets/site.css": nil]),
            ("a static file removed", .staticFiles, ["static/assets/extra.css": nil]),
            (
                "a review and a static file at once", .reviews,
                [
                    "content/books/stoner.md": stoner(date: "2027-01-01", extra: "\nsummary: Still quiet."),
                    "static/robots.txt": "User-agent: *\n",
                ]
            ),
            (
                "a section's _index.md", .allPages,
                ["content/movies/_index.md": review("title: Cinema\nkind: movie", body: "All films.")]
            ),
            (
                "site.yml", .allPages,
                ["site.yml": "title: Renamed Reviews\nbase_url: https://example.org/\nauthor: Tester\n"]
            ),
            (
                "site.yml with one review a page, and a review deleted, at once", .allPages,
                [
                    "site.yml":
                        "title: Renamed Reviews\nbase_url: https://example.org/\nauthor: Tester\npage_size: 1\n",
                    "content/movies/new.md": nil,
                ]
            ),
            (
                "a draft (its year was the newest: every page again)", .allPages,
                ["content/books/stoner.md": stoner(date: "2027-01-01", extra: "\ndraft: true")]
            ),
        ]
        for step in steps {
            let before = site.files
            for (path, text) in step.edit {
                let url = root.appendingPathComponent(path)
                if let text {
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(text.utf8).write(to: url)
                } else {
                    try FileManager.default.removeItem(at: url)
                }
            }
            site = try site.updating(Set(step.edit.keys))
            #expect(site.lastUpdate.kind == step.kind, "\(step.name)")
            let full = try LiveSite.build(builder)
            #expect(differences(site.files, full.files) == [], "\(step.name)")
            let changed = Set(before.keys).union(site.files.keys).filter { before[$0] != site.files[$0] }.sorted()
            #expect(site.lastUpdate.changedFiles == changed, "\(step.name)")
            #expect(!changed.isEmpty, "\(step.name) changed nothing")
        }
        let rendered = try builder.render(builder.load(), isPreview: true).files
        #expect(differences(site.files, rendered) == [])
    }

    @Test("an edit claiming a taken or reserved address, or another tag's page, is refused as a full build refuses it")
    func updateRefusesCollisions() throws {
        let folder = try ScratchFolder()
        var (builder, site) = try liveSite(in: folder, fixture)
        let edits: [(name: String, path: String, text: String?, message: String)] = [
            (
                "a slug taken", "content/movies/parasite.md", parasite(extra: "\nslug: past-lives"),
                "/movies/past-lives/ is also the output of"
            ),
            (
                "a reserved slug", "content/movies/parasite.md", parasite(extra: "\nslug: by-title"),
                "/movies/by-title/ is reserved for sitegen's own pages"
            ),
            (
                "a tag sharing another's page", "content/movies/parasite.md", parasite(tags: "[thriller, Korea.]"),
                "would share the page /tags/korea/"
            ),
            (
                "a new file at a taken address", "content/books/stoner-2.md",
                review("title: Stoner Again\ndate: 2020-01-01\nslug: stoner"), "/books/stoner/ is also the output of"
            ),
            (
                "two new files at one address", "content/books/twin.md",
                review("title: Twin\ndate: 2020-01-02\nslug: twins"), "/books/twins/ is also the output of"
            ),
        ]
        for edit in edits {
            let original = try? String(contentsOf: folder.url.appendingPathComponent(edit.path), encoding: .utf8)
            var paths: Set<String> = [edit.path]
            if edit.name == "two new files at one address" {
                try folder.write("content/books/twin-2.md", review("title: Twin 2\ndate: 2020-01-03\nslug: twins"))
                paths.insert("content/books/twin-2.md")
            }
            try folder.write(edit.path, edit.text ?? "")
            let full = #expect(throws: BuildError.self, "\(edit.name)") { try LiveSite.build(builder) }
            let incremental = #expect(throws: BuildError.self, "\(edit.name)") { try site.updating(paths) }
            #expect(incremental == full, "\(edit.name)")
            let message = incremental?.description ?? ""
            #expect(message.contains(edit.message), "\(edit.name): \(message)")
            // Put back, and the site updates again.
            for path in paths where path != edit.path || original == nil {
                try FileManager.default.removeItem(at: folder.url.appendingPathComponent(path))
            }
            if let original { try folder.write(edit.path, original) }
            site = try site.updating(paths)
            #expect(differences(site.files, try LiveSite.build(builder).files) == [], "\(edit.name)")
        }
    }

    @Test("a link to nothing or a link loop, wherever it appears, is refused as a full build refuses it")
    func updateRefusesBrokenLinks() throws {
        let folder = try ScratchFolder()
        var (builder, site) = try liveSite(in: folder, fixture)
        let cases: [(links: [(String, String)], message: String)] = [
            ([("content/movies/broken.md", "nowhere.md")], "content/movies/broken.md:1:1: a broken symbolic link"),
            ([("content/movies/x", "nowhere")], "content/movies/x:1:1: a broken symbolic link"),
            (
                [("content/movies/a.md", "b.md"), ("content/movies/b.md", "a.md")],
                "content/movies/a.md:1:1: a broken symbolic link: it leads to nothing, or into a loop of links\n"
            ),
            ([("static/gone.txt", "nowhere.txt")], "static/gone.txt:1:1: a broken symbolic link"),
            ([("Templates/card.mustache", "nowhere")], "Templates/card.mustache:1:1: a broken symbolic link"),
        ]
        for (links, message) in cases {
            for (path, target) in links {
                let url = folder.url.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
            }
            let paths = Set(links.map(\.0))
            let full = #expect(throws: BuildError.self, "\(paths)") { try LiveSite.build(builder) }
            let incremental = #expect(throws: BuildError.self, "\(paths)") { try site.updating(paths) }
            #expect(incremental == full, "\(paths)")
            #expect(incremental?.description.contains(message) == true, "\(incremental?.description ?? "")")
            for path in paths { try FileManager.default.removeItem(at: folder.url.appendingPathComponent(path)) }
            site = try site.updating(paths)
            #expect(differences(site.files, try LiveSite.build(builder).files) == [], "\(paths)")
        }
    }

    @Test("a genre written another way renames it on the stats page of a year no edited review is in")
    func genreRenameReachesEveryStatsYear() throws {
        let files = [
            "site.yml": "title: Genres\nbase_url: https://example.org/\n",
            "content/movies/a.md": review("title: A\ndate: 2023-05-01\ntmdb: 1"),
            "content/movies/b.md": review("title: B\ndate: 2024-05-01\ntmdb: 2"),
            "metadata/movies/tmdb-1.json": metadataEntry(id: 1, genres: ["sci fi"], image: "tmdb-1-w342.svg"),
            "metadata/movies/tmdb-2.json": metadataEntry(id: 2, genres: ["Sci-Fi"], image: "tmdb-2-w342.svg"),
            "metadata/images/tmdb-1-w342.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n",
            "metadata/images/tmdb-2-w342.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n",
        ]
        let folder = try ScratchFolder()
        var (builder, site) = try liveSite(in: folder, files)
        let page2023 = { (site: LiveSite) in
            String(decoding: site.files["stats/2023/index.html"] ?? Data(), as: UTF8.self)
        }
        #expect(page2023(site).contains("Sci-Fi"))
        // The only "Sci-Fi" (the least spelling, so the one shown) goes: 2023's page says "sci fi".
        try folder.write(
            "metadata/movies/tmdb-2.json", metadataEntry(id: 2, genres: ["sci fi"], image: "tmdb-2-w342.svg"))
        site = try site.updating(["metadata/movies/tmdb-2.json"])
        let full = try LiveSite.build(builder)
        #expect(differences(site.files, full.files) == [])
        #expect(!page2023(site).contains("Sci-Fi") && page2023(site).contains("sci fi"))
    }

    @Test("a metadata folder reported as changed (its permissions) reads again the reviews whose entries are in it")
    func metadataFolderChange() throws {
        let folder = try ScratchFolder()
        let (builder, built) = try liveSite(in: folder, fixture)
        var site = built
        try folder.write(
            "metadata/movies/tmdb-1.json", metadataEntry(id: 1, genres: ["Heist"], image: "tmdb-1-w342.svg"))
        site = try site.updating(["metadata/movies"])
        #expect(differences(site.files, try LiveSite.build(builder).files) == [])
        #expect(site.files["genres/heist/index.html"] != nil)
        // A folder of the cache no entry is in reads nothing again.
        try folder.write(
            "metadata/movies/tmdb-1.json", metadataEntry(id: 1, genres: ["Drama"], image: "tmdb-1-w342.svg"))
        #expect(try site.updating(["metadata/books"]).files == site.files)
    }

    @Test("a review's body re-renders its page and the feed; a field its cards show, the lists too; nothing else")
    func smallUpdates() throws {
        let folder = try ScratchFolder()
        let site = try liveSite(in: folder, fixture).site

        try folder.write("content/movies/parasite.md", parasite(body: "The *stairs*.\n\nA later paragraph."))
        let body = try site.updating(["content/movies/parasite.md"])
        #expect(
            body.lastUpdate
                == LiveSite.Update(
                    kind: .reviews,
                    changedFiles: [
                        "feed.xml", "movies/feed.xml", "movies/parasite/index.html", "search/text-0.txt",
                        "tags/korea/feed.xml", "tags/thriller/feed.xml",
                    ]))

        try folder.write("content/books/stoner.md", stoner(extra: "\nauthor: John Williams"))
        let summary = try body.updating(["content/books/stoner.md"])
        #expect(
            summary.lastUpdate
                == LiveSite.Update(
                    kind: .reviews,
                    changedFiles: [
                        "books/by-rating/index.html", "books/by-title/index.html", "books/by-year/index.html",
                        "books/index.html", "books/stoner/index.html", "index.html", "search/docs-0.json",
                        "search/names-0.txt", "stats/2024/index.html", "stats/index.html", "tags/campus/index.html",
                    ]))
        #expect(!summary.lastUpdate.changedFiles.contains("movies/parasite/index.html"))

        try folder.write("content/movies/parasite.md", parasite(body: "The *stairs*.\n\nA later paragraph."))
        let unchanged = try summary.updating(["content/movies/parasite.md"])
        #expect(unchanged.lastUpdate == LiveSite.Update(kind: .reviews, changedFiles: []))

        try folder.write(
            "Templates/review.mustache", "{{<layout}}{{$content}}<p>{{review.title}}</p>{{/content}}{{/layout}}\n")
        let template = try unchanged.updating(["Templates/review.mustache"])
        #expect(
            template.lastUpdate
                == LiveSite.Update(
                    kind: .templates,
                    changedFiles: [
                        "books/stoner/index.html", "movies/parasite/index.html", "movies/past-lives/index.html",
                    ]))

        try folder.write("static/assets/extra.css", "p { color: teal }\n")
        let css = try template.updating(["static/assets/extra.css"])
        #expect(css.lastUpdate == LiveSite.Update(kind: .staticFiles, changedFiles: ["assets/extra.css"]))
        #expect(css.lastUpdate.onlyStylesheets)
        #expect(!template.lastUpdate.onlyStylesheets)
    }
}

// MARK: - Fixture

private func review(_ frontMatter: String, body: String = "A review.") -> String {
    "---\n\(frontMatter)\n---\n\(body)\n"
}

private func parasite(
    title: String = "Parasite", tags: String = "[thriller, korea]", extra: String = "",
    body: String = "The *stairs*.\n\nSecond paragraph."
) -> String {
    review("title: \(title)\ndate: 2026-03-14\nrating: 4.5\ntags: \(tags)\nyear: 2019\(extra)", body: body)
}

private func pastLives(rating: String = "4", tmdb: Int = 1, body: String = "A review.") -> String {
    review("title: Past Lives\ndate: 2025-06-01\nrating: \(rating)\ntags: [korea]\ntmdb: \(tmdb)", body: body)
}

private func stoner(date: String = "2024-11-02", extra: String = "") -> String {
    review("title: Stoner\ndate: \(date)\ntags: [campus]\(extra)")
}

/// Holds each rebuild of `site` once its changed pages are served and before the rest are
/// made: `held` is signalled there, and the rebuild goes on when `release` is.
private func holdCompletions(of site: ServedSite, onlyFirst: Bool = false) -> (
    held: DispatchSemaphore, release: DispatchSemaphore
) {
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let holds = Mutex(true)
    site.server.beforeCompleting = {
        let holding = holds.withLock { holding in
            defer { if onlyFirst { holding = false } }
            return holding
        }
        guard holding else { return }
        held.signal()
        release.wait()
    }
    return (held, release)
}

/// Saves `template` as the review template and, while the pages of that rebuild are still to
/// be made, saves `parasite` and asks for its rebuild; then lets the first go on (it stops,
/// since the second is waiting).
private func saveWhileCompleting(_ site: ServedSite, template: String, thenParasite parasite: String) throws {
    let (held, release) = holdCompletions(of: site, onlyFirst: true)
    try site.write("Templates/review.mustache", template)
    #expect(held.wait(timeout: .now() + 5) == .success)
    try site.write("content/movies/parasite.md", parasite)
    site.server.rebuild(["content/movies/parasite.md"])
    release.signal()
}

/// `files` written into `folder`, a builder for it (output in its `public/`), and the site as
/// `serve` first builds it.
private func liveSite(
    in folder: borrowing ScratchFolder, _ files: [String: String]
) throws -> (builder: SiteBuilder, site: LiveSite) {
    for (path, text) in files { try folder.write(path, text) }
    let builder = SiteBuilder(options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")))
    return (builder, try LiveSite.build(builder))
}

private func metadataEntry(id: Int, genres: [String], image: String, overview: String = "A film.") -> String {
    let genreList = genres.map { "\"\($0)\"" }.joined(separator: ", ")
    return """
        {"kind": "movie", "source": "tmdb", "id": "\(id)", "title": "Film \(id)", "overview": "\(overview)",
         "year": 2019, "genres": [\(genreList)], "directors": ["Someone"],
         "images": [{"file": "images/\(image)", "width": 342, "height": 513, "size": "w342"}]}

        """
}

/// Two sections, reviews with tags and cached metadata, a plain page and a static file of each type.
private let fixture: [String: String] = [
    "site.yml": "title: Test Reviews\nbase_url: https://example.org/\nauthor: Tester\n",
    "content/movies/_index.md": review("title: Films\nkind: movie", body: "Films, *newest* first."),
    "content/movies/parasite.md": parasite(),
    "content/movies/past-lives.md": pastLives(),
    "content/books/stoner.md": stoner(),
    "content/about.md": review("title: About", body: "Who writes here."),
    "metadata/movies/tmdb-1.json": metadataEntry(id: 1, genres: ["Drama", "Romance"], image: "tmdb-1-w342.svg"),
    "metadata/movies/tmdb-2.json": metadataEntry(id: 2, genres: ["Drama"], image: "tmdb-2-w342.svg"),
    "metadata/movies/tmdb-3.json": metadataEntry(id: 3, genres: ["Drama", "Romance"], image: "tmdb-3-w342.svg"),
    "metadata/images/tmdb-3-w342.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"><title>3</title></svg>\n",
    "metadata/images/tmdb-1-w342.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"><title>1</title></svg>\n",
    "metadata/images/tmdb-2-w342.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"><title>2</title></svg>\n",
    "static/robots.txt": "User-agent: *\n",
    "static/app.js": "console.log(1)\n",
    "static/data.json": "{}\n",
    "static/images/data.xml": "<data/>\n",
    "static/pic.png": "png",
    "static/photo.jpg": "jpg",
    "static/photo.jpeg": "jpeg",
    "static/pic.webp": "webp",
    "static/font.woff2": "woff2",
    "static/notes.unknownext": "notes",
    "static/paper.pdf": "pdf",
    "static/clip.mp4": "mp4",
    "static/module.wasm": "wasm",
    "static/app.webmanifest": "{}",
]

/// The files a full build of `folder` makes for a server on `port` (what `serve` starts from).
private func builtFiles(_ folder: URL, port: Int) throws -> [String: Data] {
    let builder = SiteBuilder(
        options: .init(
            source: folder, output: folder.appendingPathComponent("public"),
            baseURL: BaseURL("http://127.0.0.1:\(port)/")))
    return try builder.render(builder.load(), isPreview: true).files
}

/// Where two sets of files differ, one line per file; empty when they are the same.
private func differences(_ actual: [String: Data], _ expected: [String: Data]) -> [String] {
    Set(actual.keys).union(expected.keys).sorted().compactMap { path in
        switch (actual[path], expected[path]) {
        case (nil, _): "\(path): missing"
        case (_, nil): "\(path): should not be there"
        case (let one?, let other?) where one != other: "\(path): differs"
        default: nil
        }
    }
}

/// An IPv4 address of this machine that is not loopback, if it has one.
private func nonLoopbackAddress() -> String? {
    InterfaceAddresses.list(ipv6: false).first
}

/// What a watcher reported for one change (a change may come in more than one report), or nil
/// when it reported nothing within 3 seconds; the reports are taken.
private func nextReport(_ reports: borrowing Mutex<[Set<String>]>) async throws -> Set<String>? {
    for _ in 0..<300 where reports.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(10)) }
    try await Task.sleep(for: .milliseconds(150))
    return reports.withLock { reports in
        defer { reports.removeAll() }
        return reports.isEmpty ? nil : reports.reduce([]) { $0.union($1) }
    }
}
