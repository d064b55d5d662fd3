import Foundation

/// A request target checked and mapped to a file of the site.
enum RequestPath: Equatable {
    /// Serve this file (a path relative to the site root).
    case file(String)
    /// A folder asked for without its final slash: redirect here.
    case redirect(String)
    /// The target tries to leave the site or is malformed.
    case bad

    /// Percent-decodes the path of `target` and refuses anything that could leave the
    /// site: `..` segments, encoded slashes or backslashes, backslashes, NUL bytes.
    static func parse(_ target: String) -> (path: String, query: String)? {
        if isPlain(target) { return (target, "") }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let raw = String(parts[0])
        let query = parts.count > 1 ? "?" + parts[1] : ""
        guard raw.hasPrefix("/"), !raw.contains("\\") else { return nil }
        let lowered = raw.lowercased()
        guard !lowered.contains("%2f"), !lowered.contains("%5c"), !lowered.contains("%00") else { return nil }
        guard let decoded = raw.removingPercentEncoding, !decoded.contains("\0"), !decoded.contains("\\") else {
            return nil
        }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        return (decoded, query)
    }

    /// A target of ASCII letters, digits and `/ - _ . ~` with no segment starting with a dot:
    /// nothing to decode or refuse.
    static func isPlain(_ target: String) -> Bool {
        var previous: UInt8 = 0
        for byte in target.utf8 {
            guard byte.isPlainTargetByte, !(previous == 0x2F && byte == 0x2E) else { return false }
            previous = byte
        }
        return target.utf8.first == 0x2F
    }

    /// Where `target` leads among `exists` (a check whether a site file exists).
    static func resolve(_ target: String, exists: (String) -> Bool) -> RequestPath {
        guard let (path, query) = parse(target) else { return .bad }
        var relative = String(path.dropFirst())
        if relative.isEmpty || relative.hasSuffix("/") {
            relative += "index.html"
            return .file(relative)
        }
        if exists(relative) { return .file(relative) }
        if exists(relative + "/index.html") { return .redirect(path + "/" + query) }
        return .file(relative)
    }
}

private extension UInt8 {
    /// ASCII letters, digits, `/`, `-`, `_`, `.` and `~`: a target made only of these needs no decoding.
    var isPlainTargetByte: Bool {
        (0x61...0x7A).contains(self) || (0x41...0x5A).contains(self) || (0x30...0x39).contains(self)
            || self == 0x2F || self == 0x2D || self == 0x5F || self == 0x2E || self == 0x7E
    }
}
