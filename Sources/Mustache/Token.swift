/// A piece of template source: text (at most one line, its newline included) or a tag.
struct Token {
    enum Kind: Equatable {
        case text
        case variable
        case unescaped
        case section
        case inverted
        case close
        case comment
        case partial
        case parent
        case block
        case delimiters
    }

    let kind: Kind
    /// Byte range in the source.
    let start: Int
    let end: Int
    /// The tag's name with its sigil and padding removed; empty for text.
    let content: String

    /// Text that holds only spaces, tabs and line endings.
    func isBlank(in bytes: [UInt8]) -> Bool {
        guard kind == .text else { return false }
        for index in start..<end where !bytes[index].isBlank { return false }
        return true
    }

    func endsLine(in bytes: [UInt8]) -> Bool {
        kind == .text && end > start && bytes[end - 1] == UInt8(ascii: "\n")
    }

    /// Tags that may stand alone on a line and take the whole line with them.
    var canStandAlone: Bool {
        switch self.kind {
        case .text, .variable, .unescaped: false
        default: true
        }
    }
}

extension UInt8 {
    /// Space, tab, carriage return or line feed.
    var isBlank: Bool {
        self == 0x20 || self == 0x09 || self == 0x0D || self == 0x0A
    }

    /// Space or tab: what indentation is made of.
    var isIndentation: Bool {
        self == 0x20 || self == 0x09
    }
}
