import CEvent
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server on libevent's evhttp, the only file that sees libevent.
///
/// The event loop runs on its own thread. Handlers are called there and answer through
/// an ``HTTPExchange``, now or later and from any thread: every call is carried over
/// to the loop thread, which is the only one that touches libevent.
public final class HTTPServer: @unchecked Sendable {
    /// Called for every request, on the loop thread; must eventually answer the exchange.
    public typealias Handler = @Sendable (HTTPRequest, HTTPExchange) -> Void

    /// The port the server listens on (the one it got, when asked for port 0).
    public let port: Int
    public let host: String
    private let base: OpaquePointer
    private let http: OpaquePointer
    private let wakeup: OpaquePointer
    private let handler: Handler
    private let pending = Mutex<[@Sendable () -> Void]>([])
    private var thread: pthread_t?
    /// The loop thread, once it runs; work from it needs no hand-over.
    private let loopThread = Mutex<pthread_t?>(nil)
    private let stopped = Mutex(false)
    /// Whether ``stop()`` has freed evhttp (and with it the port and the connections).
    private var isClosed = false
    /// Open exchanges by connection, so a closed connection's exchange is never answered.
    fileprivate var openExchanges: [OpaquePointer: HTTPExchange] = [:]

    /// Binds `host:port` (0: any free port); throws ``HTTPServerError`` when it cannot.
    public init(host: String, port: Int, handler: @escaping Handler) throws {
        guard (0...65535).contains(port) else { throw HTTPServerError.badPort(port) }
        Self.enableThreads
        guard let base = event_base_new() else { throw HTTPServerError.cannotStart("event_base_new failed") }
        guard let http = evhttp_new(base) else {
            event_base_free(base)
            throw HTTPServerError.cannotStart("evhttp_new failed")
        }
        errno = 0
        guard let bound = evhttp_bind_socket_with_handle(http, host, UInt16(port)) else {
            let code = errno
            evhttp_free(http)
            event_base_free(base)
            if code == EADDRINUSE { throw HTTPServerError.portInUse(host: host, port: port) }
            throw HTTPServerError.cannotBind(host: host, port: port, reason: String(cString: strerror(code)))
        }
        self.port = Int(Self.boundPort(evhttp_bound_socket_get_fd(bound)))
        self.host = host
        self.base = base
        self.http = http
        self.handler = handler
        evhttp_set_allowed_methods(http, UInt16(0x1FF))
        evhttp_set_timeout(http, 60)
        // An event that other threads activate to make the loop run queued work.
        guard let wakeup = event_new(base, -1, Int16(EV_PERSIST), Self.wakeupCallback, nil) else {
            evhttp_free(http)
            event_base_free(base)
            throw HTTPServerError.cannotStart("event_new failed")
        }
        self.wakeup = wakeup
        event_assign(
            wakeup, base, -1, Int16(EV_PERSIST), Self.wakeupCallback, Unmanaged.passUnretained(self).toOpaque())
        event_add(wakeup, nil)
        evhttp_set_gencb(http, Self.requestCallback, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        event_free(wakeup)
        if !isClosed { evhttp_free(http) }
        event_base_free(base)
    }

    /// Starts serving on a new thread.
    public func start() {
        thread = startThread { [self] in
            loopThread.withLock { $0 = pthread_self() }
            event_base_dispatch(base)
        }
    }

    /// Stops the loop and closes every connection and the listening socket; returns when done.
    public func stop() {
        let first = stopped.withLock { flag -> Bool in
            defer { flag = true }
            return !flag
        }
        guard first else { return }
        if let thread {
            perform { [self] in
                for exchange in openExchanges.values { exchange.abandon() }
                openExchanges.removeAll()
                event_base_loopbreak(base)
            }
            pthread_join(thread, nil)
        }
        // The loop has ended: freeing evhttp closes the listening socket and every connection.
        evhttp_free(http)
        isClosed = true
    }

    /// Runs `work` on the loop thread.
    func perform(_ work: @escaping @Sendable () -> Void) {
        if let loop = loopThread.withLock({ $0 }), pthread_equal(loop, pthread_self()) != 0 {
            work()
            return
        }
        pending.withLock { $0.append(work) }
        event_active(wakeup, 0, 0)
    }
}

/// Why a server could not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    case badPort(Int)
    case portInUse(host: String, port: Int)
    case cannotBind(host: String, port: Int, reason: String)
    case cannotStart(String)

    public var description: String {
        switch self {
        case .badPort(let port): "port \(port) is not a port number (0 to 65535)"
        case .portInUse(let host, let port):
            "port \(port) on \(host) is already in use: pick another with --port, or --port 0 for any free one"
        case .cannotBind(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        case .cannotStart(let reason): "cannot start the HTTP server: \(reason)"
        }
    }
}

/// A request as the handler sees it.
public struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, `POST`…
    public let method: String
    /// The request target as sent, such as `/movies/?page=2`.
    public let target: String
    /// Header names lowercased.
    public let headers: [String: String]
}

/// One request being answered: a whole response, or a stream of chunks (Server-Sent Events).
public final class HTTPExchange: @unchecked Sendable {
    fileprivate let server: HTTPServer
    fileprivate var request: OpaquePointer?
    fileprivate var connection: OpaquePointer?
    fileprivate var streaming = false
    private var closeHandler: (@Sendable () -> Void)?

    fileprivate init(server: HTTPServer, request: OpaquePointer) {
        self.server = server
        self.request = request
        self.connection = evhttp_request_get_connection(request)
    }

    /// Sends a whole response; for HEAD, only the length of `body`.
    public func respond(status: Int, headers: [(String, String)], body: [UInt8]) {
        respond(status: status, headers: headers, body: SharedBytes(body))
    }

    /// Sends a whole response whose body evhttp reads in place, without copying it.
    public func respond(status: Int, headers: [(String, String)], body: SharedBytes) {
        server.perform { [self] in
            guard let request else { return }
            // evhttp would send a HEAD response's body, which the client then takes for the next response.
            let isHead = evhttp_request_get_command(request) == EVHTTP_REQ_HEAD
            setHeaders(isHead && !body.isEmpty ? headers + [("Content-Length", "\(body.count)")] : headers, on: request)
            let buffer = evbuffer_new()
            if !isHead && !body.isEmpty {
                // The buffer holds a reference to the bytes; the callback lets them go once sent.
                let retained = Unmanaged.passRetained(body).toOpaque()
                evbuffer_add_reference(
                    buffer, body.bytes.baseAddress, body.count,
                    { _, _, context in
                        if let context { Unmanaged<SharedBytes>.fromOpaque(context).release() }
                    }, retained)
            }
            evhttp_send_reply(request, Int32(status), HTTPExchange.reason(status), buffer)
            evbuffer_free(buffer)
            finish()
        }
    }

    /// Starts a chunked response; send chunks with ``send(_:)`` and end with ``end()``.
    public func startStream(status: Int, headers: [(String, String)], onClose: @escaping @Sendable () -> Void) {
        server.perform { [self] in
            guard let request else { return onClose() }
            closeHandler = onClose
            streaming = true
            setHeaders(headers, on: request)
            evhttp_send_reply_start(request, Int32(status), HTTPExchange.reason(status))
        }
    }

    /// Sends one chunk of a stream.
    public func send(_ data: [UInt8]) {
        server.perform { [self] in
            guard let request, streaming else { return }
            let buffer = evbuffer_new()
            data.withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) }
            evhttp_send_reply_chunk(request, buffer)
            evbuffer_free(buffer)
        }
    }

    /// Ends a stream.
    public func end() {
        server.perform { [self] in
            guard let request, streaming else { return }
            evhttp_send_reply_end(request)
            finish()
        }
    }

    /// The connection went away (or the server stops): nothing more is sent.
    fileprivate func abandon() {
        request = nil
        let handler = closeHandler
        closeHandler = nil
        handler?()
    }

    private func finish() {
        if let connection { server.openExchanges[connection] = nil }
        request = nil
        closeHandler = nil
    }

    private func setHeaders(_ headers: [(String, String)], on request: OpaquePointer) {
        let output = evhttp_request_get_output_headers(request)
        for (name, value) in headers { evhttp_add_header(output, name, value) }
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}

private extension HTTPServer {
    static let enableThreads: Void = { _ = evthread_use_pthreads() }()

    /// The port a listening socket got.
    static func boundPort(_ descriptor: Int32) -> UInt16 {
        let storage = UnsafeMutablePointer<sockaddr_storage>.allocate(capacity: 1)
        defer { storage.deallocate() }
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let family = storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> sa_family_t in
            getsockname(descriptor, pointer, &length)
            return pointer.pointee.sa_family
        }
        if family == sa_family_t(AF_INET6) {
            return storage.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                UInt16(bigEndian: $0.pointee.sin6_port)
            }
        }
        return storage.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
    }

    static let wakeupCallback: @convention(c) (Int32, Int16, UnsafeMutableRawPointer?) -> Void = { _, _, context in
        guard let context else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        let work = server.pending.withLock { queued in
            defer { queued.removeAll() }
            return queued
        }
        for item in work { item() }
    }

    static let closeCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
        connection, context in
        guard let connection, let context else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        server.openExchanges.removeValue(forKey: connection)?.abandon()
    }

    static let requestCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
        request, context in
        guard let request, let context else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        let exchange = HTTPExchange(server: server, request: request)
        if let connection = exchange.connection {
            server.openExchanges[connection] = exchange
            evhttp_connection_set_closecb(connection, closeCallback, context)
        }
        server.handler(
            HTTPRequest(method: method(of: request), target: target(of: request), headers: headers(of: request)),
            exchange)
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

    static func headers(of request: OpaquePointer) -> [String: String] {
        var result: [String: String] = [:]
        guard let list = evhttp_request_get_input_headers(request) else { return result }
        var header = list.pointee.tqh_first
        while let current = header {
            if let key = current.pointee.key, let value = current.pointee.value {
                result[String(cString: key).lowercased()] = String(cString: value)
            }
            header = current.pointee.next.tqe_next
        }
        return result
    }
}

/// Immutable bytes that several responses can send at once without copying them.
public final class SharedBytes: @unchecked Sendable {
    let bytes: UnsafeMutableBufferPointer<UInt8>

    public init(_ array: [UInt8]) {
        bytes = .allocate(capacity: max(array.count, 1))
        _ = bytes.initialize(from: array)
        count = array.count
    }

    /// How many bytes.
    public let count: Int

    public var isEmpty: Bool { count == 0 }

    /// The bytes as an array.
    public var array: [UInt8] { Array(bytes.prefix(count)) }

    deinit {
        bytes.deallocate()
    }
}
