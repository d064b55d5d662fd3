/// Escaping for XML text and attributes.
enum XML {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as entities. Read as UTF-8 bytes: the five
    /// are ASCII, and no byte of a longer character can be mistaken for them.
    static func escape(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { entity($0) != nil }) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(utf8.count + utf8.count / 8)
        for byte in utf8 {
            if let entity = entity(byte) {
                result.append(contentsOf: entity)
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

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
