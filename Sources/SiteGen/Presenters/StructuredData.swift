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
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += [0x5C, 0x22]
            case "\\": out += [0x5C, 0x5C]
            case "\n": out += [0x5C, UInt8(ascii: "n")]
            case "\r": out += [0x5C, UInt8(ascii: "r")]
            case "\t": out += [0x5C, UInt8(ascii: "t")]
            case "<", ">", "&", "\u{00}"..."\u{1F}", "\u{2028}", "\u{2029}":
                let value = Int(scalar.value)
                out += [0x5C, UInt8(ascii: "u")]
                out += [hex[value >> 12], hex[(value >> 8) & 0xF], hex[(value >> 4) & 0xF], hex[value & 0xF]]
            default: UTF8.encode(scalar) { out.append($0) }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
