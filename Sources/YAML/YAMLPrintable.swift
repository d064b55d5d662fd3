/// YAML's printable characters, the only ones a document may hold, whether written as they
/// are or as escapes: everything but the C0 controls (tab, line feed and carriage return
/// allowed), DEL, the C1 controls (next line, U+0085, allowed), U+FFFE and U+FFFF.
public enum YAMLPrintable {
    public static func allows(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x85: true
        case 0..<0x20, 0x7F...0x9F, 0xFFFE, 0xFFFF: false
        default: true
        }
    }

    /// The first character of `text` YAML does not allow, or nil.
    static func firstRefused(in text: String) -> Unicode.Scalar? {
        // Only text with a byte that can start one is looked at as characters.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xEF }) else { return nil }
        return text.unicodeScalars.first { !allows($0) }
    }

    /// `text` without the characters YAML does not allow.
    static func removingRefused(from text: String) -> String {
        guard firstRefused(in: text) != nil else { return text }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.lazy.filter(allows))
        return String(kept)
    }

    /// `U+0001` for `scalar`.
    static func name(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
