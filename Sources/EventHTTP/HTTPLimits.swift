/// How much the server accepts from a client, and for how long it waits.
public struct HTTPLimits: Sendable, Equatable {
    /// The request line and headers together, in bytes; evhttp answers a longer request with 413.
    public var headerBytes: Int
    /// A request body, in bytes; evhttp answers a longer body with 413.
    public var bodyBytes: Int
    /// Seconds a connection may go without reading or writing anything before it is closed.
    public var idleSeconds: Int
    /// Seconds a client has to send a whole request, from connecting or from its last answer;
    /// then the connection is closed. Without it, a client sending a byte now and then would
    /// keep its connection forever (each byte restarts ``idleSeconds``).
    public var requestSeconds: Double

    public init(
        headerBytes: Int = 64 * 1024, bodyBytes: Int = 64 * 1024, idleSeconds: Int = 60, requestSeconds: Double = 30
    ) {
        self.headerBytes = headerBytes
        self.bodyBytes = bodyBytes
        self.idleSeconds = idleSeconds
        self.requestSeconds = requestSeconds
    }

    /// How often the server checks ``requestSeconds`` (and resumes accepting after running out of files).
    var tick: Double { min(1, max(0.05, requestSeconds / 4)) }
}
