/// A request as the handler sees it.
public struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `HEAD`, `POST`… (only methods evhttp knows reach a handler: it answers others with 501).
    public let method: String
    /// The request target as sent, such as `/movies/?page=2`.
    public let target: String
    /// Header names lowercased; a header sent more than once has its values joined with `, `.
    public let headers: [String: String]

    public init(method: String, target: String, headers: [String: String]) {
        self.method = method
        self.target = target
        self.headers = headers
    }
}
