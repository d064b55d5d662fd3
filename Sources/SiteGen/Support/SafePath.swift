import Foundation

/// Joins untrusted relative paths to a folder without ever leaving it.
public enum SafePath {
    /// `relative` inside `root`, or `nil` when it is absolute, holds `..`, a NUL byte or a
    /// backslash, or resolves (through symbolic links) to somewhere outside `root`.
    public static func resolve(_ relative: String, in root: URL) -> URL? {
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.contains("\0"), !relative.contains("\\")
        else { return nil }
        let segments = relative.split(separator: "/", omittingEmptySubsequences: true)
        guard !segments.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        let candidate = segments.reduce(root) { $0.appendingPathComponent(String($1)) }
        let realRoot = root.resolvingSymlinksInPath().standardizedFileURL.path
        let realCandidate = candidate.resolvingSymlinksInPath().standardizedFileURL.path
        guard realCandidate == realRoot || realCandidate.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
        else { return nil }
        return candidate
    }
}
