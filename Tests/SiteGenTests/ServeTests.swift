import Foundation
import Mustache
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

    @Test("methods other than GET and HEAD get 405 with Allow: GET, HEAD")
    func otherMethods() throws {
        let site = try ServedSite(fixture)
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"] {
            for target in ["/", "/movies/parasite/", "/nope", LiveReload.eventsPath] {
                let response = try site.request(method, target)
                #expect(response.status == 405, "\(method) \(target)")
                #expect(response.header("Allow") == "GET, HEAD")
                #expect(response.header("Content-Type") == "text/plain")
                #expect(response.text == "405 Method Not Allowed\n")
            }
        }
    }

    @Test("CONNECT gets 405 too, and a method evhttp does not know gets 501 Not Implemented")
    func connectAndUnknownMethods() throws {
        let site = try ServedSite(fixture)
        // evhttp answers CONNECT without a Content-Length and keeps the connection: read the answer, not to the end.
        let connection = try RawConnection(port: site.port)
        try connection.sendRequest("CONNECT", "127.0.0.1:80")
        let answer = Array("405 Method Not Allowed\n".utf8)
        #expect(try connection.receive(until: { $0.contains(answer) }, timeout: 5))
        let text = String(decoding: connection.received, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
        #expect(text.contains("\r\nAllow: GET, HEAD\r\n"))
        let unknown = try site.request("PROPFIND", "/")
        #expect(unknown.status == 501)
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
        for header in ["\"0\", \(etag)", "*"] {
            #expect(try site.request("GET", "/movies/parasite/", headers: [("If-None-Match", header)]).status == 304)
        }
        let other = try site.request("GET", "/movies/parasite/", headers: [("If-None-Match", "\"0\"")])
        #expect(other.status == 200)
        #expect(other.body == first.body)
        #expect(try site.request("GET", "/", headers: [("If-None-Match", etag)]).status == 200)
        #expect(try site.request("HEAD", "/movies/parasite/", headers: [("If-None-Match", etag)]).status == 304)

        try site.write("content/movies/parasite.md", parasite(body: "The *stairs*.\n\nA second look."))
        _ = try #require(await site.waitForRebuild { $0.update?.changedFiles.isEmpty == false })
        let changed = try site.request("GET", "/movies/parasite/", headers: [("If-None-Match", etag)])
        #expect(changed.status == 200)
        #expect(changed.text.contains("<p>A second look.</p>"))
        let newTag = try #require(changed.header("ETag"))
        #expect(newTag != etag)
        #expect(try site.request("GET", "/movies/parasite/", headers: [("If-None-Match", newTag)]).status == 304)
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
            ("//etc/passwd", 404),
            ("/etc/passwd", 404),
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

    @Test("a site that links outside static/ when the server starts does not start: the error names the file")
    func symlinkAtStart() throws {
        let outside = try ScratchFolder()
        try outside.write("secret.txt", "do not publish")
        let folder = try ScratchFolder()
        for (path, text) in fixture { try folder.write(path, text) }
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("static/leak.txt"),
            withDestinationURL: outside.url.appendingPathComponent("secret.txt"))
        #expect(
            throws: BuildError(
                step: "loading the site",
                diagnostics: [
                    Diagnostic(
                        "refused: it is a link to a place outside the site folder",
                        at: Mustache.SourceLocation(path: "static/leak.txt", line: 1, column: 1))
                ])
        ) {
            try PreviewServer(
                options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")),
                host: "127.0.0.1", port: 0, log: { _ in })
        }
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
        #expect(built.count == 51)
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
            try await site.waitForRebuild()?.update
                == LiveSite.Update(kind: .staticFiles, changedFiles: ["assets/extra.css"]))
        #expect(try site.request("GET", "/assets/extra.css").text == "p { color: teal }\n")
        try site.write("Templates/assets/site.css", "body { color: red }\n")
        #expect(try events.next() == "css")
        #expect(
            try await site.waitForRebuild(after: 1)?.update
                == LiveSite.Update(kind: .templates, changedFiles: ["assets/site.css"]))
        #expect(try site.request("GET", "/assets/site.css").text == "body { color: red }\n")
        try site.write("static/robots.txt", "User-agent: nobody\n")
        #expect(try events.next() == "reload")
        try site.write(
            "Templates/page.mustache",
            "{{<layout}}{{$content}}<h1 class=\"mine\">{{title}}</h1>{{/content}}{{/layout}}\n")
        #expect(try events.next() == "reload")
        #expect(
            try await site.waitForRebuild(after: 3)?.update
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

    @Test("by default it listens on the loopback interface only; the URL names the host and the port it got")
    func loopbackOnly() throws {
        let site = try ServedSite(fixture)
        #expect(site.server.url == "http://127.0.0.1:\(site.port)/")
        #expect(site.port > 0)
        #expect(try site.request("GET", "/").text.contains("href=\"http://127.0.0.1:\(site.port)/\""))
        if let address = nonLoopbackAddress() {
            #expect(throws: SocketError.self) { try RawConnection(host: address, port: site.port) }
            let open = try ServedSite(fixture, host: "0.0.0.0")
            #expect(open.server.url == "http://0.0.0.0:\(open.port)/")
            #expect(try RawConnection.request(port: open.port, "GET", "/", host: address).status == 200)
        }
        let six = try ServedSite(fixture, host: "::1")
        #expect(six.server.url == "http://[::1]:\(six.port)/")
        #expect(try RawConnection.request(port: six.port, "GET", "/", host: "::1").status == 200)
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
                "a review's metadata entry (another poster, same genres)", .full,
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
            ("a rating (and back to the first poster: a full build)", .full, ["content/movies/past-lives.md": pastLives(rating: "2.5")]),
            ("a rating alone", .reviews, ["content/movies/past-lives.md": pastLives(rating: "3")]),
            ("tags", .reviews, ["content/movies/parasite.md": parasite(tags: "[thriller, family]")]),
            ("a date (a new year in the footer: a full build)", .full, ["content/books/stoner.md": stoner(date: "2027-01-01")]),
            (
                "a new review", .reviews,
                ["content/movies/new.md": review("title: Brand New\ndate: 2026-05-01\nrating: 3\ntags: [korea]")]
            ),
            ("a deleted review (the last with genres: a full build)", .full, ["content/movies/past-lives.md": nil]),
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
                "a section's _index.md", .full,
                ["content/movies/_index.md": review("title: Cinema\nkind: movie", body: "All films.")]
            ),
            (
                "site.yml", .full,
                ["site.yml": "title: Renamed Reviews\nbase_url: https://example.org/\nauthor: Tester\n"]
            ),
            ("a draft", .full, ["content/books/stoner.md": stoner(date: "2027-01-01", extra: "\ndraft: true")]),
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

    @Test("a review's body re-renders its page and the feed; a field its cards show, the lists too; nothing else")
    func smallUpdates() throws {
        let folder = try ScratchFolder()
        for (path, text) in fixture { try folder.write(path, text) }
        let builder = SiteBuilder(
            options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")))
        let site = try LiveSite.build(builder)

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
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0, let first = list else { return nil }
    defer { freeifaddrs(list) }
    for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
        guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        let found = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer -> String in
            var raw = pointer.pointee.sin_addr
            inet_ntop(AF_INET, &raw, &text, socklen_t(INET_ADDRSTRLEN))
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        if !found.hasPrefix("127.") { return found }
    }
    return nil
}
