/// The `If-None-Match` request header (RFC 9110, section 13.1.2): `*`, or a list of entity
/// tags compared weakly, so that `W/"x"` and `"x"` both match `"x"`.
enum IfNoneMatch {
    /// Whether `header` matches `etag` (a strong tag, written `"…"`), so that the request is
    /// answered `304 Not Modified`.
    static func matches(_ header: String, etag: String) -> Bool {
        let wanted = opaque(etag)
        var rest = header.utf8[...]
        while true {
            rest = rest.drop { $0 == .space || $0 == .tab || $0 == .comma }
            if rest.isEmpty { return false }
            if rest.first == .star { return true }
            if rest.starts(with: "W/".utf8) { rest = rest.dropFirst(2) }
            // An entity tag is a quoted string without escapes; commas may appear inside it.
            guard rest.first == .quote, let close = rest.dropFirst().firstIndex(of: .quote) else { return false }
            if rest[rest.index(after: rest.startIndex)..<close].elementsEqual(wanted) { return true }
            rest = rest[rest.index(after: close)...]
        }
    }

    /// The characters between the quotes of a strong tag.
    private static func opaque(_ etag: String) -> Substring.UTF8View {
        etag.dropFirst().dropLast().utf8
    }
}

private extension UInt8 {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let comma = UInt8(ascii: ",")
    static let star = UInt8(ascii: "*")
    static let quote = UInt8(ascii: "\"")
}
