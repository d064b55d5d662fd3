/// A YAML syntax or structure error, at a position in the YAML text.
public struct YAMLError: Error, Sendable, Equatable {
    public let message: String
    public let position: TextPosition

    public init(message: String, position: TextPosition) {
        self.message = message
        self.position = position
    }
}
