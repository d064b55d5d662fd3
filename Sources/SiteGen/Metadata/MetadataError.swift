/// Why a film or book could not be fetched.
public enum MetadataError: Error, Sendable, Equatable, CustomStringConvertible {
    case badConfiguration(String)
    case missingCredentials(String)
    case notFound(String)
    case http(status: Int, url: String)
    case timedOut(url: String)
    case network(String)
    case malformed(String)
    /// The cache could not take what arrived (a full disk, a folder in the way).
    case cacheWrite(String)
    /// The entry already cached cannot be read (or names a missing image), and is left as it
    /// is: it may hold edits by hand, which only `--refresh` replaces.
    case unreadableEntry(Diagnostic)

    /// The message, with any control character in it (a server's text can reach it: a path or
    /// key an answer gave) written as an escape, so it cannot steer a terminal.
    public var description: String {
        Diagnostic.shown(message)
    }
}

private extension MetadataError {
    var message: String {
        switch self {
        case .badConfiguration(let message): message
        case .missingCredentials(let message): message
        case .notFound(let what): "not found: \(what)"
        case .http(let status, let url): "HTTP \(status) from \(url)"
        case .timedOut(let url): "timed out: \(url)"
        case .network(let message): "network error: \(message)"
        case .malformed(let message): "unexpected response: \(message)"
        case .cacheWrite(let message): "cannot store it: \(message)"
        case .unreadableEntry(let problem): "\(problem) (left as it is: fix it, or fetch it again with --refresh)"
        }
    }
}
