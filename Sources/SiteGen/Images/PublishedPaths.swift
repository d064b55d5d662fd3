/// The output paths of a set of files, for telling whether another path can be a file beside
/// them: not where one of them needs a folder (`movies/2046/still.jpg` under a file
/// `movies/2046`), nor where one of them is (`movies/2046/still.jpg` when a file
/// `movies/2046/still.jpg/x` is there). Equal paths are the callers' business.
struct PublishedPaths {
    private let files: Set<Substring>
    /// Every folder of every file: `movies` and `movies/2046` for `movies/2046/still.jpg`.
    private let folders: Set<Substring>

    init<Paths: Sequence>(_ paths: Paths) where Paths.Element == String {
        var files: Set<Substring> = []
        var folders: Set<Substring> = []
        for path in paths {
            files.insert(Substring(path))
            for folder in Self.folders(of: path) { folders.insert(folder) }
        }
        self.files = files
        self.folders = folders
    }

    /// The path among them that `path` cannot stand beside as a file, if any: one of its
    /// folders, or (the first in order) one of the files in the folder `path` would be.
    func clash(with path: String) -> String? {
        if let folder = Self.folders(of: path).first(where: files.contains) { return String(folder) }
        guard folders.contains(Substring(path)) else { return nil }
        return files.filter { $0.hasPrefix(path + "/") }.min().map(String.init)
    }

    /// The folders of `path`, outermost first: `a` and `a/b` for `a/b/c`.
    static func folders(of path: String) -> [Substring] {
        var found: [Substring] = []
        var index = path.startIndex
        while let slash = path[index...].firstIndex(of: "/") {
            found.append(path[..<slash])
            index = path.index(after: slash)
        }
        return found
    }
}
