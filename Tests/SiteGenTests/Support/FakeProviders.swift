import EventHTTP
import Foundation
import SiteGen
import Synchronization

/// A stand-in for TMDB, Naver and Open Library on the loopback interface: a real HTTP
/// server that answers each path with a scripted sequence of answers, and records every
/// request and the most requests it had in flight at once.
final class FakeProviders: Sendable {
    /// One answer to one request.
    indirect enum Answer: Sendable {
        /// A JSON body, as written.
        case json(String)
        /// Bytes with a content type, such as a poster.
        case bytes([UInt8], contentType: String)
        /// A status with a small JSON error body and, for 429, an optional `Retry-After`.
        case status(Int, retryAfter: String? = nil)
        /// `302 Found` to `location`.
        case redirect(String)
        /// A 200 whose JSON body is cut off.
        case malformed
        /// No answer at all: the client has to give up.
        case stall
        /// `answer`, after `seconds`.
        case delayed(Double, Answer)
        /// A 200 whose body comes one byte every tenth of a second, for `seconds`.
        case drip(seconds: Double)
        /// A 200 of `bytes` spaces, streamed (chunked, so without a length) a megabyte at a time.
        case stream(bytes: Int)
    }

    /// A request as the server received it.
    struct Request: Sendable, Equatable, CustomStringConvertible {
        let method: String
        let path: String
        /// The query as sent (percent-encoded), or nil when there is none.
        let query: String?
        /// Header names lowercased.
        let headers: [String: String]

        /// The query's items, decoded, by name.
        var parameters: [String: String] {
            let items = URLComponents(string: "http://x/?" + (query ?? ""))?.queryItems ?? []
            return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        }

        /// `/path?query`, as the request line had it.
        var target: String { query.map { "\(path)?\($0)" } ?? path }

        var description: String { "\(method) \(target)" }
    }

    fileprivate struct State {
        var scripts: [String: [Answer]] = [:]
        var requests: [Request] = []
        var inFlight = 0
        var maxInFlight = 0
    }

    /// The state the server's handler shares with the test, behind a lock.
    fileprivate final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let server: HTTPServer
    private let shared: Shared
    /// `http://127.0.0.1:<port>`, without a trailing slash.
    let url: String

    /// Starts a server; `delay` holds back every answer that long (for concurrency).
    init(delay: Double = 0) throws {
        let shared = Shared()
        self.shared = shared
        server = try HTTPServer(host: "127.0.0.1", port: 0) { request, exchange in
            Self.handle(request, exchange, shared: shared, delay: delay)
        }
        url = "http://127.0.0.1:\(server.port)"
        server.start()
    }

    deinit {
        server.stop()
    }

    /// Answers requests for `path` with `answers` in turn, repeating the last one.
    func route(_ path: String, _ answers: Answer...) {
        shared.state.withLock { $0.scripts[path] = answers }
    }

    /// Every request received so far, in order.
    var requests: [Request] { shared.state.withLock { $0.requests } }

    /// The paths requested so far, with their queries, in order.
    var targets: [String] { requests.map(\.target) }

    /// The most requests that were waiting for an answer at the same time.
    var maxInFlight: Int { shared.state.withLock { $0.maxInFlight } }

    /// The environment that points `sitegen fetch` at this server for every provider.
    var environment: [String: String] {
        [
            "SITEGEN_TMDB_API": "\(url)/3", "SITEGEN_TMDB_IMAGES": "\(url)/t/p", "SITEGEN_NAVER_API": url,
            "SITEGEN_OPENLIBRARY_API": url, "SITEGEN_OPENLIBRARY_COVERS": "\(url)/covers",
        ]
    }
}

private extension FakeProviders {
    static func handle(_ request: HTTPRequest, _ exchange: HTTPExchange, shared: Shared, delay: Double) {
        let parts = request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let answer = shared.state.withLock { state -> Answer in
            state.requests.append(
                Request(
                    method: request.method, path: path, query: parts.count > 1 ? String(parts[1]) : nil,
                    headers: request.headers))
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            guard var script = state.scripts[path], !script.isEmpty else { return .status(404) }
            let next = script.count > 1 ? script.removeFirst() : script[0]
            state.scripts[path] = script
            return next
        }
        send(delay > 0 ? .delayed(delay, answer) : answer, to: exchange, shared: shared)
    }

    static func send(_ answer: Answer, to exchange: HTTPExchange, shared: Shared) {
        let respond = { (status: Int, headers: [(String, String)], body: [UInt8]) in
            shared.state.withLock { $0.inFlight -= 1 }
            exchange.respond(status: status, headers: headers, body: body)
        }
        let json = ("Content-Type", "application/json;charset=utf-8")
        switch answer {
        case .json(let text):
            respond(200, [json], Array(text.utf8))
        case .bytes(let bytes, let contentType):
            respond(200, [("Content-Type", contentType)], bytes)
        case .status(let status, let retryAfter):
            let body = #"{"status_code":\#(status),"status_message":"fake error \#(status)"}"#
            respond(status, [json] + (retryAfter.map { [("Retry-After", $0)] } ?? []), Array(body.utf8))
        case .redirect(let location):
            respond(302, [("Location", location)], [])
        case .malformed:
            respond(200, [json], Array(#"{"id": 496243, "title": "Parasi"#.utf8))
        case .stall:
            break
        case .delayed(let seconds, let answer):
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                send(answer, to: exchange, shared: shared)
            }
        case .drip(let seconds):
            exchange.startStream(status: 200, headers: [json], onClose: {})
            let count = Int(seconds * 10)
            for tick in 0..<count {
                DispatchQueue.global().asyncAfter(deadline: .now() + Double(tick) / 10) {
                    exchange.send([UInt8(ascii: " ")])
                    if tick == count - 1 {
                        shared.state.withLock { $0.inFlight -= 1 }
                        exchange.end()
                    }
                }
            }
        case .stream(let bytes):
            exchange.startStream(status: 200, headers: [json], onClose: {})
            let megabyte = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 20)
            for start in stride(from: 0, to: bytes, by: megabyte.count) {
                exchange.send(Array(megabyte.prefix(bytes - start)))
            }
            shared.state.withLock { $0.inFlight -= 1 }
            exchange.end()
        }
    }
}
