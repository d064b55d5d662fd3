import Foundation

/// A browser's side of the preview server's Server-Sent Events, over a plain socket:
/// opens `/__sitegen/events` and hands back the name of each event as it arrives.
final class EventStreamClient {
    let connection: RawConnection
    /// How many events ``next(timeout:)`` has handed back.
    private var taken = 0

    /// Connects and waits for the server's first comment, so the subscription is in place.
    init(port: Int) throws {
        connection = try RawConnection(port: port)
        try connection.sendRequest("GET", "/__sitegen/events", keepAlive: true)
        let connected = Array(": connected\n\n".utf8)
        guard try connection.receive(until: { $0.contains(connected) }, timeout: 5) else {
            throw Unanswered(received: String(decoding: connection.received, as: UTF8.self))
        }
    }

    /// The response head (status line and headers) as sent.
    var head: String {
        let text = String(decoding: connection.received, as: UTF8.self)
        return text.components(separatedBy: "\r\n\r\n")[0]
    }

    /// The names of every event received so far.
    var events: [String] { Self.events(in: connection.received) }

    /// The next event's name, or nil when none comes within `timeout` seconds.
    func next(timeout: Double = 5) throws -> String? {
        let wanted = taken + 1
        guard try connection.receive(until: { Self.events(in: $0).count >= wanted }, timeout: timeout) else {
            return nil
        }
        taken = wanted
        return events[wanted - 1]
    }

    /// Waits up to `timeout` seconds for the server to close the stream.
    func waitForClose(timeout: Double) throws -> Bool {
        _ = try connection.receive(until: { _ in false }, timeout: timeout)
        return connection.isClosed
    }

    /// Each `event: name` / `data: name` block (chunk framing around them is ignored).
    static func events(in bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).matches(of: /event: ([a-z]+)\ndata: ([a-z]+)\n\n/).map {
            String($0.output.1)
        }
    }

    struct Unanswered: Error {
        let received: String
    }
}
