import Mustache

/// Addresses that differ only in letter case (`/movies/Heat/` and `/movies/heat/`): two pages
/// on Linux, one on a case-insensitive disk (macOS, Windows) or host, where the later
/// written replaces the other.
extension SiteLoader {
    /// A warning at each section, page or review whose address differs from an earlier one's
    /// (in path order) only in letter case. A section's reviews are not compared again when
    /// the section's own name collides.
    static func letterCaseCollisions(sections: [ReviewSection], reviews: [Review], pages: [Page]) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        var folded: [String: (path: String, source: String)] = [:]
        var collidingSections: Set<String> = []
        func claim(_ path: String, at location: SourceLocation) -> Bool {
            let key = path.lowercased()
            guard let first = folded[key] else {
                folded[key] = (path, location.path)
                return true
            }
            // The very same address is an error reported elsewhere.
            guard first.path != path else { return true }
            warnings.append(
                Diagnostic(
                    "/\(path) differs from /\(first.path) (\(first.source)) only in letter case: on a "
                        + "case-insensitive disk or host (macOS, Windows, some servers) one page would replace "
                        + "the other", at: location, severity: .warning))
            return false
        }
        for section in sections.sorted(by: { $0.name < $1.name }) {
            let source = "content/\(section.name)"
            if !claim(section.name + "/", at: SourceLocation(path: source, line: 1, column: 1)) {
                collidingSections.insert(section.name)
            }
        }
        let claims =
            pages.map { ($0.path, $0.slugLocation) }
            + reviews.filter { !collidingSections.contains($0.section) }.map { ($0.path, $0.slugLocation) }
        for (path, location) in claims.sorted(by: { $0.1.path < $1.1.path }) {
            _ = claim(path, at: location)
        }
        return warnings.sorted()
    }
}
