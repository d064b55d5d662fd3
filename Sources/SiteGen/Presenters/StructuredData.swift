/// JSON-LD for search engines (schema.org), written deterministically and safe to place
/// inside a `<script>` element: `<`, `>` and `&` are escaped, so no value can close it.
indirect enum StructuredData: Sendable, Equatable {
    case text(String)
    case number(Double)
    case list([StructuredData])
    /// Members in the order written.
    case object([(String, StructuredData)])

    /// An object whose optional members are left out when nil.
    static func node(_ type: String, _ members: [(String, StructuredData?)]) -> StructuredData {
        .object([("@type", .text(type))] + members.compactMap { key, value in value.map { (key, $0) } })
    }

    /// The JSON text.
    var json: String {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func == (lhs: StructuredData, rhs: StructuredData) -> Bool {
        lhs.json == rhs.json
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .text(let text):
            Self.writeString(text, to: &out)
        case .number(let number):
            out += Array((number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)).utf8)
        case .list(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped, and `<`, `>`, `&`,
    /// U+2028 and U+2029 as `\u` escapes (so nothing can close a script element or a line).
    private static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let hex = Array("0123456789abcdef".utf8)
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.first {
            bytes = bytes.dropFirst()
            switch byte {
            case UInt8(ascii: "\""): out += [0x5C, 0x22]
            case UInt8(ascii: "\\"): out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), 0x00..<0x20:
                out += [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            case 0xE2 where bytes.count >= 2 && bytes.first == 0x80 && (bytes.dropFirst().first == 0xA8 || bytes.dropFirst().first == 0xA9):
                // U+2028 and U+2029.
                let last = bytes.dropFirst().first!
                bytes = bytes.dropFirst(2)
                out += Array("\\u202".utf8) + [last == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9")]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
