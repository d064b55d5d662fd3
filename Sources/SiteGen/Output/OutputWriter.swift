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
        var report = Report()
        // Stale entries go first: one may be a link or file where a folder is now needed
        // (removing it afterwards would delete the new folder), or sit in a folder that a
        // file now replaces.
        for stale in existing.subtracting(files.keys).sorted() {
            try manager.removeItem(at: folder.appendingPathComponent(stale))
            report.removed += 1
        }
        let folders = Set(files.keys.map { ($0 as NSString).deletingLastPathComponent }.filter { !$0.isEmpty })
        for path in folders.sorted() {
            try makeFolder(path)
        }
        let outcomes = files.sorted { $0.key < $1.key }.parallelMap { entry -> Result<Bool, Error> in
            Result { try write(entry.value, to: entry.key) }
        }
        for outcome in outcomes {
            if try outcome.get() { report.written += 1 } else { report.unchanged += 1 }
        }
        try removeEmptyFolders(folder.path)
        return report
    }
}

private extension OutputWriter {
    /// Writes one file unless it already holds `data`; returns whether it wrote.
    func write(_ data: Data, to path: String) throws -> Bool {
        let manager = FileManager.default
        let url = folder.appendingPathComponent(path)
        let attributes = try? manager.attributesOfItem(atPath: url.path)
        let type = attributes?[.type] as? FileAttributeType
        if type == .typeRegular, (attributes?[.size] as? NSNumber)?.intValue == data.count,
            let current = try? Data(contentsOf: url), current == data
        {
            return false
        }
        if type != nil && type != .typeRegular { try manager.removeItem(at: url) }
        try replace(url, with: data)
        return true
    }

    /// Creates the folder at `path` (relative), replacing a file or link that is in the way.
    func makeFolder(_ path: String) throws {
        let manager = FileManager.default
        var current = folder
        for part in path.split(separator: "/") {
            current.appendPathComponent(String(part))
            let type = (try? manager.attributesOfItem(atPath: current.path))?[.type] as? FileAttributeType
            if type == .typeDirectory { continue }
            if type != nil { try manager.removeItem(at: current) }
            try manager.createDirectory(at: current, withIntermediateDirectories: false)
        }
    }

    /// Writes `data` to a temporary file beside `url`, then renames it over `url`, so a
    /// reader never sees half a file. (No fsync: a crash may lose the build, never corrupt it
    /// beyond what a rebuild repairs.)
    func replace(_ url: URL, with data: Data) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).sitegen-tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        let code = errno
        close(descriptor)
        guard written else {
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    /// Every file and symbolic link under the folder, as relative paths.
    /// Hidden files and folders (such as a `.git` used to deploy) are never touched.
    func existingFiles() throws -> [String] {
        Directory.files(under: folder.path).filter { path in
            !path.split(separator: "/").contains { $0.hasPrefix(".") }
        }
    }

    /// Removes folders left empty below `path`; returns whether `path` itself is now empty.
    @discardableResult
    func removeEmptyFolders(_ path: String) throws -> Bool {
        var empty = true
        for entry in Directory.entries(path) ?? [] {
            let child = path + "/" + entry.name
            if entry.name.hasPrefix(".") {
                empty = false
            } else if entry.kind == .folder, try removeEmptyFolders(child) {
                try FileManager.default.removeItem(atPath: child)
            } else {
                empty = false
            }
        }
        return empty
    }
}
