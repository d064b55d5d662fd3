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

    /// Resolves `url`, found on a page in the folder `directory` (a path under the base path,
    /// percent-encoded, ending in `/`), against `files` (relative paths of the output folder).
    static func resolve(_ url: String, from directory: String, base: BaseURL, files: Set<String>) -> LinkTarget {
        var url = url.trimmingCharacters(in: .whitespacesAndNewlines)
        if url.hasPrefix("//") { url = String(base.absolute.prefix { $0 != ":" }) + ":" + url }
        let origin = String(base.absolute.dropLast(base.path.count))
        var path: Substring
        if let colon = url.firstIndex(of: ":"), Self.isScheme(url[..<colon]) {
            let scheme = url[..<colon].lowercased()
            guard scheme == "http" || scheme == "https" else { return .ignored }
            guard url.count > origin.count, url.prefix(origin.count).lowercased() == origin.lowercased(),
                url[url.index(url.startIndex, offsetBy: origin.count)] == "/"
            else {
                return .external(String(url.prefix { $0 != "#" }))
            }
            path = url.dropFirst(origin.count)
        } else if url.hasPrefix("/") {
            path = Substring(url)
        } else {
            path = Substring(directory + url)
        }
        var fragment: String?
        if let hash = path.firstIndex(of: "#") {
            fragment = String(path[path.index(after: hash)...])
            path = path[..<hash]
        }
        if let question = path.firstIndex(of: "?") { path = path[..<question] }
        guard let decoded = Self.normalized(path.removingPercentEncoding ?? String(path)),
            let basePath = base.path.removingPercentEncoding, decoded.hasPrefix(basePath)
        else { return .outside }
        let relative = String(decoded.dropFirst(basePath.count))
        let file = relative.isEmpty || relative.hasSuffix("/") ? relative + "index.html" : relative
        if files.contains(file) { return .file(file, fragment: fragment) }
        // A folder without its final slash: servers answer with a redirect to the slash.
        if files.contains(relative + "/index.html") { return .file(relative + "/index.html", fragment: fragment) }
        return .missing(relative)
    }

    /// An absolute path with `.` and `..` segments resolved; nil when `..` climbs above `/`.
    static func normalized(_ path: String) -> String? {
        guard path.contains("/.") else { return path }
        var parts: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (position, segment) in segments.enumerated() {
            switch segment {
            case ".": if position == segments.count - 1 { parts.append("") }
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
                if position == segments.count - 1 { parts.append("") }
            default: parts.append(segment)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }
}
