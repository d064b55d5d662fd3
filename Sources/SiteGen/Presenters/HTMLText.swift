/// The words of HTML that cmark wrote: tags become spaces, entities their characters.
enum HTMLText {
    /// The text of `html`, for the search index. Works on UTF-8 bytes: tags and entities are ASCII.
    static func plain(_ html: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(html.utf8.count)
        var bytes = html.utf8[...]
        while let byte = bytes.popFirst() {
            switch byte {
            case UInt8(ascii: "<"):
                while let next = bytes.popFirst(), next != UInt8(ascii: ">") {}
                out.append(UInt8(ascii: " "))
            case UInt8(ascii: "&"):
                let name = bytes.prefix(12).prefix {
                    $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: "&") && $0 != UInt8(ascii: "<")
                }
                if name.count < 12, bytes.dropFirst(name.count).first == UInt8(ascii: ";"),
                    let decoded = entity(String(decoding: name, as: UTF8.self))
                {
                    out.append(contentsOf: String(decoded).utf8)
                    bytes = bytes.dropFirst(name.count + 1)
                } else {
                    out.append(byte)
                }
            default:
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
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
