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
        var bytes = utf8.makeIterator()
        // U+FFFE and U+FFFF are EF BF BE and EF BF BF; a byte after an EF is held back until
        // the next shows which it is.
        var held: [UInt8] = []
        while let byte = bytes.next() {
            if !held.isEmpty {
                held.append(byte)
                if held.count == 2 && byte == 0xBF { continue }
                if held.count == 3 && (byte == 0xBE || byte == 0xBF) {
                    result.append(contentsOf: replacement)
                } else {
                    result.append(contentsOf: held)
                }
                held.removeAll(keepingCapacity: true)
            } else if byte == 0xEF {
                held.append(byte)
            } else if let entity = entity(byte) {
                result.append(contentsOf: entity)
            } else if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                result.append(contentsOf: replacement)
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
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
