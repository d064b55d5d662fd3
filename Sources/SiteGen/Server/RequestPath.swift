/// A request target checked and mapped to a file of the site.
///
/// Pure and self-contained (the standard library only), so that a fuzzer can compile this
/// file alone and call ``parse(_:)`` and ``resolve(_:exists:)`` with any bytes.
enum RequestPath: Equatable {
    /// Serve this file (a path relative to the site root).
    case file(String)
    /// A folder asked for without its final slash: redirect here.
    case redirect(String)
    /// The target tries to leave the site or is malformed.
    case bad

    /// A target taken apart: the path as sent and percent-decoded, and the query.
    struct Parts: Equatable {
        /// The path, percent-decoded: starts with `/`, valid UTF-8, no `.` or `..` segment,
        /// no NUL or other control character, no backslash.
        let path: String
        /// The path as sent (still percent-encoded), for a redirect's `Location`.
        let encodedPath: String
        /// `?` and the query as sent, or empty.
        let query: String
    }

    /// Takes `target` apart, or nil when it is malformed or could leave the site: not starting
    /// with `/`, a byte that is not visible ASCII (RFC 9112 targets are), a backslash, a bad
    /// `%` escape, an escape of `/`, `\` or a control character (`%00`…), decoded bytes that are
    /// not UTF-8 (overlong forms such as `%C0%AE` included), or a `.` or `..` segment (also
    /// when written `%2e`).
    static func parse(_ target: String) -> Parts? {
        let bytes = Array(target.utf8)
        let queryStart = bytes.firstIndex(of: .questionMark) ?? bytes.count
        guard queryStart > 0, bytes[0] == .slash else { return nil }
        guard bytes[queryStart...].allSatisfy(\.isVisibleASCII) else { return nil }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(queryStart)
        var index = 0
        while index < queryStart {
            let byte = bytes[index]
            guard byte.isVisibleASCII, byte != .backslash else { return nil }
            guard byte == .percent else {
                decoded.append(byte)
                index += 1
                continue
            }
            guard index + 2 < queryStart, let high = bytes[index + 1].hexValue, let low = bytes[index + 2].hexValue
            else { return nil }
            let value = high << 4 | low
            guard value >= 0x20, value != 0x7F, value != .slash, value != .backslash else { return nil }
            decoded.append(value)
            index += 3
        }
        guard !hasDotSegment(decoded), let path = String(validating: decoded, as: UTF8.self) else { return nil }
        return Parts(
            path: path, encodedPath: String(decoding: bytes[..<queryStart], as: UTF8.self),
            query: String(decoding: bytes[queryStart...], as: UTF8.self))
    }

    /// Where `target` leads among `exists` (a check whether a site file exists).
    static func resolve(_ target: String, exists: (String) -> Bool) -> RequestPath {
        guard let parts = parse(target) else { return .bad }
        // Bytes, not characters: "/" and a combining mark after it are one Character.
        let relative = String(decoding: parts.path.utf8.dropFirst(), as: UTF8.self)
        if relative.isEmpty || relative.utf8.last == .slash { return .file(relative + "index.html") }
        if exists(relative) { return .file(relative) }
        if exists(relative + "/index.html") { return .redirect(parts.encodedPath + "/" + parts.query) }
        return .file(relative)
    }
}

private extension RequestPath {
    /// Whether a segment of `path` (between slashes) is `.` or `..`.
    static func hasDotSegment(_ path: [UInt8]) -> Bool {
        var start = 0
        for end in 0...path.count where end == path.count || path[end] == .slash {
            let length = end - start
            if (length == 1 || length == 2) && path[start..<end].allSatisfy({ $0 == .dot }) { return true }
            start = end + 1
        }
        return false
    }
}

private extension UInt8 {
    static let slash = UInt8(ascii: "/")
    static let backslash = UInt8(ascii: "\\")
    static let percent = UInt8(ascii: "%")
    static let questionMark = UInt8(ascii: "?")
    static let dot = UInt8(ascii: ".")

    /// `!` to `~`: what a request target may hold.
    var isVisibleASCII: Bool { (0x21...0x7E).contains(self) }

    /// The value of a hexadecimal digit.
    var hexValue: UInt8? {
        switch self {
        case 0x30...0x39: self - 0x30
        case 0x41...0x46: self - 0x41 + 10
        case 0x61...0x66: self - 0x61 + 10
        default: nil
        }
    }
}
