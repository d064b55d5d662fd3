import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Joins untrusted relative paths to a folder without ever leaving it.
public enum SafePath {
    /// `relative` inside `root`, or `nil` when it is absolute, holds `..`, a NUL byte or a
    /// backslash, or resolves (through symbolic links) to somewhere outside `root`.
    public static func resolve(_ relative: String, in root: URL) -> URL? {
        resolve(relative, in: root, realRoot: realPath(root.standardizedFileURL.path))
    }

    /// ``resolve(_:in:)`` with `root`'s real path already found (`realPath(_:)`), for callers
    /// that check many paths in one folder.
    static func resolve(_ relative: String, in root: URL, realRoot: String?) -> URL? {
        guard let segments = segments(of: relative) else { return nil }
        let candidate = segments.reduce(root) { $0.appendingPathComponent(String($1)) }
        guard let realRoot, let realCandidate = realPath(candidate.standardizedFileURL.path),
            isWithin(realCandidate, realRoot)
        else { return nil }
        return candidate
    }

    /// Whether a link on the way to `relative` leads out of `folder`, or nowhere. (Anything
    /// else in the way, such as a file where a folder goes, is reported when creating.)
    public static func linkLeadsOut(_ relative: String, in folder: URL) -> Bool {
        guard SafePath.resolve(relative, in: folder) == nil else { return false }
        var path = folder.path
        for part in relative.pathSegments() {
            path += "/" + part
            switch lstatKind(path) {
            case .link?: return true
            case nil: return false
            default: continue
            }
        }
        return false
    }

    /// The names along `relative`, or nil when it is empty or absolute or holds `.`, `..`, a
    /// NUL byte or a backslash.
    ///
    /// Cut at each `/` byte, as the kernel cuts a path: as Swift Characters, a `/` followed by a
    /// combining mark is one Character, so `content/../\u{301}x` held no `..` segment there.
    static func segments(of relative: String) -> [Substring]? {
        let bytes = relative.utf8
        guard let first = bytes.first, first != UInt8(ascii: "/"), !bytes.contains(0),
            !bytes.contains(UInt8(ascii: "\\"))
        else { return nil }
        let segments = relative.pathSegments()
        let isDots = { (segment: Substring) in
            segment.utf8.elementsEqual("..".utf8) || segment.utf8.elementsEqual(".".utf8)
        }
        return segments.contains(where: isDots) ? nil : segments
    }

    /// Whether the real path `path` is the real path `root` or inside it, compared as bytes:
    /// real paths name folders byte for byte (`café` composed and decomposed are two folders).
    static func isWithin(_ path: String, _ root: String) -> Bool {
        let folder = root.utf8.last == UInt8(ascii: "/") ? root : root + "/"
        return path.utf8.elementsEqual(root.utf8) || path.utf8.starts(with: folder.utf8)
    }

    /// `relative` joined to the absolute `folder`, unchecked.
    static func join(_ folder: String, _ relative: String) -> String {
        folder.endsWithSlash ? folder + relative : folder + "/" + relative
    }

    /// Linux's `O_PATH` (open a name without reading it, so a folder needs no read permission),
    /// which Swift's Glibc module leaves out: the same value on every Linux architecture but a few.
    static let openPathOnly: Int32 = 0o1000_0000

    /// `path` with every link resolved, when it exists (else nil, with `errno` set): the kernel's
    /// name for it once opened, found in one walk of the path. glibc's `realpath(3)` looks up
    /// each prefix of the path in turn, which grows with the square of its depth (a folder
    /// nested 1,000 deep in `static/` took 37 s to build).
    static func resolved(_ path: String) -> String? {
        let descriptor = open(path, openPathOnly | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        if let opened = DiskFile.openedPath(descriptor) { return opened }
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `path` (absolute) with every link resolved, as far as it exists: the part that does not
    /// exist yet keeps its names. Nil when a link on the way leads nowhere or loops, or when a
    /// folder on the way cannot be read, since then nobody can tell where it leads; with
    /// `keepingUnresolved`, such a part keeps its names too (never nil).
    static func realPath(_ path: String, keepingUnresolved: Bool = false) -> String? {
        var existing = path
        var rest: [Substring] = []
        while true {
            if let base = resolved(existing) {
                guard !rest.isEmpty else { return base }
                return (base == "/" ? "" : base) + "/" + rest.reversed().joined(separator: "/")
            }
            if !keepingUnresolved {
                guard errno == ENOENT else { return nil }
                var status = stat()
                // Something is there, yet it cannot be resolved: a link to nothing.
                if lstat(existing, &status) == 0 { return nil }
            }
            guard let slash = existing.lastSlashIndex, existing != "/" else { return nil }
            rest.append(existing.suffix(afterSlash: slash))
            existing = slash == existing.startIndex ? "/" : String(existing[..<slash])
        }
    }
}

/// ``SafePath`` for many files in a few folders (the metadata cache): each folder is opened
/// once (``OpenFolders``), and a file in it that is not a link is read or looked at by its
/// name there instead of a walk of its whole path. Made for one build, so a folder changed
/// later is seen afresh.
final class SafePathChecker: Sendable {
    let root: URL
    private let rootPath: String
    private let realRoot: String?
    private let folders: OpenFolders?

    init(root: URL) {
        self.root = root
        rootPath = root.standardizedFileURL.path
        realRoot = SafePath.realPath(rootPath)
        folders = realRoot.map(OpenFolders.init(realRoot:))
    }

    /// The absolute path of `relative`, without checking it (for reading before the check).
    func path(_ relative: String) -> String {
        SafePath.join(rootPath, relative)
    }

    /// Whether `relative` stays inside the root, as ``SafePath/resolve(_:in:)`` decides.
    func isInside(_ relative: String) -> Bool {
        // A file that is not a link is where its folder is; anything else takes the full walk.
        if SafePath.segments(of: relative) != nil, folders?.holdsPlainEntry(path(relative)) == true { return true }
        return resolvesInside(relative)
    }

    /// The bytes of the file `relative`, and whether it is inside the root, as ``isInside(_:)``
    /// decides. Nearly always a plain file in a folder found inside: opened there without
    /// following a link, it needs no check after; anything else is read, then checked.
    func read(_ relative: String, limit: Int) throws(FileSystemError) -> (bytes: Data, isInside: Bool) {
        if SafePath.segments(of: relative) != nil, let bytes = try folders?.read(path(relative), limit: limit) {
            return (bytes, true)
        }
        let bytes = try DiskFile.read(path(relative), limit: limit)
        // Its folder is not known inside, or it is a link: only the full walk can tell.
        return (bytes, resolvesInside(relative))
    }

    /// Whether `relative`, every link on the way followed, ends inside the root.
    private func resolvesInside(_ relative: String) -> Bool {
        guard let realRoot, SafePath.segments(of: relative) != nil else { return false }
        return SafePath.resolve(relative, in: root, realRoot: realRoot) != nil
    }
}
