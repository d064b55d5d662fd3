import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to a test server: sends request bytes exactly as written (targets
/// such as `/../site.yml` that URLSession would tidy up) and reads answers as they arrive.
final class RawConnection {
    private let descriptor: Int32
    /// Everything read so far.
    private(set) var received: [UInt8] = []
    /// Whether the server closed its side.
    private(set) var isClosed = false

    /// Connects to `host:port` (an IPv4 or IPv6 address).
    init(host: String = "127.0.0.1", port: Int) throws {
        let family = host.contains(":") ? AF_INET6 : AF_INET
        descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError(call: "socket", code: errno) }
        let connected: Int32
        if family == AF_INET6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            connected = Self.connect(descriptor, &address)
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            connected = Self.connect(descriptor, &address)
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw SocketError(call: "connect", code: code)
        }
    }

    deinit {
        close(descriptor)
    }

    /// Sends `bytes` as they are.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw SocketError(call: "send", code: errno) }
            offset += sent
        }
    }

    /// Sends `method target HTTP/1.1` with `Host`, `headers` and, unless `keepAlive`, `Connection: close`.
    func sendRequest(_ method: String, _ target: String, headers: [(String, String)] = [], keepAlive: Bool = false)
        throws
    {
        var lines = ["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1"]
        if !keepAlive { lines.append("Connection: close") }
        lines += headers.map { "\($0.0): \($0.1)" }
        try send(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
    }

    /// Reads what arrives within `timeout` seconds; false when nothing came (or the server closed).
    @discardableResult
    func receive(timeout: Double) throws -> Bool {
        guard !isClosed else { return false }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 && errno != ECONNRESET { throw SocketError(call: "recv", code: errno) }
        guard count > 0 else {
            isClosed = true
            return false
        }
        received += chunk[..<count]
        return true
    }

    /// Reads until the server closes the connection; throws when it takes longer than `timeout`.
    func receiveAll(timeout: Double = 5) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(timeout)
        while !isClosed {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw SocketError(call: "recv (timed out)", code: ETIMEDOUT) }
            try receive(timeout: left)
        }
        return received
    }

    /// Waits up to `timeout` seconds for `received` to satisfy `condition`.
    func receive(until condition: ([UInt8]) -> Bool, timeout: Double) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(received) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, !isClosed else { return false }
            try receive(timeout: left)
        }
        return true
    }

    /// Reads what arrives, handing each piece to `consume` without keeping it (for large
    /// answers), until `consume` returns false, the server closes, or `timeout` seconds pass.
    func stream(timeout: Double, chunkSize: Int = 64 * 1024, _ consume: (ArraySlice<UInt8>) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while !isClosed {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw SocketError(call: "recv (timed out)", code: ETIMEDOUT) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000)) > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                isClosed = true
                return
            }
            if !consume(chunk[..<count]) { return }
        }
    }

    /// Waits up to `timeout` seconds for the server to close the connection, discarding what it sends.
    func waitForClose(timeout: Double) throws -> Bool {
        do {
            try stream(timeout: timeout) { _ in true }
        } catch let error as SocketError where error.code == ETIMEDOUT {
            return false
        }
        return isClosed
    }

    /// One whole request on a new connection: sends it and parses the answer.
    static func request(
        port: Int, _ method: String = "GET", _ target: String, headers: [(String, String)] = [],
        host: String = "127.0.0.1"
    ) throws -> RawResponse {
        let connection = try RawConnection(host: host, port: port)
        try connection.sendRequest(method, target, headers: headers)
        return try RawResponse(try connection.receiveAll())
    }
}

private extension RawConnection {
    static func connect<Address>(_ descriptor: Int32, _ address: inout Address) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
    }
}

/// A socket call that failed.
struct SocketError: Error, CustomStringConvertible {
    let call: String
    let code: Int32
    var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}
