/// Why a server could not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    case badPort(Int)
    /// The host is neither an IP address nor a name that resolves.
    case unknownHost(String, reason: String)
    /// The host is an address, or resolves to addresses, that this machine does not have.
    case notLocal(host: String, port: Int)
    case portInUse(host: String, port: Int)
    case permissionDenied(host: String, port: Int)
    case cannotBind(host: String, port: Int, reason: String)
    case cannotStart(String)

    public var description: String {
        switch self {
        case .badPort(let port): "port \(port) is not a port number (0 to 65535)"
        case .unknownHost(let host, let reason):
            "cannot listen on \"\(host)\": it is neither an IP address nor a name this machine can resolve (\(reason))"
        case .notLocal(let host, let port):
            "cannot listen on \(host) port \(port): that is not an address of this machine;"
                + " use 127.0.0.1 (this machine only) or 0.0.0.0 (every network interface)"
        case .portInUse(let host, let port):
            "port \(port) on \(host) is already in use: pick another with --port, or --port 0 for any free one"
        case .permissionDenied(let host, let port):
            "cannot listen on \(host) port \(port): permission denied (ports below 1024 need root)"
        case .cannotBind(let host, let port, let reason): "cannot listen on \(host) port \(port): \(reason)"
        case .cannotStart(let reason): "cannot start the HTTP server: \(reason)"
        }
    }
}
