/// A line and column in a text, both counted from 1; columns count characters (Unicode scalars).
public struct TextPosition: Sendable, Equatable, Hashable {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
