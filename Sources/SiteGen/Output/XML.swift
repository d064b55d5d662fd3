/// Escaping for XML text and attributes.
enum XML {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as entities, and the characters XML 1.0
    /// does not allow in a document (control characters but tab and line breaks, U+FFFE,
    /// U+FFFF), which would make a feed unreadable, as U+FFFD. Read as UTF-8 bytes: the five
    /// are ASCII, and no byte of a longer character can be mistaken for them.
    static func escape(_ text: String) -> String {
        let utf8 = text.utf8
        // 0xEF starts U+FFFE and U+FFFF (and other characters, which are then looked at).
        let mayChange = { (byte: UInt8) in
            entity(byte) != nil || byte == 0xEF || (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D)
        }
        guard utf8.contains(where: mayChange) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(utf8.count + utf8.count / 8)
        for scalar in text.unicodeScalars {
            if scalar.isASCII, let entity = entity(UInt8(scalar.value)) {
                result.append(contentsOf: entity)
            } else if isAllowed(scalar) {
                UTF8.encode(scalar) { result.append($0) }
            } else {
                result.append(contentsOf: replacement)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Whether XML 1.0 allows `scalar` in a document (its `Char` production).
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0..<0x20, 0xFFFE, 0xFFFF: false
        default: true
        }
    }

    private static let replacement = Array("\u{FFFD}".utf8)
    private static let amp = Array("&amp;".utf8)
    private static let lt = Array("&lt;".utf8)
    private static let gt = Array("&gt;".utf8)
    private static let quot = Array("&quot;".utf8)
    private static let apos = Array("&apos;".utf8)

    private static func entity(_ byte: UInt8) -> [UInt8]? {
        switch byte {
        case UInt8(ascii: "&"): amp
        case UInt8(ascii: "<"): lt
        case UInt8(ascii: ">"): gt
        case UInt8(ascii: "\""): quot
        case UInt8(ascii: "'"): apos
        default: nil
        }
    }
}
