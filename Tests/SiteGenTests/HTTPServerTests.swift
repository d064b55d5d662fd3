import EventHTTP
import Foundation
import SiteGen
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

    @Test("a port in use is a clear error")
    func portInUse() throws {
        let first = try HTTPServer(host: "127.0.0.1", port: 0) { _, exchange in
            exchange.respond(status: 204, headers: [], body: [])
        }
        #expect(throws: HTTPServerError.portInUse(host: "127.0.0.1", port: first.port)) {
            try HTTPServer(host: "127.0.0.1", port: first.port) { _, _ in }
        }
    }
}
