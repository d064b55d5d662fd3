internal import CEvent
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server on libevent's evhttp. This file is the only one that sees libevent.
///
/// The event loop runs on its own thread. Handlers are called there and answer through
/// an ``HTTPExchange``, now or later and from any thread: every call is carried over
/// to the loop thread, which is the only one that touches libevent.
public final class HTTPServer: @unchecked Sendable {
    // Unchecked only because libevent's pointers are not Sendable: every stored property is a
    // constant, the objects behind the pointers are used on the loop thread alone (or before it
    // starts and after it has ended), and everything that changes is in `state`, behind a Mutex
    // (and the loop thread's id, an Atomic).

    /// Called for every request, on the loop thread; must eventually answer the exchange.
    public typealias Handler = @Sendable (HTTPRequest, HTTPExchange) -> Void
    /// Receives messages for the person running the server (accepting paused, and why).
    public typealias Log = @Sendable (String) -> Void

    /// The port the server listens on (the one it got, when asked for port 0).
    public let port: Int
    public let host: String
    /// Set when it listens on every interface (`0.0.0.0`, `::`).
    public let allInterfaces: AllInterfaces?
    public let limits: HTTPLimits
    private let base: OpaquePointer
    private let http: OpaquePointer
    private let listener: OpaquePointer
    /// Activated by other threads to make the loop run queued work.
    private let wakeup: OpaquePointer
    /// Fires every ``HTTPLimits/tick``: closes connections past their deadline, resumes accepting.
    private let ticker: OpaquePointer
    private let handler: Handler
    private let log: Log
    private let state = Mutex(State())
    /// The loop thread's `pthread_t` once it runs (0 before): read on every answer, without a lock.
    private let loopThread = Atomic<UInt>(0)
    private let loopEnded = DispatchSemaphore(value: 0)

    private struct State {
        var phase = Phase.ready
        var pending: [@Sendable () -> Void] = []
        /// Connections accepted since the loop last ran queued work; see ``HTTPServer/adopt(_:)``.
        var accepted: [ObjectAddress] = []
        /// Every open connection, with when it last finished something (see ``HTTPServer/sweep()``).
        var connections: [ObjectAddress: ContinuousClock.Instant] = [:]
        /// The exchange being answered on a connection, so a closed connection's exchange is never answered.
        var exchanges: [ObjectAddress: HTTPExchange] = [:]
        /// When accepting last failed and said so (at most every 10 seconds).
        var acceptWarned: ContinuousClock.Instant?
    }

    private enum Phase {
        case ready, running, stopped
    }

    /// Binds `host:port` (0: any free port); throws ``HTTPServerError`` when it cannot.
    public init(
        host: String, port: Int, limits: HTTPLimits = HTTPLimits(), log: @escaping Log = { _ in },
        handler: @escaping Handler
    ) throws(HTTPServerError) {
        guard (0...65535).contains(port) else { throw .badPort(port) }
        let socket = try ListeningSocket.open(host: host, port: port)
        Self.setUpProcess
        guard let base = event_base_new() else {
            close(socket.descriptor)
            throw .cannotStart("event_base_new failed")
        }
        guard let http = evhttp_new(base) else {
            close(socket.descriptor)
            event_base_free(base)
            throw .cannotStart("evhttp_new failed")
        }
        guard let bound = evhttp_accept_socket_with_handle(http, socket.descriptor),
            let listener = evhttp_bound_socket_get_listener(bound)
        else {
            close(socket.descriptor)
            evhttp_free(http)
            event_base_free(base)
            throw .cannotStart("evhttp_accept_socket failed")
        }
        // From here on evhttp owns the socket.
        guard let wakeup = event_new(base, -1, Int16(EV_PERSIST), Self.wakeupCallback, nil),
            let ticker = event_new(base, -1, Int16(EV_PERSIST), Self.tickCallback, nil)
        else {
            evhttp_free(http)
            event_base_free(base)
            throw .cannotStart("event_new failed")
        }
        self.port = socket.port
        self.host = host
        self.allInterfaces = socket.allInterfaces
        self.limits = limits
        self.base = base
        self.http = http
        self.listener = listener
        self.wakeup = wakeup
        self.ticker = ticker
        self.handler = handler
        self.log = log
        let context = Unmanaged.passUnretained(self).toOpaque()
        evhttp_set_allowed_methods(http, Self.knownMethods)
        evhttp_set_timeout(http, Int32(limits.idleSeconds))
        evhttp_set_max_headers_size(http, limits.headerBytes)
        evhttp_set_max_body_size(http, limits.bodyBytes)
        evhttp_set_bevcb(http, Self.connectionCallback, context)
        evhttp_set_gencb(http, Self.requestCallback, context)
        Self.listeners.withLock { $0[ObjectAddress(listener)] = Unmanaged.passUnretained(self) }
        evconnlistener_set_error_cb(listener, Self.acceptErrorCallback)
        event_assign(wakeup, base, -1, Int16(EV_PERSIST), Self.wakeupCallback, context)
        event_add(wakeup, nil)
        event_assign(ticker, base, -1, Int16(EV_PERSIST), Self.tickCallback, context)
        var every = Self.interval(limits.tick)
        event_add(ticker, &every)
    }

    deinit {
        if state.withLock({ $0.phase }) != .stopped { closeEverything() }
        event_free(wakeup)
        event_free(ticker)
        event_base_free(base)
    }

    /// Starts serving on a new thread.
    public func start() {
        let first = state.withLock { state -> Bool in
            guard state.phase == .ready else { return false }
            state.phase = .running
            return true
        }
        guard first else { return }
        Thread.detachNewThread { [self] in
            loopThread.store(UInt(pthread_self()), ordering: .releasing)
            event_base_dispatch(base)
            loopEnded.signal()
        }
    }

    /// Stops the loop and closes every connection and the listening socket; returns when done.
    public func stop() {
        let phase = state.withLock { state -> Phase in
            defer { state.phase = .stopped }
            return state.phase
        }
        guard phase != .stopped else { return }
        if phase == .running {
            perform { [self] in
                let open = state.withLock { state -> [HTTPExchange] in
                    defer { state.exchanges.removeAll() }
                    return Array(state.exchanges.values)
                }
                for exchange in open { exchange.abandon() }
                event_base_loopbreak(base)
            }
            loopEnded.wait()
        }
        closeEverything()
    }

    /// Runs `work` on the loop thread: now when called there, otherwise as soon as the loop can.
    func perform(_ work: @escaping @Sendable () -> Void) {
        let loop = loopThread.load(ordering: .acquiring)
        if loop != 0, pthread_equal(pthread_t(loop), pthread_self()) != 0 { return work() }
        state.withLock { $0.pending.append(work) }
        event_active(wakeup, 0, 0)
    }

    /// Raises this process's soft limit on open files to its hard limit, so that many open
    /// connections do not run the server out of file descriptors; returns the limit in force.
    @discardableResult
    public static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return openFileLimit()
    }

    /// This process's (soft) limit on open files.
    public static func openFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return -1 }
        return limit.rlim_cur > UInt(Int.max) ? Int.max : Int(limit.rlim_cur)
    }
}

// MARK: - Answering (called by HTTPExchange, on the loop thread)

extension HTTPServer {
    /// Sends a whole response; evhttp reads `body` in place and lets it go once sent.
    func sendReply(
        _ address: ObjectAddress, status: Int, headers: [(String, String)], body: SharedBytes, part: Range<Int>
    ) {
        let request = address.pointer
        let command = evhttp_request_get_command(request)
        // evhttp sends a HEAD answer's body, and a CONNECT answer's without its length: say the
        // length, send no body for HEAD, and end a CONNECT's connection, which evhttp keeps open.
        setHeaders(headers, on: request)
        if (command == EVHTTP_REQ_HEAD || command == EVHTTP_REQ_CONNECT) && status >= 200 && status != 204
            && status != 304
        {
            setHeaders([("Content-Length", "\(part.count)")], on: request)
        }
        if command == EVHTTP_REQ_CONNECT {
            setHeaders([("Connection", "close")], on: request)
            evhttp_request_set_on_complete_cb(request, Self.closeAfterAnswer, nil)
        }
        let buffer = evbuffer_new()
        defer { evbuffer_free(buffer) }
        if command != EVHTTP_REQ_HEAD && !part.isEmpty {
            let retained = Unmanaged.passRetained(body).toOpaque()
            evbuffer_add_reference(
                buffer, body.bytes.baseAddress! + part.lowerBound, part.count,
                { _, _, context in
                    if let context { Unmanaged<SharedBytes>.fromOpaque(context).release() }
                }, retained)
        }
        evhttp_send_reply(request, Int32(status), HTTPStatus.reason(status), buffer)
    }

    func startChunks(_ request: ObjectAddress, status: Int, headers: [(String, String)]) {
        setHeaders(headers, on: request.pointer)
        evhttp_send_reply_start(request.pointer, Int32(status), HTTPStatus.reason(status))
    }

    func sendChunk(_ request: ObjectAddress, _ data: [UInt8]) {
        let buffer = evbuffer_new()
        defer { evbuffer_free(buffer) }
        data.withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) }
        evhttp_send_reply_chunk(request.pointer, buffer)
    }

    func endChunks(_ request: ObjectAddress) {
        evhttp_send_reply_end(request.pointer)
    }

    /// The exchange on `connection` is answered. (Its deadline started again with the request;
    /// an answer that takes long keeps the connection busy, which restarts it too.)
    func finished(on connection: ObjectAddress?) {
        guard let connection else { return }
        state.withLock { $0.exchanges[connection] = nil }
    }

    private func setHeaders(_ headers: [(String, String)], on request: OpaquePointer) {
        let output = evhttp_request_get_output_headers(request)
        for (name, value) in headers { evhttp_add_header(output, name, value) }
    }
}

// MARK: - libevent callbacks and helpers

private extension HTTPServer {
    /// Once per process: libevent's locks for threads, and SIGPIPE ignored, since libevent writes
    /// with plain `writev`: writing to a connection the client reset would otherwise end the process.
    static let setUpProcess: Void = {
        _ = evthread_use_pthreads()
        signal(SIGPIPE, SIG_IGN)
    }()

    /// The methods evhttp knows (it answers any other with 501 itself); the handler decides about these.
    static let knownMethods = UInt16(
        EVHTTP_REQ_GET.rawValue | EVHTTP_REQ_POST.rawValue | EVHTTP_REQ_HEAD.rawValue | EVHTTP_REQ_PUT.rawValue
            | EVHTTP_REQ_DELETE.rawValue | EVHTTP_REQ_OPTIONS.rawValue | EVHTTP_REQ_TRACE.rawValue
            | EVHTTP_REQ_CONNECT.rawValue | EVHTTP_REQ_PATCH.rawValue)

    /// Servers by their listener, for the accept error callback, whose context is evhttp's.
    static let listeners = Mutex<[ObjectAddress: Unmanaged<HTTPServer>]>([:])

    static func server(_ context: UnsafeMutableRawPointer?) -> HTTPServer? {
        context.map { Unmanaged<HTTPServer>.fromOpaque($0).takeUnretainedValue() }
    }

    static func interval(_ seconds: Double) -> timeval {
        timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
    }

    /// Frees evhttp (closing the listening socket and every connection) once the loop has ended.
    func closeEverything() {
        _ = Self.listeners.withLock { $0.removeValue(forKey: ObjectAddress(listener)) }
        evhttp_free(http)
        // Connections accepted during the loop's last turn still hold the reference adopt() gives back.
        let accepted = state.withLock { state -> [ObjectAddress] in
            defer { state.accepted.removeAll() }
            return state.accepted
        }
        for buffer in accepted { bufferevent_decref(buffer.pointer) }
    }

    static let wakeupCallback: @convention(c) (Int32, Int16, UnsafeMutableRawPointer?) -> Void = { _, _, context in
        guard let server = server(context) else { return }
        let (work, accepted) = server.state.withLock { state in
            defer {
                state.pending.removeAll()
                state.accepted.removeAll()
            }
            return (state.pending, state.accepted)
        }
        for buffer in accepted { server.adopt(buffer.pointer) }
        for item in work { item() }
    }

    /// evhttp asks for each new connection's bufferevent. The connection is not set up yet, so
    /// it is adopted on the loop's next turn; a reference keeps the bufferevent until then.
    static let connectionCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> OpaquePointer? = {
        base, context in
        guard let server = server(context),
            let buffer = bufferevent_socket_new(base, -1, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue))
        else { return nil }
        bufferevent_incref(buffer)
        let address = ObjectAddress(buffer)
        server.state.withLock { $0.accepted.append(address) }
        event_active(server.wakeup, 0, 0)
        return buffer
    }

    /// Starts tracking a new connection (evhttp's bufferevent callback argument is the connection).
    func adopt(_ buffer: OpaquePointer) {
        var event: bufferevent_event_cb?
        var argument: UnsafeMutableRawPointer?
        bufferevent_getcb(buffer, nil, nil, &event, &argument)
        // Without callbacks, evhttp has already freed the connection.
        if event != nil, let argument {
            evhttp_connection_set_closecb(
                OpaquePointer(argument), Self.closeCallback, Unmanaged.passUnretained(self).toOpaque())
            let connection = ObjectAddress(OpaquePointer(argument))
            state.withLock { state in
                if state.connections[connection] == nil { state.connections[connection] = .now }
            }
        }
        bufferevent_decref(buffer)
    }

    static let closeCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
        connection, context in
        guard let pointer = connection, let server = server(context) else { return }
        let connection = ObjectAddress(pointer)
        let exchange = server.state.withLock { state in
            state.connections[connection] = nil
            return state.exchanges.removeValue(forKey: connection)
        }
        exchange?.abandon()
    }

    static let requestCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
        request, context in
        guard let request, let server = server(context) else { return }
        let pointer = evhttp_request_get_connection(request)
        let connection = pointer.map(ObjectAddress.init)
        let exchange = HTTPExchange(server: server, request: ObjectAddress(request), connection: connection)
        if let pointer, let connection {
            evhttp_connection_set_closecb(pointer, closeCallback, context)
            server.state.withLock { state in
                state.exchanges[connection] = exchange
                state.connections[connection] = .now
            }
        }
        server.handler(
            HTTPRequest(method: method(of: request), target: target(of: request), headers: headers(of: request)),
            exchange)
    }

    /// After a CONNECT answer is written: shuts the socket, so evhttp reads its end and frees the connection.
    static let closeAfterAnswer: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { request, _ in
        guard let request, let connection = evhttp_request_get_connection(request),
            let buffer = evhttp_connection_get_bufferevent(connection)
        else { return }
        shutdown(bufferevent_getfd(buffer), Int32(SHUT_RDWR))
    }

    static let tickCallback: @convention(c) (Int32, Int16, UnsafeMutableRawPointer?) -> Void = { _, _, context in
        server(context)?.sweep()
    }

    /// Closes connections that have not sent a whole request within ``HTTPLimits/requestSeconds``
    /// of opening or of their last answer (a client sending a byte now and then would otherwise
    /// keep one forever), and resumes accepting if it was paused.
    func sweep() {
        evconnlistener_enable(listener)
        let now = ContinuousClock.now
        let deadline = Duration.seconds(limits.requestSeconds)
        let late = state.withLock { state -> [ObjectAddress] in
            var late: [ObjectAddress] = []
            for (connection, since) in state.connections {
                let buffer = evhttp_connection_get_bufferevent(connection.pointer)
                let sending = buffer.map { evbuffer_get_length(bufferevent_get_output($0)) > 0 } ?? false
                if state.exchanges[connection] != nil || sending {
                    state.connections[connection] = now
                } else if now - since > deadline {
                    late.append(connection)
                }
            }
            return late
        }
        for connection in late { evhttp_connection_free(connection.pointer) }
    }

    /// Accepting failed (most often: out of file descriptors). Pauses it until the next tick,
    /// instead of retrying in a tight loop, and says so (at most every 10 seconds).
    static let acceptErrorCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
        listener, _ in
        let code = errno
        guard let listener,
            let server = listeners.withLock({ $0[ObjectAddress(listener)] })?.takeUnretainedValue()
        else { return }
        evconnlistener_disable(listener)
        let now = ContinuousClock.now
        let warn = server.state.withLock { state -> Bool in
            guard state.acceptWarned.map({ now - $0 > .seconds(10) }) ?? true else { return false }
            state.acceptWarned = now
            return true
        }
        if warn {
            server.log(
                "Not accepting new connections for now: \(String(cString: strerror(code)))"
                    + " (this process may open \(HTTPServer.openFileLimit()) files); waiting for connections to close")
        }
    }

    static func method(of request: OpaquePointer) -> String {
        switch evhttp_request_get_command(request) {
        case EVHTTP_REQ_GET: "GET"
        case EVHTTP_REQ_HEAD: "HEAD"
        case EVHTTP_REQ_POST: "POST"
        case EVHTTP_REQ_PUT: "PUT"
        case EVHTTP_REQ_DELETE: "DELETE"
        case EVHTTP_REQ_OPTIONS: "OPTIONS"
        case EVHTTP_REQ_TRACE: "TRACE"
        case EVHTTP_REQ_CONNECT: "CONNECT"
        case EVHTTP_REQ_PATCH: "PATCH"
        default: "UNKNOWN"
        }
    }

    static func target(of request: OpaquePointer) -> String {
        evhttp_request_get_uri(request).map { String(cString: $0) } ?? "/"
    }

    /// Header names lowercased; a header sent more than once has its values joined with `, `.
    static func headers(of request: OpaquePointer) -> [String: String] {
        var result: [String: String] = [:]
        guard let list = evhttp_request_get_input_headers(request) else { return result }
        var header = list.pointee.tqh_first
        while let current = header {
            if let key = current.pointee.key, let value = current.pointee.value {
                let name = String(cString: key).lowercased()
                let text = String(cString: value)
                result[name] = result[name].map { $0 + ", " + text } ?? text
            }
            header = current.pointee.next.tqe_next
        }
        return result
    }
}
