#if canImport(Glibc)
    import Glibc
#endif

/// A TCP socket listening on `host:port`, opened as evhttp would open it but with errors that
/// say which host failed and why (evhttp reports a failed name lookup through a stale `errno`).
struct ListeningSocket {
    let descriptor: Int32
    /// The port it got (the one asked for, or a free one for port 0).
    let port: Int
    /// Whether it listens on every interface (`0.0.0.0` or `::`), and of which family.
    var allInterfaces: AllInterfaces? = nil

    /// Resolves `host` (an IP address, or a name when it has letters) and listens on the first
    /// of its addresses that this machine can bind.
    static func open(host: String, port: Int) throws(HTTPServerError) -> ListeningSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV | (looksNumeric(host) ? AI_NUMERICHOST : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let found = getaddrinfo(host, String(port), &hints, &list)
        guard found == 0, let first = list else {
            let reason = found == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(found))
            throw .unknownHost(host, reason: looksNumeric(host) ? "not a valid IP address" : reason)
        }
        defer { freeaddrinfo(list) }
        var firstError: Int32 = 0
        for address in sequence(first: first, next: { $0.pointee.ai_next }) {
            switch bind(address.pointee) {
            case .success(let socket): return socket
            case .failure(let error): if firstError == 0 { firstError = error.code }
            }
        }
        switch firstError {
        case EADDRINUSE: throw .portInUse(host: host, port: port)
        case EADDRNOTAVAIL: throw .notLocal(host: host, port: port)
        case EACCES: throw .permissionDenied(host: host, port: port)
        default: throw .cannotBind(host: host, port: port, reason: String(cString: strerror(firstError)))
        }
    }
}

private extension ListeningSocket {
    struct SystemError: Error {
        let code: Int32
    }

    /// Digits and dots, or a colon (IPv6): an address, never to be looked up as a name.
    static func looksNumeric(_ host: String) -> Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber })
    }

    static func bind(_ address: addrinfo) -> Result<ListeningSocket, SystemError> {
        let descriptor = socket(
            address.ai_family, address.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
            address.ai_protocol)
        guard descriptor >= 0 else { return .failure(SystemError(code: errno)) }
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_KEEPALIVE, &on, socklen_t(MemoryLayout<Int32>.size))
        // Answers go out at once rather than waiting for the client to acknowledge the previous
        // segment (Nagle), which with delayed acknowledgements cost 40 ms a response. Accepted
        // connections inherit the option from the listening socket on Linux.
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        guard Glibc.bind(descriptor, address.ai_addr, address.ai_addrlen) == 0, listen(descriptor, SOMAXCONN) == 0
        else {
            let code = errno
            close(descriptor)
            return .failure(SystemError(code: code))
        }
        return .success(
            ListeningSocket(
                descriptor: descriptor, port: Int(boundPort(descriptor)), allInterfaces: allInterfaces(address)))
    }

    /// Whether `address` is the address of every interface, of its family.
    static func allInterfaces(_ address: addrinfo) -> AllInterfaces? {
        switch address.ai_family {
        case AF_INET:
            let ip = address.ai_addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            return ip.s_addr == 0 ? .ipv4 : nil
        case AF_INET6:
            let ip = address.ai_addr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            return withUnsafeBytes(of: ip) { $0.allSatisfy { $0 == 0 } } ? .ipv6 : nil
        default:
            return nil
        }
    }

    /// The port a listening socket got.
    static func boundPort(_ descriptor: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(descriptor, $0, &length) }
            if pointer.pointee.ss_family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt16(bigEndian: $0.pointee.sin_port)
            }
        }
    }
}
