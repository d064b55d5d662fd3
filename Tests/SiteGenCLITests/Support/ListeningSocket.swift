import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP socket listening on a loopback port: to hold a port so that another server cannot
/// have it, or to check that a port was freed. Closed at the end of the test.
struct ListeningSocket: ~Copyable {
    let port: Int
    private let descriptor: Int32

    /// Binds `127.0.0.1:port` (0: any free port) and listens; throws when the port is taken.
    init(port: Int = 0) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BindError(port: port, code: errno) }
        // As servers do (evhttp too): connections the old server closed may linger in TIME_WAIT.
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let code = errno
            close(descriptor)
            throw BindError(port: port, code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(descriptor)
    }

    struct BindError: Error, CustomStringConvertible {
        let port: Int
        let code: Int32
        var description: String { "cannot listen on port \(port): \(String(cString: strerror(code)))" }
    }
}
