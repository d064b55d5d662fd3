import Foundation

/// A temporary folder on disk, removed when the test is done with it.
struct ScratchFolder: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sitegen-output-test-\(UUID().uuidString)", isDirectory: true)
    }

    func write(_ path: String, _ text: String) throws {
        try files.write(path, text)
    }

    /// Its files, as a value that closures may hold (the folder itself cannot be copied).
    var files: ScratchFiles { ScratchFiles(url: url) }

    /// Every entry (folders, files, links) below the folder, as sorted relative paths.
    func entries() throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: url.path).sorted()
    }

    /// Every regular file below the folder, by relative path, as text; with `hidden: false`,
    /// files and folders whose names start with a dot (such as sitegen's record) are left out.
    func contents(hidden: Bool = true) throws -> [String: String] {
        var files: [String: String] = [:]
        for path in try entries() where hidden || !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            let full = url.appendingPathComponent(path).path
            let attributes = try FileManager.default.attributesOfItem(atPath: full)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            files[path] = String(decoding: try Data(contentsOf: URL(fileURLWithPath: full)), as: UTF8.self)
        }
        return files
    }

    /// Everything below the folder: each entry's path and type, and each file's inode, date and
    /// bytes (a folder's own date changes whenever an entry comes or goes, so it is left out).
    func snapshot() throws -> [String] {
        try entries().map { path in
            let full = url.appendingPathComponent(path).path
            let attributes = try FileManager.default.attributesOfItem(atPath: full)
            let type = attributes[.type] as? FileAttributeType
            guard type != .typeDirectory else { return "\(path)/" }
            let bytes = type == .typeRegular ? (try? Data(contentsOf: URL(fileURLWithPath: full))) ?? Data() : Data()
            return "\(path) \(type?.rawValue ?? "?") \(try identity(of: path)) \(bytes.base64EncodedString())"
        }
    }

    /// The inode and modification date of a file: both change when it is rewritten.
    func identity(of path: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(path).path)
        let inode = attributes[.systemFileNumber] as? NSNumber
        let modified = attributes[.modificationDate] as? Date
        return "\(inode?.stringValue ?? "?") \(modified?.timeIntervalSince1970 ?? 0)"
    }

    func isSymbolicLink(_ path: String) throws -> Bool {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(path).path)
        return attributes[.type] as? FileAttributeType == .typeSymbolicLink
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Writes and removes files of a ``ScratchFolder`` by path relative to it.
struct ScratchFiles {
    let url: URL

    /// Writes `text` at `path`, making its folders.
    func write(_ path: String, _ text: String) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// Removes the file or folder at `path`.
    func remove(_ path: String) throws {
        try FileManager.default.removeItem(at: url.appendingPathComponent(path))
    }
}
