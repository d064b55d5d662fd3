import Foundation

/// The metadata folder beside the content: `movies/*.json`, `books/*.json` and `images/`.
/// Files are written atomically, images before the JSON that names them, so a failed
/// fetch leaves every entry as it was.
public struct MetadataCache: Sendable {
    public static let folderName = "metadata"
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    /// The cached entry for `lookup`; nil when there is none; throws on an unreadable one.
    public func entry(for lookup: Lookup) throws(Diagnostic) -> WorkMetadata? {
        let url = folder.appendingPathComponent(lookup.path)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(WorkMetadata.self, from: data)
        } catch {
            throw Diagnostic(
                "not a valid metadata file: \(Transport.describe(error))",
                at: .init(path: "\(Self.folderName)/\(lookup.path)", line: 1, column: 1))
        }
    }

    /// The bytes of a cached image (`images/x.jpg`), refusing paths that leave the folder.
    public func image(_ file: String) -> Data? {
        guard let url = SafePath.resolve(file, in: folder) else { return nil }
        return FileManager.default.contents(atPath: url.path)
    }

    /// Stores an entry with its images; replaces the old entry only when everything is written.
    func store(_ metadata: WorkMetadata, images: [(CachedImage, Data)], for lookup: Lookup) throws {
        let manager = FileManager.default
        let old = try? entry(for: lookup)
        for folder in [lookup.path, "images/x"].map({ folder.appendingPathComponent($0).deletingLastPathComponent() }) {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        for (image, data) in images {
            try AtomicFile.write(data, to: folder.appendingPathComponent(image.file))
        }
        var stored = metadata
        stored.images = images.map(\.0)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write(
            try encoder.encode(stored) + Data("\n".utf8), to: folder.appendingPathComponent(lookup.path))
        let kept = Set(stored.images.map(\.file))
        for image in old?.images ?? [] where !kept.contains(image.file) {
            if let url = SafePath.resolve(image.file, in: folder) { try? manager.removeItem(at: url) }
        }
    }
}
