import Synchronization

/// One request being answered: a whole response, or a stream of chunks (Server-Sent Events).
///
/// Every method may be called from any thread; the work is carried over to the server's loop
/// thread. Once the connection has gone away, or the server stops, calls do nothing.
public final class HTTPExchange: Sendable {
    private let server: HTTPServer
    private let state: Mutex<State>

    private struct State {
        /// evhttp's request, until it is answered or its connection closes.
        var request: ObjectAddress?
        let connection: ObjectAddress?
        var streaming = false
        var onClose: (@Sendable () -> Void)?
    }

    init(server: HTTPServer, request: ObjectAddress, connection: ObjectAddress?) {
        self.server = server
        state = Mutex(State(request: request, connection: connection))
    }

    /// Sends a whole response; for HEAD, only the length of `body`.
    public func respond(status: Int, headers: [(String, String)], body: [UInt8]) {
        respond(status: status, headers: headers, body: SharedBytes(body))
    }

    /// Sends a whole response whose body is sent in place, without copying it: `body`, or the
    /// bytes of it at `part`.
    public func respond(status: Int, headers: [(String, String)], body: SharedBytes, part: Range<Int>? = nil) {
        let part = part.map { $0.clamped(to: 0..<body.count) } ?? 0..<body.count
        server.perform { [self] in
            guard let (request, connection) = take() else { return }
            server.sendReply(request, status: status, headers: headers, body: body, part: part)
            server.finished(on: connection)
        }
    }

    /// Starts a chunked response; send chunks with ``send(_:)`` and end with ``end()``.
    /// `onClose` is called if the connection goes away first.
    public func startStream(status: Int, headers: [(String, String)], onClose: @escaping @Sendable () -> Void) {
        server.perform { [self] in
            let request = state.withLock { state -> ObjectAddress? in
                guard let request = state.request else { return nil }
                state.streaming = true
                state.onClose = onClose
                return request
            }
            guard let request else { return onClose() }
            server.startChunks(request, status: status, headers: headers)
        }
    }

    /// Sends one chunk of a stream.
    public func send(_ data: [UInt8]) {
        server.perform { [self] in
            guard let request = state.withLock({ $0.streaming ? $0.request : nil }) else { return }
            server.sendChunk(request, data)
        }
    }

    /// Ends a stream.
    public func end() {
        server.perform { [self] in
            guard state.withLock({ $0.streaming }), let (request, connection) = take() else { return }
            server.endChunks(request)
            server.finished(on: connection)
        }
    }

    /// The connection went away (or the server stops): nothing more is sent.
    func abandon() {
        let onClose = state.withLock { state in
            state.request = nil
            defer { state.onClose = nil }
            return state.onClose
        }
        onClose?()
    }
}

private extension HTTPExchange {
    /// The request and its connection, once: the exchange is answered from then on.
    func take() -> (ObjectAddress, ObjectAddress?)? {
        state.withLock { state in
            guard let request = state.request else { return nil }
            state.request = nil
            state.onClose = nil
            return (request, state.connection)
        }
    }
}
