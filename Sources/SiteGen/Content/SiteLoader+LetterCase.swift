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
            let key = Self.folded(path)
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
        // Only addresses that share their folded form with another (or with a section) can
        // collide: those few are claimed in path order, not the whole site's (at 100,000
        // reviews, sorting every claim by its file was a sixth of a second on one core).
        var sharing: [String: [Int]] = [:]
        sharing.reserveCapacity(claims.count)
        for (number, claim) in claims.enumerated() { sharing[Self.folded(claim.0), default: []].append(number) }
        let colliding = sharing.filter { $0.value.count > 1 || folded[$0.key] != nil }.values.joined()
        for (path, location) in colliding.map({ claims[$0] }).sorted(by: { $0.1.path < $1.1.path }) {
            _ = claim(path, at: location)
        }
        return warnings.sorted()
    }

    /// `path` in lower case, without making a new string for the ASCII paths already in lower
    /// case (nearly every slug).
    private static func folded(_ path: String) -> String {
        path.utf8.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) } ? path : path.lowercased()
    }
}
