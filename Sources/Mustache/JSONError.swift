/// A problem in JSON data, at its place in the file.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    public let location: SourceLocation
    /// What is wrong, without the location.
    public let message: String

    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    public var description: String { "\(location): \(message)" }
}
