#if canImport(Glibc)
    import Glibc
#endif

/// A server listening on every interface: `0.0.0.0` (IPv4) or `::` (IPv6).
public enum AllInterfaces: Sendable {
    case ipv4, ipv6
}

/// The addresses other machines can reach this one at: what a server listening on every
/// interface (`0.0.0.0`, `::`) tells its user to open on another device.
public enum InterfaceAddresses {
    /// The numeric addresses of the interfaces that are up, other than loopback ones and IPv6
    /// link-local ones (which need a zone to be opened), IPv4 or IPv6, in the system's order
    /// without repeats.
    public static func list(ipv6: Bool) -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let first else { return [] }
        defer { freeifaddrs(first) }
        var found: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, flags & Int32(IFF_UP) != 0,
                flags & Int32(IFF_LOOPBACK) == 0,
                let text = numeric(address, ipv6: ipv6), !found.contains(text)
            else { continue }
            found.append(text)
        }
        return found
    }

    /// `address` written as digits, when it is of the family asked for and not link-local.
    private static func numeric(_ address: UnsafeMutablePointer<sockaddr>, ipv6: Bool) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(address.pointee.sa_family) {
        case AF_INET where !ipv6:
            var ip = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            guard inet_ntop(AF_INET, &ip, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        case AF_INET6 where ipv6:
            var ip = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            // fe80::/10, reachable only through a named interface.
            let linkLocal = withUnsafeBytes(of: ip) { $0[0] == 0xFE && $0[1] & 0xC0 == 0x80 }
            guard !linkLocal, inet_ntop(AF_INET6, &ip, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        default:
            return nil
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
