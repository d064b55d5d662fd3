/// The output paths of a set of files, for telling whether another path can be a file beside
/// them: not where one of them needs a folder (`movies/2046/still.jpg` under a file
/// `movies/2046`), nor where one of them is (`movies/2046/still.jpg` when a file
/// `movies/2046/still.jpg/x` is there). Equal paths are the callers' business.
struct PublishedPaths {
    private let files: Set<Substring>
    /// Every folder of every file: `movies` and `movies/2046` for `movies/2046/still.jpg`.
    private let folders: Set<Substring>
    /// The first part of every path (`movies` for `movies/2046/still.jpg`): a path whose first
    /// part is none of these clashes with none of them, which is nearly every path asked about.
    private let firstParts: Set<Substring>

    init<Paths: Sequence>(_ paths: Paths) where Paths.Element == String {
        var files: Set<Substring> = []
        var folders: Set<Substring> = []
        var firstParts: Set<Substring> = []
        for path in paths {
            files.insert(Substring(path))
            firstParts.insert(Self.firstPart(of: path))
            for folder in Self.folders(of: path) { folders.insert(folder) }
        }
        self.files = files
        self.folders = folders
        self.firstParts = firstParts
        let ascii = firstParts.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
        fewFirstParts = firstParts.count <= 16 && ascii ? firstParts.map { Array($0.utf8) } : nil
    }

    /// ``firstParts`` as bytes when there are few and all are ASCII (a site's static files and
    /// a theme's assets are in a handful of folders): the first part of an ASCII path is
    /// compared with each, byte by byte, without making and hashing a substring of it (for
    /// 45,000 pages that was 13 ms). Other paths are looked up as before: `\u{212A}` (the
    /// Kelvin sign) is the same text as `K` to Swift.
    private let fewFirstParts: [[UInt8]]?

    /// The path among them that `path` cannot stand beside as a file, if any: one of its
    /// folders, or (the first in order) one of the files in the folder `path` would be.
    func clash(with path: String) -> String? {
        guard mayClash(path) else { return nil }
        if let folder = Self.folders(of: path).first(where: files.contains) { return String(folder) }
        guard folders.contains(Substring(path)) else { return nil }
        return files.filter { $0.hasPathPrefix(path + "/") }.min().map(String.init)
    }

    /// Whether the first part of `path` is one of theirs.
    private func mayClash(_ path: String) -> Bool {
        let utf8 = path.utf8
        let end = utf8.firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
        if let fewFirstParts, utf8[..<end].allSatisfy({ $0 < 0x80 }) {
            let length = utf8.distance(from: utf8.startIndex, to: end)
            return fewFirstParts.contains { part in part.count == length && utf8.starts(with: part) }
        }
        return firstParts.contains(path[..<end])
    }

    /// `a` for `a/b/c`, and `a` for `a`.
    private static func firstPart(of path: String) -> Substring {
        path[..<(path.firstSlashIndex ?? path.endIndex)]
    }

    /// The folders of `path`, outermost first: `a` and `a/b` for `a/b/c`.
    static func folders(of path: String) -> [Substring] {
        var found: [Substring] = []
        var rest = path[...]
        while let slash = rest.firstSlashIndex {
            found.append(path[..<slash])
            rest = rest.suffix(afterSlash: slash)
        }
        return found
    }
}
