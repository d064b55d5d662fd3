import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Makes the output folder hold exactly the new site: writes files whose bytes changed
/// (atomically: a temporary file, then a rename), leaves identical files untouched, and
/// removes files the site no longer has.
public struct OutputWriter: Sendable {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    /// What a write did.
    public struct Report: Sendable, Equatable {
        public var written = 0
        public var unchanged = 0
        public var removed = 0
    }

    /// Writes `files` (output path → bytes) into the folder.
    public func write(_ files: [String: Data]) throws -> Report {
        let manager = FileManager.default
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        let existing = Set(try existingFiles())
        let existingFolders = Set(existing.flatMap(Self.ancestors))
        var report = Report()
        // Stale entries go first: one may be a link or file where a folder is now needed
        // (removing it afterwards would delete the new folder), or sit in a folder that a
        // file now replaces.
        let stale = existing.subtracting(files.keys).sorted()
        for path in stale {
            try manager.removeItem(at: folder.appendingPathComponent(path))
        }
        report.removed = stale.count
        let sorted = files.sorted { $0.key < $1.key }
        let changed = sorted.parallelMap { !existing.contains($0.key) || !isUnchanged($0.key, $0.value) }
        let toWrite = zip(sorted, changed).filter(\.1).map(\.0)
        let folders = Set(toWrite.map { ($0.key as NSString).deletingLastPathComponent }.filter { !$0.isEmpty })
        for path in folders.sorted() {
            try makeFolder(path)
        }
        let outcomes = toWrite.parallelMap { entry -> Result<Void, Error> in
            Result { try write(entry.value, to: entry.key, replacingFolder: existingFolders.contains(entry.key)) }
        }
        for outcome in outcomes { try outcome.get() }
        report.written = toWrite.count
        report.unchanged = sorted.count - toWrite.count
        try removeEmptyFolders(Set(stale.flatMap(Self.ancestors)))
        return report
    }

    /// The folders a relative path sits in: `a/b/c.html` → `a`, `a/b`.
    static func ancestors(of path: String) -> [String] {
        let parts = path.split(separator: "/").dropLast()
        return parts.indices.map { parts[...$0].joined(separator: "/") }
    }
}

private extension OutputWriter {
    /// Whether the file at `path` is a regular file holding exactly `data`.
    func isUnchanged(_ path: String, _ data: Data) -> Bool {
        var info = stat()
        let full = folder.appendingPathComponent(path).path
        guard lstat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == data.count else {
            return false
        }
        return FileManager.default.contents(atPath: full) == data
    }

    /// Writes one file, replacing whatever is at its path (a folder that used to be there, too).
    func write(_ data: Data, to path: String, replacingFolder: Bool) throws {
        let url = folder.appendingPathComponent(path)
        if replacingFolder { try FileManager.default.removeItem(at: url) }
        try AtomicFile.write(data, to: url)
    }

    /// Creates the folder at `path` (relative), replacing a file or link that is in the way.
    func makeFolder(_ path: String) throws {
        var current = folder.path
        for part in path.split(separator: "/") {
            current += "/" + part
            var info = stat()
            if lstat(current, &info) == 0 {
                if (info.st_mode & S_IFMT) == S_IFDIR { continue }
                try FileManager.default.removeItem(atPath: current)
            }
            guard mkdir(current, 0o755) == 0 || errno == EEXIST else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }
    }

    /// Every file and symbolic link under the folder, as relative paths.
    /// Hidden files and folders (such as a `.git` used to deploy) are never touched.
    func existingFiles() throws -> [String] {
        Directory.files(under: folder.path).filter { path in
            !path.split(separator: "/").contains { $0.hasPrefix(".") }
        }
    }

    /// Removes those of `candidates` (relative folders) that are now empty, deepest first.
    func removeEmptyFolders(_ candidates: Set<String>) throws {
        for path in candidates.sorted(by: { $0.count > $1.count }) {
            let full = folder.path + "/" + path
            guard let entries = Directory.entries(full), entries.isEmpty else { continue }
            try FileManager.default.removeItem(atPath: full)
        }
    }
}
