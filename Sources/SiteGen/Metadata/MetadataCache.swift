import Foundation
import Mustache

/// The metadata folder beside the content: `movies/*.json`, `books/*.json` and `images/`.
/// Files are written atomically, images before the JSON that names them, so a failed
/// fetch leaves every entry as it was.
public struct MetadataCache: Sendable {
    public static let folderName = "metadata"
    public let folder: URL
    /// Checks every entry read against the folder's real path, found once.
    private let checker: SafePathChecker

    public init(folder: URL) {
        self.folder = folder
        checker = SafePathChecker(root: folder)
    }

    /// The cached entry for `lookup`; nil when there is none; throws on an unreadable one.
    public func entry(for lookup: Lookup) throws(Diagnostic) -> WorkMetadata? {
        guard let data = try bytes(of: lookup.path) else { return nil }
        let location = SourceLocation(path: "\(Self.folderName)/\(lookup.path)", line: 1, column: 1)
        let entry: WorkMetadata
        if let read = WorkMetadata(cachedJSON: Array(data)) {
            entry = read
        } else {
            do {
                entry = try JSONDecoder().decode(WorkMetadata.self, from: data)
            } catch {
                // Not JSON at all: the strict reader says where. Else a field of the wrong kind.
                do {
                    _ = try Value(json: Array(data), path: location.path)
                } catch {
                    throw Diagnostic("not a valid metadata file: \(error.message)", at: error.location)
                }
                // Valid JSON, so Foundation's "not valid JSON" is about a value it cannot convert.
                let reason =
                    if case DecodingError.dataCorrupted = error {
                        "a value is not of the kind its field takes (such as a year written 1927.5)"
                    } else {
                        Transport.describe(error)
                    }
                throw Diagnostic("not a valid metadata file: \(reason)", at: location)
            }
        }
        if let problem = entry.rangeProblem { throw Diagnostic("not a valid metadata file: \(problem)", at: location) }
        return WorkMetadata.mayHoldControlCharacters(data) ? entry.removingControlCharacters() : entry
    }

    /// The bytes of a cached image (`images/x.jpg`); nil when it is missing; throws when it
    /// cannot be read or leads out of the folder.
    public func image(_ file: String) throws(Diagnostic) -> Data? {
        try bytes(of: file)
    }

    /// The bytes of the cache file at `relative`: nil when nothing is there; an error when it
    /// cannot be read, or when it (or a link on its way) leads outside the cache folder.
    func bytes(of relative: String) throws(Diagnostic) -> Data? {
        let location = SourceLocation(path: "\(Self.folderName)/\(relative)", line: 1, column: 1)
        let data: Data
        do {
            data = try DiskFile.read(checker.path(relative), limit: DiskFile.copiedSizeLimit)
        } catch {
            if error.isMissing { return nil }
            throw Diagnostic("cannot read: \(error.reason)", at: location)
        }
        guard checker.isInside(relative) else {
            throw Diagnostic("refused: it is a link to a place outside \(Self.folderName)/", at: location)
        }
        return data
    }

    /// Stores an entry with its images; replaces the old entry only when everything is written.
    func store(_ metadata: WorkMetadata, images: [(CachedImage, Data)], for lookup: Lookup) throws {
        let manager = FileManager.default
        let old = try? entry(for: lookup)
        for folder in [lookup.path, "images/x"].map({ folder.appendingPathComponent($0).deletingLastPathComponent() }) {
            try Directory.make(folder.path)
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
