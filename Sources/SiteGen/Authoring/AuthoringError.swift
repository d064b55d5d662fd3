/// Why `sitegen init`, `new` or `theme eject` could not do its work, in words for the user.
public struct AuthoringError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
