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
        var out = ""
        write(to: &out)
        return out
    }

    static func == (lhs: StructuredData, rhs: StructuredData) -> Bool {
        lhs.json == rhs.json
    }

    private func write(to out: inout String) {
        switch self {
        case .text(let text):
            out += "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "<": out += "\\u003c"
                case ">": out += "\\u003e"
                case "&": out += "\\u0026"
                case "\u{2028}": out += "\\u2028"
                case "\u{2029}": out += "\\u2029"
                default:
                    if scalar.value < 0x20 {
                        let hex = String(scalar.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            out += "\""
        case .number(let number):
            out += number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .list(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                StructuredData.text(key).write(to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }
}
