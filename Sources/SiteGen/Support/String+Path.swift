/// Path arithmetic on `/`-separated strings.
extension String {
    /// The path without its last component, as `NSString.deletingLastPathComponent` gives it:
    /// `a/b/c` -> `a/b`, `/a` -> `/`, `a` -> `` (empty), `a/b/` -> `a`. Written out because
    /// the Foundation of Swift 6.3 on Linux traps on a path of one character (`x`, `é`).
    public var parentPath: String {
        var path = Substring(self)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        var parent = path[..<slash]
        while parent.hasSuffix("/") { parent.removeLast() }
        return parent.isEmpty ? "/" : String(parent)
    }
}
