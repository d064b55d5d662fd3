/// Escaping for XML text and attributes.
enum XML {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as entities, and the characters XML 1.0
    /// does not allow in a document (control characters but tab and line breaks, U+FFFE,
    /// U+FFFF), which would make a feed unreadable, as U+FFFD. Read as UTF-8 bytes: the five
    /// are ASCII, and no byte of a longer character can be mistaken for them.
    static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8(escaped) ?? text
    }

    /// `bytes` escaped, or nil when nothing in them changes (most text but HTML). A first
    /// pass adds up how much longer the result is (without a branch per byte: HTML has a
    /// byte to escape every few dozen); the second copies the bytes that stay as they are.
    private static func escaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        growth.withUnsafeBufferPointer { growth in
            var extra = 0
            var leads = 0
            for byte in bytes {
                extra &+= Int(growth[Int(byte)])
                leads &+= byte == 0xEF ? 1 : 0
            }
            let forbidden = leads > 0 && bytes.indices.contains { bytes[$0] == 0xEF && isForbidden(bytes, $0) }
            guard extra > 0 || forbidden else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count + extra) { out in
                var written = 0
                var at = 0
                while at < bytes.count {
                    let byte = bytes[at]
                    // A 0xEF that starts any other character is copied, like other bytes.
                    if growth[Int(byte)] == 0 && (byte != 0xEF || !isForbidden(bytes, at)) {
                        out[written] = byte
                        written += 1
                        at += 1
                        continue
                    }
                    let (packed, count) = replaced(byte)
                    for index in 0..<count { out[written + index] = UInt8(truncatingIfNeeded: packed >> (index * 8)) }
                    written += count
                    at += byte == 0xEF ? 3 : 1
                }
                return written
            }
        }
    }

    /// How many bytes longer each byte gets: an entity's length less one for the five, two
    /// for a control character XML forbids (U+FFFD is three bytes), none for the rest.
    private static let growth: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case 0x09, 0x0A, 0x0D: 0
        case 0..<0x20: 2
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"):
            UInt8(replaced(UInt8(byte)).count - 1)
        default: 0
        }
    }

    /// Whether the 0xEF at `at` starts U+FFFE (EF BF BE) or U+FFFF (EF BF BF); the text is
    /// valid UTF-8, so the two bytes after it are there.
    @inline(__always)
    private static func isForbidden(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> Bool {
        bytes[at + 1] == 0xBF && (bytes[at + 2] == 0xBE || bytes[at + 2] == 0xBF)
    }

    /// What a byte to escape is written as: its entity, or U+FFFD for a character XML
    /// forbids, as UTF-8 bytes packed first byte lowest, and how many.
    @inline(__always)
    private static func replaced(_ byte: UInt8) -> (packed: UInt64, count: Int) {
        switch byte {
        case UInt8(ascii: "&"): (0x3B_70_6D_61_26, 5)  // &amp;
        case UInt8(ascii: "<"): (0x3B_74_6C_26, 4)  // &lt;
        case UInt8(ascii: ">"): (0x3B_74_67_26, 4)  // &gt;
        case UInt8(ascii: "\""): (0x3B_74_6F_75_71_26, 6)  // &quot;
        case UInt8(ascii: "'"): (0x3B_73_6F_70_61_26, 6)  // &apos;
        default: (0xBD_BF_EF, 3)  // U+FFFD
        }
    }
}
