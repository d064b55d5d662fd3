/// JSON-LD written straight into bytes, member by member, deterministically and safe to place
/// inside a `<script>` element: `<`, `>` and `&` are escaped, so no value can close it.
///
/// Review and section pages write theirs with it: made as a tree of ``StructuredData`` values
/// first, every page's JSON-LD cost an array for each object and list, and a copy of each
/// string, before a byte was written.
struct JSONLDWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the object or list being written has nothing in it yet (no comma before the next).
    private var isFirst = true

    /// A writer with room for `capacity` bytes (a review page's JSON-LD is about 1 KB).
    init(capacity: Int = 2048) {
        bytes.reserveCapacity(capacity)
    }

    /// The JSON text.
    var json: String { String(decoding: bytes, as: UTF8.self) }

    /// A page's JSON-LD: schema.org's context, and a graph of what `body` writes followed by
    /// the page's place in the site, `crumbs` (name, absolute URL) from the home page down.
    static func page(crumbs: [(String, String)], _ body: (inout JSONLDWriter) -> Void) -> String {
        var json = JSONLDWriter()
        json.object { json in
            json.member("@context", "https://schema.org")
            json.member(
                "@graph",
                list: { graph in
                    body(&graph)
                    graph.object(type: "BreadcrumbList") { node in
                        node.member(
                            "itemListElement",
                            list: { list in
                                for (position, crumb) in crumbs.enumerated() {
                                    list.object(type: "ListItem") { item in
                                        item.member("position", number: Double(position + 1))
                                        item.member("name", crumb.0)
                                        item.member("item", crumb.1)
                                    }
                                }
                            })
                    }
                })
        }
        return json.json
    }

    /// An object, its `@type` first when given, its members written by `body`.
    mutating func object(type: String? = nil, _ body: (inout JSONLDWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        isFirst = true
        if let type { member("@type", type) }
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        isFirst = false
    }

    /// A list, its items written by `body`.
    mutating func list(_ body: (inout JSONLDWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        isFirst = true
        body(&self)
        bytes.append(UInt8(ascii: "]"))
        isFirst = false
    }

    /// A string.
    mutating func text(_ value: String) {
        separate()
        writeString(value)
        isFirst = false
    }

    /// A number, whole when it can be.
    mutating func number(_ value: Double) {
        separate()
        bytes.append(
            contentsOf: (value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)).utf8)
        isFirst = false
    }

    /// The key of the member whose value comes next.
    mutating func key(_ name: String) {
        separate()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        isFirst = true
    }

    /// A member holding a string; none when `value` is nil.
    mutating func member(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        text(value)
    }

    /// A member holding a number; none when `value` is nil.
    mutating func member(_ name: String, number value: Double?) {
        guard let value else { return }
        key(name)
        number(value)
    }

    /// A member holding an object of `type`, its members written by `body`.
    mutating func member(_ name: String, type: String, _ body: (inout JSONLDWriter) -> Void) {
        key(name)
        object(type: type, body)
    }

    /// A member holding a list, its items written by `body`.
    mutating func member(_ name: String, list body: (inout JSONLDWriter) -> Void) {
        key(name)
        list(body)
    }

    private mutating func separate() {
        if !isFirst { bytes.append(UInt8(ascii: ",")) }
    }

    /// A JSON string: quotes, backslashes and control characters escaped, and `<`, `>`, `&`,
    /// U+2028 and U+2029 as `\u` escapes (so nothing can close a script element or a line).
    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { source in
            // Runs of bytes that need no escape are copied at once.
            var plain = 0
            var index = 0
            while index < source.count {
                // Eight bytes at a time while none of them may need care.
                if index + 8 <= source.count,
                    !ByteChunk.mayNeedScriptEscape(ByteChunk.load(UnsafeRawPointer(source.baseAddress!), at: index))
                {
                    index += 8
                    continue
                }
                let byte = source[index]
                // Most bytes need no care, which one look-up says (the comparisons below ran
                // for every byte of every page's JSON-LD).
                guard Self.needsCare(byte) else {
                    index += 1
                    continue
                }
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8; any other byte that
                // needs care (a control character, ", \, <, > or &) is escaped.
                let separator =
                    byte == 0xE2 && index + 2 < source.count && source[index + 1] == 0x80
                    && (source[index + 2] | 1) == 0xA9
                guard separator || byte != 0xE2 else {
                    index += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[plain..<index]))
                switch byte {
                case _ where separator: writeEscape(0x2000 | UInt32(source[index + 2] - 0x80))
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [0x5C, byte]
                case UInt8(ascii: "\n"): bytes += [0x5C, UInt8(ascii: "n")]
                case UInt8(ascii: "\r"): bytes += [0x5C, UInt8(ascii: "r")]
                case UInt8(ascii: "\t"): bytes += [0x5C, UInt8(ascii: "t")]
                default: writeEscape(UInt32(byte))
                }
                index += separator ? 3 : 1
                plain = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[plain..<source.count]))
        }
        bytes.append(UInt8(ascii: "\""))
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
    private mutating func writeEscape(_ value: UInt32) {
        let hex = Self.hexDigits
        bytes += [0x5C, UInt8(ascii: "u")]
        bytes += [hex[Int(value >> 12)], hex[Int(value >> 8) & 0xF], hex[Int(value >> 4) & 0xF], hex[Int(value) & 0xF]]
    }
}
