/// The words of HTML that cmark wrote: tags become spaces, entities their characters.
enum HTMLText {
    /// The text of `html`, for the search index. Works on UTF-8 bytes: tags and entities are ASCII.
    static func plain(_ html: String) -> String {
        var html = html
        return html.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var at = 0
            while at < bytes.count {
                let byte = bytes[at]
                at += 1
                switch byte {
                case UInt8(ascii: "<"):
                    while at < bytes.count && bytes[at] != UInt8(ascii: ">") { at += 1 }
                    at += 1
                    out.append(UInt8(ascii: " "))
                case UInt8(ascii: "&"):
                    // A name of fewer than 12 bytes, ended by ";", that is a known entity.
                    var end = at
                    while end < bytes.count, end - at < 12, bytes[end] != UInt8(ascii: ";"),
                        bytes[end] != UInt8(ascii: "&"), bytes[end] != UInt8(ascii: "<")
                    {
                        end += 1
                    }
                    if end - at < 12, end < bytes.count, bytes[end] == UInt8(ascii: ";"),
                        let decoded = entity(
                            String(decoding: UnsafeBufferPointer(rebasing: bytes[at..<end]), as: UTF8.self))
                    {
                        out.append(contentsOf: String(decoded).utf8)
                        at = end + 1
                    } else {
                        out.append(byte)
                    }
                default:
                    out.append(byte)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
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
