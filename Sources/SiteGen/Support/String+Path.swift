/// Path arithmetic on `/`-separated strings.
///
/// Slashes are found as UTF-8 bytes, as the kernel finds them: as Swift Characters, a name
/// starting with a combining mark (`a/\u{301}b`) joins the slash before it, which is then not
/// found. An index of a `/` byte is always on a Unicode scalar boundary, so the string can be
/// cut there; names are still compared as Swift compares text.
extension StringProtocol where SubSequence == Substring, UTF8View: BidirectionalCollection {
    /// The names between the `/` bytes, as `split(separator: "/")` cuts a path where no mark
    /// follows a slash: `/a//b/` -> `a`, `b`; with `omittingEmpty: false`, `` (empty), `a`, ``,
    /// `b`, ``.
    func pathSegments(omittingEmpty: Bool = true) -> [Substring] {
        let bytes = utf8
        var segments: [Substring] = []
        var start = bytes.startIndex
        var index = start
        while index < bytes.endIndex {
            if bytes[index] == .slash {
                if !omittingEmpty || start < index { segments.append(self[start..<index]) }
                start = bytes.index(after: index)
            }
            bytes.formIndex(after: &index)
        }
        if !omittingEmpty || start < bytes.endIndex { segments.append(self[start..<bytes.endIndex]) }
        return segments
    }

    /// Whether the last byte is `/` (as Characters, `\u{600}/` is one Character, which is not
    /// `/`: a "prepend" mark joins the character after it).
    var endsWithSlash: Bool { utf8.last == .slash }

    /// The index of the first `/` byte, if any.
    var firstSlashIndex: Index? { utf8.firstIndex(of: .slash) }

    /// The index of the last `/` byte, if any.
    var lastSlashIndex: Index? { utf8.lastIndex(of: .slash) }

    /// The part after the `/` at `slash` (a ``firstSlashIndex`` or ``lastSlashIndex``): what
    /// `index(after:)` would skip when a combining mark follows the slash.
    func suffix(afterSlash slash: Index) -> Substring {
        self[utf8.index(after: slash)...]
    }

    /// The path after `prefix`, a folder's path and `/` (`content/`, `/`, `./`), or nil when it
    /// does not start with it: the names before each `/` of `prefix` are compared as Swift
    /// compares text, the slashes found as bytes (`content/\u{301}x` has the prefix
    /// `content/`, which `hasPrefix` denies).
    func removingPathPrefix(_ prefix: String) -> Substring? {
        var rest = self[...]
        var wanted = prefix[...]
        while let slash = wanted.firstSlashIndex {
            guard let own = rest.firstSlashIndex, rest[..<own] == wanted[..<slash] else { return nil }
            rest = rest.suffix(afterSlash: own)
            wanted = wanted.suffix(afterSlash: slash)
        }
        guard rest.hasPrefix(wanted) else { return nil }
        return rest.dropFirst(wanted.count)
    }

    /// Whether this file or folder name is hidden: it starts with the byte `.`, as `ls` and the
    /// shell decide (as Characters, `.\u{301}x` starts with another Character than `.`).
    var isHiddenName: Bool { utf8.first == UInt8(ascii: ".") }

    /// Whether the path starts with `prefix`, a folder's path and `/`, as
    /// ``removingPathPrefix(_:)`` finds it.
    func hasPathPrefix(_ prefix: String) -> Bool {
        removingPathPrefix(prefix) != nil
    }
}

extension String {
    /// The path without its last component, as `NSString.deletingLastPathComponent` gives it:
    /// `a/b/c` -> `a/b`, `/a` -> `/`, `a` -> `` (empty), `a/b/` -> `a`. Written out because
    /// the Foundation of Swift 6.3 on Linux traps on a path of one character (`x`, `é`).
    public var parentPath: String {
        var path = self[...]
        while path.utf8.count > 1, path.utf8.last == .slash { path = path.droppingLastByte() }
        guard let last = path.lastSlashIndex else { return "" }
        var parent = path[..<last]
        while parent.utf8.last == .slash { parent = parent.droppingLastByte() }
        return parent.isEmpty ? "/" : String(parent)
    }
}

extension Substring {
    /// Without its last byte, a `/` (`dropLast()` drops a whole Character, and a `/` can end
    /// one: `\u{600}/` is one).
    func droppingLastByte() -> Substring {
        self[..<utf8.index(before: endIndex)]
    }
}

private extension UInt8 {
    /// The byte of `/`.
    static let slash = UInt8(ascii: "/")
}
