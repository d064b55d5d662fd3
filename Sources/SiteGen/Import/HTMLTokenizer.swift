/// Splits the small HTML of exported reviews into text (entities decoded) and tags. Anything
/// that does not parse as a tag of ``knownTags`` or a comment is text (`a <b` or `<3`, or
/// `<tomato>`), so no character a reviewer typed is lost.
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
        var tokenizer = HTMLTokenizer(scalars: Array(html.unicodeScalars))
        return tokenizer.run()
    }

    /// `text` with character references (`&amp;`, `&#39;`, `&#x2014;`) replaced by their
    /// characters; anything else, such as a lone `&`, stays as it is.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var tokenizer = HTMLTokenizer(scalars: Array(text.unicodeScalars))
        var result = String.UnicodeScalarView()
        while tokenizer.index < tokenizer.scalars.count {
            if let decoded = tokenizer.entity() {
                result.append(contentsOf: decoded.unicodeScalars)
            } else {
                result.append(tokenizer.scalars[tokenizer.index])
                tokenizer.index += 1
            }
        }
        return String(result)
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0

    private init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    private mutating func run() -> [Token] {
        var tokens: [Token] = []
        var text = String.UnicodeScalarView()
        func flush() {
            if !text.isEmpty { tokens.append(.text(String(text))) }
            text = String.UnicodeScalarView()
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<" {
                let start = index
                if skipComment() {
                    continue
                }
                if let tag = tag() {
                    flush()
                    tokens.append(tag)
                    continue
                }
                index = start + 1
                text.append("<")
            } else if scalar == "&", let decoded = entity() {
                text.append(contentsOf: decoded.unicodeScalars)
            } else {
                text.append(scalar)
                index += 1
            }
        }
        flush()
        return tokens
    }

    /// Skips `<!-- … -->` at the current position; false (nothing consumed) when there is none.
    private mutating func skipComment() -> Bool {
        guard matches("<!--") else { return false }
        var probe = index + 4
        while probe + 2 < scalars.count {
            if scalars[probe] == "-" && scalars[probe + 1] == "-" && scalars[probe + 2] == ">" {
                index = probe + 3
                return true
            }
            probe += 1
        }
        return false
    }

    /// A start or end tag at the current position (after it, when found); nil leaves the position alone.
    private mutating func tag() -> Token? {
        let start = index
        index += 1
        let closing = peek() == "/"
        if closing { index += 1 }
        guard let name = name(), Self.knownTags.contains(name) else {
            index = start
            return nil
        }
        var attributes: [String: String] = [:]
        while true {
            skipSpaces()
            guard let next = peek() else {
                index = start
                return nil
            }
            if next == ">" {
                index += 1
                return closing ? .end(name) : .start(name, attributes: attributes)
            }
            if next == "/" && index + 1 < scalars.count && scalars[index + 1] == ">" {
                index += 2
                return closing ? .end(name) : .start(name, attributes: attributes)
            }
            guard let attribute = self.name() else {
                index = start
                return nil
            }
            skipSpaces()
            var value = ""
            if peek() == "=" {
                index += 1
                skipSpaces()
                guard let read = attributeValue() else {
                    index = start
                    return nil
                }
                value = read
            }
            if attributes[attribute] == nil { attributes[attribute] = Self.decodeEntities(value) }
        }
    }

    /// A tag or attribute name (ASCII letters, digits, `-`, `_`, `:`), lowercased.
    private mutating func name() -> String? {
        var name = ""
        while let scalar = peek(), scalar.isASCII,
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_:".unicodeScalars.contains(scalar)
        {
            name.unicodeScalars.append(scalar)
            index += 1
        }
        return name.isEmpty ? nil : name.lowercased()
    }

    private mutating func attributeValue() -> String? {
        guard let first = peek() else { return nil }
        var value = String.UnicodeScalarView()
        if first == "\"" || first == "'" {
            index += 1
            while let scalar = peek(), scalar != first {
                value.append(scalar)
                index += 1
            }
            guard peek() == first else { return nil }
            index += 1
            return String(value)
        }
        while let scalar = peek(), !scalar.properties.isWhitespace, scalar != ">" {
            value.append(scalar)
            index += 1
        }
        return value.isEmpty ? nil : String(value)
    }

    /// A character reference at the current position (after it, when found).
    private mutating func entity() -> String? {
        var probe = index + 1
        var body = ""
        while probe < scalars.count, probe - index <= 32, scalars[probe] != ";" {
            let scalar = scalars[probe]
            guard scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "#"
            else { return nil }
            body.unicodeScalars.append(scalar)
            probe += 1
        }
        guard probe < scalars.count, scalars[probe] == ";", !body.isEmpty else { return nil }
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

    private func peek() -> Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func matches(_ text: String) -> Bool {
        let wanted = Array(text.unicodeScalars)
        return index + wanted.count <= scalars.count && Array(scalars[index..<index + wanted.count]) == wanted
    }

    private mutating func skipSpaces() {
        while let scalar = peek(), scalar.properties.isWhitespace { index += 1 }
    }
}
