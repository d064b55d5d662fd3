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

    /// Set when the folder is a link to a place outside the site folder: nothing is read or
    /// written there, as for `content/` and `static/`.
    private let leadsOut: Bool

    public init(folder: URL) {
        self.folder = folder
        checker = SafePathChecker(root: folder)
        leadsOut = SafePath.linkLeadsOut(folder.lastPathComponent, in: folder.deletingLastPathComponent())
    }

    /// The error of a cache folder that is a link to a place outside the site folder.
    public var placeProblem: Diagnostic? {
        guard leadsOut else { return nil }
        return Diagnostic(
            "refused: it is a link to a place outside the site folder",
            at: SourceLocation(path: Self.folderName, line: 1, column: 1))
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

    /// What is cached for a lookup.
    public enum EntryState: Sendable, Equatable {
        case none
        /// The entry and every image it names.
        case whole
        /// Why it cannot be used as it is, as the build says it: it cannot be read, or an image it
        /// names is missing or cannot be read.
        case unusable(Diagnostic)
    }

    /// What is cached for `lookup`, which `review` names (the build's advice names it).
    public func state(of lookup: Lookup, review: String) -> EntryState {
        do {
            guard let entry = try entry(for: lookup) else { return .none }
            for image in entry.images where try self.image(image.file) == nil {
                return .unusable(Self.missingImage(image.file, of: lookup, review: review))
            }
            return .whole
        } catch {
            return .unusable(error)
        }
    }

    /// The error of an entry naming an image that is not there.
    static func missingImage(_ file: String, of lookup: Lookup, review: String) -> Diagnostic {
        Diagnostic(
            "the image \(file) it names is missing: run sitegen fetch --refresh --only \(review)",
            at: SourceLocation(path: "\(folderName)/\(lookup.path)", line: 1, column: 1))
    }

    /// The bytes of a cached image (`images/x.jpg`); nil when it is missing; throws when it
    /// cannot be read or leads out of the folder.
    public func image(_ file: String) throws(Diagnostic) -> Data? {
        try bytes(of: file)
    }

    /// The bytes of the cache file at `relative`: nil when nothing is there; an error when it
    /// cannot be read, or when it (or a link on its way) leads outside the cache folder.
    func bytes(of relative: String) throws(Diagnostic) -> Data? {
        if let placeProblem { throw placeProblem }
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

    /// Stores an entry with its images; replaces the old entry only when everything is written:
    /// every file is written beside its place first, then the images are renamed into place
    /// (under new names when they would replace other bytes the old entry names) and the entry
    /// last, and the old entry's images it no longer names are removed (only files in
    /// `images/`, never an entry). A folder of the cache that is a link out of it is
    /// refused before anything is written.
    ///
    /// An entry already there that cannot be read (it may hold edits by hand with a typo) is
    /// replaced only when `refreshing`; else the store fails with its error.
    func store(
        _ metadata: WorkMetadata, images: [(CachedImage, Data)], for lookup: Lookup, refreshing: Bool
    ) throws(MetadataError) {
        if let placeProblem { throw .cacheWrite(placeProblem.message) }
        let old: WorkMetadata?
        do {
            old = try entry(for: lookup)
        } catch {
            guard refreshing else { throw .unreadableEntry(error) }
            old = nil
        }
        let entryFolder = (lookup.path as NSString).deletingLastPathComponent
        for relative in [entryFolder, "images"] {
            guard !SafePath.linkLeadsOut(relative, in: folder) else {
                throw .cacheWrite("\(Self.folderName)/\(relative) is a link to a place outside \(Self.folderName)/")
            }
            do {
                try Directory.make(folder.appendingPathComponent(relative).path)
            } catch {
                throw .cacheWrite("cannot make \(Self.folderName)/\(relative): \(ErrorText.describe(error))")
            }
        }
        // An image the old entry names is never replaced by other bytes: those go under a name of
        // their own, so until the new entry is in place the old one names its own images (a
        // fetch stopped or failed in between leaves it whole).
        let named = Set(old?.images.map(\.file) ?? [])
        var images = images
        for index in images.indices where named.contains(images[index].0.file) {
            let (image, data) = images[index]
            guard (try? bytes(of: image.file)) != data else { continue }
            let name = image.file as NSString
            images[index].0.file =
                "\(name.deletingPathExtension)-\(String(ContentHash(data).high, radix: 16)).\(name.pathExtension)"
        }
        var stored = metadata
        stored.images = images.map(\.0)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var files: [(String, Data)] = images.map { ($0.0.file, $0.1) }
        do {
            files.append((lookup.path, try encoder.encode(stored) + Data("\n".utf8)))
        } catch {
            throw .cacheWrite("cannot encode \(lookup.path): \(ErrorText.describe(error))")
        }
        var staged: [AtomicFile.Staged] = []
        for (relative, data) in files {
            guard SafePath.segments(of: relative) != nil else {
                throw .cacheWrite(
                    "refused to write \(Self.folderName)/\(relative): it leads out of \(Self.folderName)/")
            }
            do {
                staged.append(try AtomicFile.Staged(data, for: folder.appendingPathComponent(relative)))
            } catch {
                throw .cacheWrite("cannot write \(Self.folderName)/\(relative): \(ErrorText.describe(error))")
            }
        }
        for (file, (relative, _)) in zip(staged, files) {
            do {
                try file.commit()
            } catch {
                throw .cacheWrite("cannot write \(Self.folderName)/\(relative): \(ErrorText.describe(error))")
            }
        }
        let kept = Set(stored.images.map(\.file))
        for image in old?.images ?? [] where !kept.contains(image.file) && image.file.hasPathPrefix("images/") {
            if let url = SafePath.resolve(image.file, in: folder) { try? FileManager.default.removeItem(at: url) }
        }
    }
}
