/// Splits the small HTML of exported reviews into text (entities decoded) and tags. Anything
/// that does not parse as a tag of ``knownTags`` or a comment is text (`a <b` or `<3`, or
/// `<tomato>`), so no character a reviewer typed is lost. Works on UTF-8 bytes: the markup is
/// ASCII, and text passes through whole.
///
/// A `<` that starts no tag or comment is read again as text from the next byte, so what a
/// failed read looked for is remembered: otherwise `<!--` or `<a x=<a x=` repeated would be
/// read to the end once for each `<`, in time quadratic in the text.
struct HTMLTokenizer {
    /// The elements read as tags.
    static let knownTags: Set<String> = [
        "a", "abbr", "b", "big", "blockquote", "br", "center", "cite", "code", "dd", "del", "div", "dl", "dt", "em",
        "font", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "li", "mark", "ol", "p", "pre", "q", "s",
        "script", "small", "span", "spoiler", "strike", "strong", "style", "sub", "sup", "table", "tbody", "td",
        "th", "thead", "tr", "u", "ul",
    ]

    enum Token: Equatable {
        case text(String)
        /// A start tag, its name lowercased, with its attributes (names lowercased, values decoded).
        case start(String, attributes: [String: String])
        case end(String)
    }

    /// The tokens of `html`.
    static func tokens(_ html: String) -> [Token] {
        var tokenizer = HTMLTokenizer(bytes: Array(html.utf8))
        return tokenizer.run()
    }

    /// `text` with character references (`&amp;`, `&#39;`, `&#x2014;`) replaced by their
    /// characters; anything else, such as a lone `&`, stays as it is.
    static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var tokenizer = HTMLTokenizer(bytes: Array(text.utf8))
        var result: [UInt8] = []
        while tokenizer.index < tokenizer.bytes.count {
            if tokenizer.bytes[tokenizer.index] == UInt8(ascii: "&"), let decoded = tokenizer.entity() {
                result += decoded.utf8
            } else {
                result.append(tokenizer.bytes[tokenizer.index])
                tokenizer.index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private let bytes: [UInt8]
    private var index = 0
    /// No `-->` starts at or after this offset: a search from it found none.
    private var noCommentEndFrom = Int.max
    /// For a quote byte (`"`, `'`), an offset at or after which there is none.
    private var noQuoteFrom: [UInt8: Int] = [:]
    /// Offsets at which a tag's attributes were read and did not end in `>`. What is read from
    /// an offset depends on nothing before it, so a later tag that gets there fails there.
    private var attributesFailAt: Set<Int> = []

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func run() -> [Token] {
        var tokens: [Token] = []
        var text: [UInt8] = []
        func flush() {
            if !text.isEmpty { tokens.append(.text(String(decoding: text, as: UTF8.self))) }
            text.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                if skipComment() { continue }
                let start = index
                if let tag = tag() {
                    flush()
                    tokens.append(tag)
                    continue
                }
                index = start + 1
                text.append(byte)
            } else if byte == UInt8(ascii: "&"), let decoded = entity() {
                text += decoded.utf8
            } else {
                text.append(byte)
                index += 1
            }
        }
        flush()
        return tokens
    }

    /// Skips `<!-- … -->` at the current position; false (nothing consumed) when there is none.
    private mutating func skipComment() -> Bool {
        guard bytes[index...].starts(with: "<!--".utf8), index + 4 < noCommentEndFrom else { return false }
        var probe = index + 4
        while probe + 2 < bytes.count {
            if bytes[probe] == UInt8(ascii: "-") && bytes[probe + 1] == UInt8(ascii: "-")
                && bytes[probe + 2] == UInt8(ascii: ">")
            {
                index = probe + 3
                return true
            }
            probe += 1
        }
        noCommentEndFrom = index + 4
        return false
    }

    /// A known start or end tag at the current position (after it, when found); nil leaves
    /// the position alone.
    private mutating func tag() -> Token? {
        let start = index
        index += 1
        let closing = peek() == UInt8(ascii: "/")
        if closing { index += 1 }
        guard let name = name(), Self.knownTags.contains(name), let attributes = attributes() else {
            index = start
            return nil
        }
        return closing ? .end(name) : .start(name, attributes: attributes)
    }

    /// The attributes of a tag, from after its name to its `>` or `/>` (after it, when found);
    /// nil, leaving the position wherever reading stopped, when they do not end so.
    private mutating func attributes() -> [String: String]? {
        var attributes: [String: String] = [:]
        var visited: [Int] = []
        while true {
            guard !attributesFailAt.contains(index) else { break }
            visited.append(index)
            skipSpaces()
            guard let next = peek() else { break }
            if next == UInt8(ascii: ">") {
                index += 1
                return attributes
            }
            if next == UInt8(ascii: "/") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: ">") {
                index += 2
                return attributes
            }
            guard let attribute = self.name() else { break }
            skipSpaces()
            var value = ""
            if peek() == UInt8(ascii: "=") {
                index += 1
                skipSpaces()
                guard let read = attributeValue() else { break }
                value = read
            }
            if attributes[attribute] == nil { attributes[attribute] = Self.decodeEntities(value) }
        }
        attributesFailAt.formUnion(visited)
        return nil
    }

    /// A tag or attribute name (ASCII letters, digits, `-`, `_`, `:`), lowercased.
    private mutating func name() -> String? {
        let start = index
        while let byte = peek(),
            byte.isASCIIAlphanumeric || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ":")
        {
            index += 1
        }
        guard index > start else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
    }

    private mutating func attributeValue() -> String? {
        guard let first = peek() else { return nil }
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            let start = index + 1
            guard start < noQuoteFrom[first, default: Int.max], let end = bytes[start...].firstIndex(of: first) else {
                noQuoteFrom[first] = min(start, noQuoteFrom[first, default: Int.max])
                return nil
            }
            index = end + 1
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
        let start = index
        while let byte = peek(), !byte.isASCIISpace, byte != UInt8(ascii: ">") { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// A character reference at the current position, an `&` (after it, when found).
    private mutating func entity() -> String? {
        var probe = index + 1
        while probe < bytes.count, probe - index <= 32,
            bytes[probe].isASCIIAlphanumeric || bytes[probe] == UInt8(ascii: "#")
        {
            probe += 1
        }
        guard probe < bytes.count, bytes[probe] == UInt8(ascii: ";"), probe > index + 1 else { return nil }
        let body = String(decoding: bytes[(index + 1)..<probe], as: UTF8.self)
        let decoded: String?
        if body.hasPrefix("#x") || body.hasPrefix("#X") {
            decoded = UInt32(body.dropFirst(2), radix: 16).map(Self.character)
        } else if body.hasPrefix("#") {
            decoded = UInt32(body.dropFirst()).map(Self.character)
        } else {
            decoded = HTMLEntities.named[body]
        }
        guard let decoded else { return nil }
        index = probe + 1
        return decoded
    }

    /// The character of a numeric reference; U+FFFD for NUL, surrogates and numbers past Unicode.
    private static func character(_ value: UInt32) -> String {
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return String(Character(scalar))
    }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpaces() {
        while let byte = peek(), byte.isASCIISpace { index += 1 }
    }
}
