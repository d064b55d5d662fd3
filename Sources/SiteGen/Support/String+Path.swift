/// Path arithmetic on `/`-separated strings.
extension String {
    /// The path without its last component, as `NSString.deletingLastPathComponent` gives it:
    /// `a/b/c` -> `a/b`, `/a` -> `/`, `a` -> `` (empty), `a/b/` -> `a`. Written out because
    /// the Foundation of Swift 6.3 on Linux traps on a path of one character (`x`, `é`).
    /// Read as UTF-8 bytes: as Characters, a name starting with a combining mark (`a/\u{301}b`)
    /// joins the slash before it, which is then not found.
    public var parentPath: String {
        let slash = UInt8(ascii: "/")
        var path = utf8[...]
        while path.count > 1, path.last == slash { path.removeLast() }
        guard let last = path.lastIndex(of: slash) else { return "" }
        var parent = path[..<last]
        while parent.last == slash { parent.removeLast() }
        return parent.isEmpty ? "/" : String(decoding: parent, as: UTF8.self)
    }
}
