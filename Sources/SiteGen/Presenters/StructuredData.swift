/// JSON-LD for search engines (schema.org), written deterministically and safe to place
/// inside a `<script>` element: `<`, `>` and `&` are escaped, so no value can close it.
enum StructuredData: Sendable, Equatable {
    case text(String)
    case number(Double)
    case list([StructuredData])
    /// Members in the order written.
    case object([(String, StructuredData)])

    /// An object whose optional members are left out when nil.
    static func node(_ type: String, _ members: [(String, StructuredData?)]) -> StructuredData {
        var present: [(String, StructuredData)] = [("@type", .text(type))]
        present.reserveCapacity(members.count + 1)
        for (key, value) in members { if let value { present.append((key, value)) } }
        return .object(present)
    }

    /// The JSON text.
    var json: String {
        var out: [UInt8] = []
        // A review page's is about 1 KB: room for it at once.
        out.reserveCapacity(2048)
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
            out.append(
                contentsOf: (number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number))
                    .utf8)
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
        var text = text
        text.withUTF8 { bytes in
            // Runs of bytes that need no escape are copied at once.
            var plain = 0
            var index = 0
            while index < bytes.count {
                // Eight bytes at a time while none of them may need care.
                if index + 8 <= bytes.count,
                    !ByteChunk.mayNeedScriptEscape(ByteChunk.load(UnsafeRawPointer(bytes.baseAddress!), at: index))
                {
                    index += 8
                    continue
                }
                let byte = bytes[index]
                // Most bytes need no care, which one look-up says (the comparisons below ran
                // for every byte of every page's JSON-LD).
                guard Self.needsCare(byte) else {
                    index += 1
                    continue
                }
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8.
                let separator =
                    byte == 0xE2 && index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] | 1) == 0xA9
                // Control characters, ", \, <, > and &.
                let special =
                    byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x3C || byte == 0x3E || byte == 0x26
                guard separator || special else {
                    index += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain..<index]))
                switch byte {
                case _ where separator: writeEscape(0x2000 | UInt32(bytes[index + 2] - 0x80), to: &out)
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [0x5C, byte]
                case UInt8(ascii: "\n"): out += [0x5C, UInt8(ascii: "n")]
                case UInt8(ascii: "\r"): out += [0x5C, UInt8(ascii: "r")]
                case UInt8(ascii: "\t"): out += [0x5C, UInt8(ascii: "t")]
                default: writeEscape(UInt32(byte), to: &out)
                }
                index += separator ? 3 : 1
                plain = index
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether `byte` may need an escape: a control character, `"`, `\\`, `<`, `>`, `&`, or
    /// the first byte of U+2028 or U+2029 (a bit of one of two 64-bit masks, or that byte).
    @inline(__always)
    private static func needsCare(_ byte: UInt8) -> Bool {
        switch byte >> 6 {
        case 0: (careLow >> UInt64(byte)) & 1 != 0
        case 1: (careHigh >> UInt64(byte & 63)) & 1 != 0
        case 3: byte == 0xE2
        default: false
        }
    }

    /// Bytes 0 to 63 that need care: controls, `"` (34), `&` (38), `<` (60), `>` (62).
    private static let careLow: UInt64 = 0xFFFF_FFFF | 1 << 34 | 1 << 38 | 1 << 60 | 1 << 62
    /// Bytes 64 to 127: `\\` (92).
    private static let careHigh: UInt64 = 1 << (92 - 64)

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `\u` and four hexadecimal digits.
    private static func writeEscape(_ value: UInt32, to out: inout [UInt8]) {
        let hex = hexDigits
        out += [0x5C, UInt8(ascii: "u")]
        out += [hex[Int(value >> 12)], hex[Int(value >> 8) & 0xF], hex[Int(value >> 4) & 0xF], hex[Int(value) & 0xF]]
    }
}
