/// Character references in the HTML that cmark wrote, as the search index reads them.
enum HTMLText {
    /// The character reference whose name starts at `start` (just after its `&`) and where
    /// the text goes on after its `;`: a name of fewer than 12 bytes, none of them `;`, `&`
    /// or `<`, that is a known entity; nil for anything else (the `&` is then plain text).
    static func entity(in bytes: UnsafeBufferPointer<UInt8>, after start: Int) -> (Unicode.Scalar, next: Int)? {
        var end = start
        while end < bytes.count, end - start < 12, bytes[end] != UInt8(ascii: ";"),
            bytes[end] != UInt8(ascii: "&"), bytes[end] != UInt8(ascii: "<")
        {
            end += 1
        }
        guard end - start < 12, end < bytes.count, bytes[end] == UInt8(ascii: ";"),
            let decoded = entity(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        else { return nil }
        return (decoded, end + 1)
    }

    private static func entity(_ name: String) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return " "
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value =
                digits.first == "x" || digits.first == "X"
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init)
        }
    }
}
