import Foundation

/// The file access the loader needs, as closures: the disk, or a dictionary in tests.
public struct FileSystem: Sendable {
    /// The bytes of a file.
    public var read: @Sendable (URL) throws -> Data
    /// The entries of a folder, sorted by name; empty when the folder does not exist.
    public var list: @Sendable (URL) throws -> [Entry]
    public var isDirectory: @Sendable (URL) -> Bool
    public var fileExists: @Sendable (URL) -> Bool

    public init(
        read: @escaping @Sendable (URL) throws -> Data, list: @escaping @Sendable (URL) throws -> [Entry],
        isDirectory: @escaping @Sendable (URL) -> Bool, fileExists: @escaping @Sendable (URL) -> Bool
    ) {
        self.read = read
        self.list = list
        self.isDirectory = isDirectory
        self.fileExists = fileExists
    }

    /// A folder entry.
    public struct Entry: Sendable, Equatable {
        public let name: String
        public let isDirectory: Bool
        public let isSymbolicLink: Bool

        public init(name: String, isDirectory: Bool, isSymbolicLink: Bool = false) {
            self.name = name
            self.isDirectory = isDirectory
            self.isSymbolicLink = isSymbolicLink
        }
    }

    /// The real disk.
    public static let disk = FileSystem(
        read: { try Data(contentsOf: $0) },
        list: { folder in
            (Directory.entries(folder.path) ?? []).map { entry in
                var isDirectory = entry.kind == .folder
                if entry.kind == .link {
                    var target: ObjCBool = false
                    let path = folder.appendingPathComponent(entry.name).path
                    isDirectory = FileManager.default.fileExists(atPath: path, isDirectory: &target) && target.boolValue
                }
                return Entry(name: entry.name, isDirectory: isDirectory, isSymbolicLink: entry.kind == .link)
            }
        },
        isDirectory: { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        },
        fileExists: { FileManager.default.fileExists(atPath: $0.path) })

    /// Every file under `folder` as paths relative to it, sorted; hidden files are skipped.
    public func files(under folder: URL, prefix: String = "") throws -> [String] {
        var found: [String] = []
        for entry in try list(folder) where !entry.name.hasPrefix(".") {
            let relative = prefix.isEmpty ? entry.name : "\(prefix)/\(entry.name)"
            if entry.isDirectory {
                found += try files(under: folder.appendingPathComponent(entry.name), prefix: relative)
            } else {
                found.append(relative)
            }
        }
        return found
    }
}
