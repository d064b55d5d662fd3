/// Splits template source into lines of tokens, following set-delimiter tags.
///
/// Lines come one at a time, and each byte is scanned once for the next opening
/// delimiter, so tokenizing is linear in the size of the source.
struct Tokenizer {
    /// The longest delimiter a set-delimiter tag may choose: searching for one costs up to
    /// its length per byte of source.
    static let delimiterLimit = 32

    let bytes: [UInt8]
    let source: TemplateSource
    private var open: [UInt8] = Array("{{".utf8)
    private var close: [UInt8] = Array("}}".utf8)
    private var position = 0
    /// Where the next opening delimiter starts (`bytes.count` when there is none), once found.
    private var nextTag: Int?

    init(bytes: [UInt8], source: TemplateSource) {
        self.bytes = bytes
        self.source = source
    }

    /// The next line of the template, ending after a newline or at the end of the source;
    /// `nil` after the last one.
    mutating func nextLine() throws(TemplateError) -> [Token]? {
        var line: [Token] = []
        while position < bytes.count {
            let tagStart = nextTag ?? find(open, from: position) ?? bytes.count
            nextTag = tagStart
            if let newline = firstNewline(from: position, to: tagStart) {
                line.append(Token(kind: .text, start: position, end: newline + 1, content: ""))
                position = newline + 1
                return line
            }
            if position < tagStart {
                line.append(Token(kind: .text, start: position, end: tagStart, content: ""))
                position = tagStart
            }
            if tagStart == bytes.count { break }
            let tag = try scanTag(at: tagStart)
            line.append(tag)
            position = tag.end
            nextTag = nil
        }
        return line.isEmpty ? nil : line
    }
}

private extension Tokenizer {
    func firstNewline(from start: Int, to end: Int) -> Int? {
        var index = start
        while index < end {
            if bytes[index] == UInt8(ascii: "\n") { return index }
            index += 1
        }
        return nil
    }

    mutating func scanTag(at tagStart: Int) throws(TemplateError) -> Token {
        let afterOpen = tagStart + open.count
        let sigil = afterOpen < bytes.count ? bytes[afterOpen] : 0
        let kind = Self.kind(of: sigil)
        let contentStart = kind == .variable ? afterOpen : afterOpen + 1
        var terminator = close
        if sigil == UInt8(ascii: "{") { terminator = [UInt8(ascii: "}")] + close }
        if sigil == UInt8(ascii: "=") { terminator = [UInt8(ascii: "=")] + close }
        guard let contentEnd = find(terminator, from: contentStart) else {
            throw TemplateError(
                .unclosedTag(delimiter: String(decoding: terminator, as: UTF8.self)),
                at: source.location(at: tagStart))
        }
        let content = trimmed(contentStart, contentEnd)
        let token = Token(kind: kind, start: tagStart, end: contentEnd + terminator.count, content: content)
        if kind == .delimiters {
            try setDelimiters(content, at: tagStart)
        } else if content.isEmpty && kind != .comment {
            throw TemplateError(.emptyTag, at: source.location(at: tagStart))
        }
        return token
    }

    mutating func setDelimiters(_ content: String, at offset: Int) throws(TemplateError) {
        let parts = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard parts.count == 2, !parts.contains(where: { $0.contains("=") }) else {
            throw TemplateError(.invalidDelimiters(content), at: source.location(at: offset))
        }
        guard parts.allSatisfy({ $0.utf8.count <= Self.delimiterLimit }) else {
            throw TemplateError(.longDelimiters(limit: Self.delimiterLimit), at: source.location(at: offset))
        }
        open = Array(parts[0].utf8)
        close = Array(parts[1].utf8)
    }

    static func kind(of sigil: UInt8) -> Token.Kind {
        switch sigil {
        case UInt8(ascii: "#"): .section
        case UInt8(ascii: "^"): .inverted
        case UInt8(ascii: "/"): .close
        case UInt8(ascii: "!"): .comment
        case UInt8(ascii: ">"): .partial
        case UInt8(ascii: "<"): .parent
        case UInt8(ascii: "$"): .block
        case UInt8(ascii: "="): .delimiters
        case UInt8(ascii: "&"), UInt8(ascii: "{"): .unescaped
        default: .variable
        }
    }

    func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var index = start
        let last = bytes.count - needle.count
        while index <= last {
            if bytes[index] == first {
                var matched = true
                for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }

    func trimmed(_ start: Int, _ end: Int) -> String {
        var lower = start
        var upper = end
        while lower < upper, bytes[lower].isBlank { lower += 1 }
        while upper > lower, bytes[upper - 1].isBlank { upper -= 1 }
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }
}
