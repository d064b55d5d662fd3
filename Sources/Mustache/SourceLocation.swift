/// A place in a source file, printed as `path:line:column` (both counted from 1).
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let path: String
    public let line: Int
    public let column: Int

    public init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    public var description: String { "\(path):\(line):\(column)" }

    /// `line:column`, for pointing at another place in the same file.
    public var lineAndColumn: String { "\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
    }

    /// The location of the UTF-8 byte `offset` in `source`; columns count Unicode scalars.
    ///
    /// Only called when an error is reported, so it simply walks the text.
    public init(path: String, source: String, offset: Int) {
        var source = source
        self = source.withUTF8 { SourceLocation(path: path, utf8: $0, offset: offset) }
    }

    /// The location of byte `offset` in UTF-8 `bytes`: a line per newline before it, and a
    /// column per scalar since the last one (a byte that does not continue a sequence
    /// starts a scalar).
    public init(path: String, utf8 bytes: UnsafeBufferPointer<UInt8>, offset: Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(max(0, offset)) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        self.init(path: path, line: line, column: column)
    }
}
