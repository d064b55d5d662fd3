import Foundation

/// Where a URL found in a built page leads, relative to the site's base URL.
enum LinkTarget: Sendable, Equatable {
    /// A file of the output folder (`movies/x/index.html`), and the fragment after `#`, if any.
    case file(String, fragment: String?)
    /// A path under the base path with no file: the relative path that was looked for.
    case missing(String)
    /// A path that is not under the base path (a link that forgot it, or climbs above it).
    case outside
    /// An http or https URL of another site, without its fragment.
    case external(String)
    /// A scheme sitegen does not check: `mailto:`, `tel:`, `data:`, `javascript:`…
    case ignored

    /// An absolute path with `.` and `..` segments resolved (a `..` at `/` stays there).
    static func normalized(_ path: String) -> String {
        // Most paths have no segment starting with a dot: "/." nowhere.
        var previous: UInt8 = 0
        guard
            path.utf8.contains(where: { byte in
                defer { previous = byte }
                return previous == 0x2F && byte == 0x2E
            })
        else { return path }
        var parts: [Substring] = []
        let segments = path.pathSegments(omittingEmpty: false).dropFirst()
        for (position, segment) in segments.enumerated() {
            switch segment {
            case ".": if position == segments.count - 1 { parts.append("") }
            case "..":
                // Above the root stays at the root, as browsers resolve it (RFC 3986, 5.2.4).
                if !parts.isEmpty { parts.removeLast() }
                if position == segments.count - 1 { parts.append("") }
            default: parts.append(segment)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
