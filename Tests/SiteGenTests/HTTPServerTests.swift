import EventHTTP
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The evhttp adapter, over real sockets on the loopback interface.
@Suite("HTTP server")
struct HTTPServerTests {
    @Test("answers a request on a free port, with the handler's status, headers and body")
    func answers() async throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { request, exchange in
            exchange.respond(
                status: 200, headers: [("Content-Type", "text/plain")],
                body: Array("\(request.method) \(request.target)".utf8))
        }
        server.start()
        defer { server.stop() }
        #expect(server.port > 0)
        let (data, response) = try await URLSession.shared.data(
            from: URL(string: "http://127.0.0.1:\(server.port)/hello?x=1")!)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "text/plain")
        #expect(String(decoding: data, as: UTF8.self) == "GET /hello?x=1")
    }

    @Test("an answer may come later, from another thread")
    func answersLater() async throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { _, exchange in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
                exchange.respond(status: 503, headers: [], body: Array("busy".utf8))
            }
        }
        server.start()
        defer { server.stop() }
        let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(server.port)/")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 503)
        #expect(data == Data("busy".utf8))
    }

    @Test("a header sent twice reaches the handler once, its values joined with a comma")
    func repeatedHeaders() throws {
        let seen = Mutex<HTTPRequest?>(nil)
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { request, exchange in
            seen.withLock { $0 = request }
            exchange.respond(status: 204, headers: [], body: [])
        }
        server.start()
        defer { server.stop() }
        let response = try RawConnection.request(
            port: server.port, "GET", "/a?b=c", headers: [("If-None-Match", "\"1\""), ("if-none-match", "W/\"2\"")])
        #expect(response.status == 204)
        let request = try #require(seen.withLock { $0 })
        #expect(request.method == "GET")
        #expect(request.target == "/a?b=c")
        #expect(request.headers["if-none-match"] == "\"1\", W/\"2\"")
        #expect(request.headers["host"] == "127.0.0.1")
    }

    @Test("a port in use is a clear error")
    func portInUse() throws {
        let first = try HTTPServer(host: "127.0.0.1", port: 0) { _, exchange in
            exchange.respond(status: 204, headers: [], body: [])
        }
        #expect(throws: HTTPServerError.portInUse(host: "127.0.0.1", port: first.port)) {
            try HTTPServer(host: "127.0.0.1", port: first.port) { _, _ in }
        }
    }

    @Test(
        "a host that cannot be bound is an error that names it and says why",
        arguments: [
            ("999.1.1.1", HTTPServerError.unknownHost("999.1.1.1", reason: "not a valid IP address")),
            ("::g", .unknownHost("::g", reason: "not a valid IP address")),
            ("not a host", .unknownHost("not a host", reason: "Name or service not known")),
            ("", .unknownHost("", reason: "Name or service not known")),
            ("192.0.2.1", .notLocal(host: "192.0.2.1", port: 0)),
            ("2001:db8::1", .notLocal(host: "2001:db8::1", port: 0)),
        ])
    func unbindableHosts(host: String, error: HTTPServerError) throws {
        #expect(throws: error) { try HTTPServer(host: host, port: 0) { _, _ in } }
    }

    @Test("the messages for hosts that cannot be bound")
    func hostMessages() {
        #expect(
            HTTPServerError.unknownHost("999.1.1.1", reason: "not a valid IP address").description
                == "cannot listen on \"999.1.1.1\": it is neither an IP address nor a name this machine can resolve"
                + " (not a valid IP address)")
        #expect(
            HTTPServerError.notLocal(host: "192.0.2.1", port: 1313).description
                == "cannot listen on 192.0.2.1 port 1313: that is not an address of this machine;"
                + " use 127.0.0.1 (this machine only) or 0.0.0.0 (every network interface)")
        #expect(
            HTTPServerError.permissionDenied(host: "127.0.0.1", port: 80).description
                == "cannot listen on 127.0.0.1 port 80: permission denied (ports below 1024 need root)")
    }

    @Test("a name is looked up: localhost listens on the loopback interface")
    func hostName() throws {
        let server = try HTTPServer(host: "localhost", port: 0) { _, exchange in
            exchange.respond(status: 200, headers: [], body: Array("here".utf8))
        }
        server.start()
        defer { server.stop() }
        let connection = try RawConnection(host: "127.0.0.1", port: server.port)
        try connection.sendRequest("GET", "/")
        #expect(try RawResponse(connection.receiveAll()).text == "here")
    }

    @Test("a request line or headers over the limit get 400, a body over its limit 413; the server goes on")
    func sizeLimits() throws {
        let server = try HTTPServer(
            host: "127.0.0.1", port: 0, limits: HTTPLimits(headerBytes: 4096, bodyBytes: 1024)
        ) { _, exchange in
            exchange.respond(status: 200, headers: [], body: Array("fine".utf8))
        }
        server.start()
        defer { server.stop() }
        let manyHeaders = (0..<600).map { ("X-Header-\($0)", "v") }
        for (target, headers, status) in [
            ("/" + String(repeating: "a", count: 5000), [], 400),
            ("/", [("X-Big", String(repeating: "b", count: 5000))], 400),
            ("/", manyHeaders, 400),
            ("/", [("Content-Length", "2000")], 413),
            ("/" + String(repeating: "a", count: 3000), [("X-Big", String(repeating: "b", count: 900))], 200),
            ("/", [("Content-Length", "0")], 200),
        ] as [(String, [(String, String)], Int)] {
            let response = try RawConnection.request(port: server.port, "GET", target, headers: headers)
            #expect(response.status == status, "\(target.prefix(20)) \(headers.count) headers")
            #expect(!response.body.isEmpty)
        }
    }

    @Test("a client that does not send a whole request in time is disconnected; answering and streaming ones are not")
    func requestDeadline() throws {
        let server = try HTTPServer(
            host: "127.0.0.1", port: 0, limits: HTTPLimits(requestSeconds: 1.5)
        ) { request, exchange in
            if request.target == "/stream" {
                exchange.startStream(status: 200, headers: [], onClose: {})
                exchange.send(Array("open".utf8))
            } else if request.target == "/small" {
                exchange.respond(status: 200, headers: [], body: Array("small".utf8))
            } else {
                exchange.respond(status: 200, headers: [], body: [UInt8](repeating: 65, count: 32 << 20))
            }
        }
        server.start()
        defer { server.stop() }
        // A request sent a byte every 0.1 s: each byte would restart the idle timeout.
        let dripping = try RawConnection(port: server.port)
        let idle = try RawConnection(port: server.port)
        let stream = try RawConnection(port: server.port)
        try stream.sendRequest("GET", "/stream", keepAlive: true)
        #expect(try stream.receive(until: { String(decoding: $0, as: UTF8.self).contains("open") }, timeout: 5))
        // A slow reader: 32 MB (more than the sockets buffer), read 64 KB every 0.1 s, outlasts the deadline.
        // (Timings are generous: the test must hold on a loaded machine.)
        let download = try RawConnection(port: server.port)
        try download.sendRequest("GET", "/big")
        // A keep-alive client asking again every 0.3 s: each request starts its deadline again.
        let regular = try RawConnection(port: server.port)
        var lastAsked = Date.distantPast
        var answers = 0
        let start = Date()
        var downloaded = 0
        var sent = 0
        let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)
        var failedRequests = 0
        while Date().timeIntervalSince(start) < 4 {
            if sent < request.count && !dripping.isClosed {
                try? dripping.send([request[sent]])
                sent += 1
            }
            _ = try dripping.receive(timeout: 0.05)
            try download.stream(timeout: 1, chunkSize: 64 * 1024) {
                downloaded += $0.count
                return false
            }
            if Date().timeIntervalSince(lastAsked) > 0.3 {
                do {
                    try regular.sendRequest("GET", "/small", keepAlive: true)
                    answers += 1
                } catch {
                    failedRequests += 1
                }
                lastAsked = Date()
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(dripping.isClosed, "the dripping client is still connected after 4 s")
        #expect(dripping.received.isEmpty)
        #expect(try idle.waitForClose(timeout: 0.1))
        #expect(!download.isClosed)
        try download.stream(timeout: 10) {
            downloaded += $0.count
            return true
        }
        #expect(downloaded > 32 << 20)
        #expect(!stream.isClosed)
        #expect(try stream.receive(timeout: 0.2) == false)
        #expect(!stream.isClosed)
        #expect(failedRequests == 0)
        #expect(answers >= 8)
        #expect(
            try regular.receive(
                until: { String(decoding: $0, as: UTF8.self).components(separatedBy: "small").count == answers + 1 },
                timeout: 5))
        #expect(!regular.isClosed)
    }

    @Test("a CONNECT answer says its length and ends the connection, even with a request pipelined behind it")
    func connect() throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { request, exchange in
            exchange.respond(status: 405, headers: [("Allow", "GET, HEAD")], body: Array("no \(request.method)\n".utf8))
        }
        server.start()
        defer { server.stop() }
        for pipelined in ["", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"] {
            let connection = try RawConnection(port: server.port)
            try connection.send(Array("CONNECT example.org:443 HTTP/1.1\r\nHost: example.org\r\n\r\n\(pipelined)".utf8))
            let response = try RawResponse(connection.receiveAll(timeout: 5))
            #expect(response.status == 405)
            #expect(response.header("Content-Length") == "11")
            #expect(response.header("Connection") == "close")
            #expect(response.text == "no CONNECT\n")
        }
        #expect(try RawConnection.request(port: server.port, "GET", "/").text == "no GET\n")
    }

    @Test("only EventHTTP's HTTPServer.swift imports CEvent (SwiftPM would let any target above it import it)")
    func libeventBoundary() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(atPath: sources.path))
        var importing: [String] = []
        for case let path as String in walker where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            if text.contains(/(?m)^\s*(@\w+\s+)?(\w+\s+)?import\s+(class\s+|func\s+|struct\s+)?CEvent\b/) {
                importing.append(path)
            }
        }
        #expect(importing == ["EventHTTP/HTTPServer.swift"])
    }

    @Test("stop() is safe before start(), and twice")
    func stopWithoutStart() throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { _, _ in }
        let port = server.port
        server.stop()
        server.stop()
        let again = try HTTPServer(host: "127.0.0.1", port: port) { _, _ in }
        #expect(again.port == port)
    }
}
