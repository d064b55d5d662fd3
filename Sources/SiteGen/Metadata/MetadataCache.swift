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

    /// The site folder whose `.sitegen/fetch.lock` stores hold (``init(site:)``); nil for a
    /// cache folder of its own, whose stores take no lock.
    let site: URL?

    /// Which entries name which images, for the stores of this cache (see ``ImageOwners``).
    let owners = ImageOwners()

    public init(folder: URL) {
        self.init(folder: folder, site: nil)
    }

    /// The cache of the site in `site`: its `metadata/` folder, whose stores hold the site's
    /// `.sitegen/fetch.lock`, so two fetches at once never mix their entries' files.
    public init(site: URL) {
        self.init(folder: site.appendingPathComponent(Self.folderName), site: site)
    }

    private init(folder: URL, site: URL?) {
        self.folder = folder
        self.site = site
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
        try entry(at: lookup.path)
    }

    /// The entry in the file at `relative` (`movies/tmdb-7.json`); nil when there is none;
    /// throws on an unreadable one.
    func entry(at relative: String) throws(Diagnostic) -> WorkMetadata? {
        guard let data = try bytes(of: relative) else { return nil }
        let location = SourceLocation(path: "\(Self.folderName)/\(relative)", line: 1, column: 1)
        let entry: WorkMetadata
        if let read = WorkMetadata(cachedJSON: Array(data)) {
            entry = read
        } else {
            // Not JSON, or a key written twice: the strict reader says where.
            let value: Value
            do {
                value = try Value(json: Array(data), path: location.path)
            } catch {
                throw Diagnostic("not a valid metadata file: \(error.message)", at: error.location)
            }
            do {
                entry = try JSONDecoder().decode(WorkMetadata.self, from: data)
            } catch {
                throw Self.decodingProblem(error, in: data, value: value, file: location)
            }
        }
        if let (problem, steps) = entry.rangeProblem {
            throw Diagnostic(
                "not a valid metadata file: \(problem)",
                at: Value.jsonLocation(of: steps, in: Array(data), path: location.path) ?? location)
        }
        return WorkMetadata.mayHoldControlCharacters(data) ? entry.removingControlCharacters() : entry
    }

    /// The error of valid JSON that is not an entry, at the value it is about (a field of the
    /// wrong kind, the object missing a field).
    static func decodingProblem(_ error: any Error, in data: Data, value: Value, file: SourceLocation) -> Diagnostic {
        let bytes = Array(data)
        func place(at steps: [JSONPathStep]) -> SourceLocation {
            Value.jsonLocation(of: steps, in: bytes, path: file.path) ?? file
        }
        func place(_ codingPath: [any CodingKey]) -> SourceLocation {
            place(at: JSONPathStep.steps(of: codingPath))
        }
        let reason: String
        let location: SourceLocation
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            (reason, location) = ("missing \"\(key.stringValue)\"", place(context.codingPath))
        case DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty:
            (reason, location) = ("it must hold one JSON object, the entry's fields", place(at: []))
        case DecodingError.typeMismatch(let type, let context), DecodingError.valueNotFound(let type, let context):
            (reason, location) = (
                Self.kindProblem(expected: type, at: JSONPathStep.steps(of: context.codingPath), in: value),
                place(context.codingPath)
            )
        case DecodingError.dataCorrupted(let context):
            // Valid JSON, so Foundation's "not valid JSON" is about a value it cannot convert:
            // a whole number's field with a fraction, or too large, which it does not say (no
            // coding path): the field is found and named.
            if context.codingPath.isEmpty, let steps = WorkMetadata.fractionPath(in: value),
                case .double(let number)? = value[steps]
            {
                let name = JSONPathStep.name(of: steps)
                (reason, location) = (
                    number.rounded() == number
                        ? "\"\(name)\" is too large a number: \(number)"
                        : "\"\(name)\" must be a whole number, not \(number)",
                    place(at: steps)
                )
            } else {
                (reason, location) = (
                    "a value is not of the kind its field takes (such as a year written 1927.5)",
                    context.codingPath.isEmpty ? place(at: []) : place(context.codingPath)
                )
            }
        default:
            (reason, location) = (Transport.describe(error), file)
        }
        return Diagnostic("not a valid metadata file: \(reason)", at: location)
    }

    /// A field of the wrong kind, in words: `"year" must be a whole number, not text`.
    static func kindProblem(expected type: Any.Type, at steps: [JSONPathStep], in value: Value) -> String {
        let expected =
            switch type {
            case is Int.Type: "a whole number"
            case is Double.Type: "a number"
            case is String.Type: "text in quotes"
            case is Bool.Type: "true or false"
            case is [Any].Type: "a list in [ ]"
            default: "an object in { }"
            }
        let kind: String? =
            switch value[steps] {
            case .null?: "null"
            case .bool?: "true or false"
            case .int?, .double?: "a number"
            case .string?: "text"
            case .array?: "a list"
            case .object?: "an object"
            case nil: nil
            }
        return "\"\(JSONPathStep.name(of: steps))\" must be \(expected)" + (kind.map { ", not \($0)" } ?? "")
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
            for (index, image) in entry.images.enumerated() where try self.image(image.file) == nil {
                return .unusable(missingImage(at: index, of: entry, lookup, review: review))
            }
            return .whole
        } catch {
            return .unusable(error)
        }
    }

    /// The error of `entry` (for `lookup`) naming an image, its `index`th, that is not there:
    /// at the image's `file` in the entry (read again: this is rare), else at the entry.
    func missingImage(at index: Int, of entry: WorkMetadata, _ lookup: Lookup, review: String) -> Diagnostic {
        let path = "\(Self.folderName)/\(lookup.path)"
        let location =
            (try? bytes(of: lookup.path)).flatMap { $0 }.flatMap { data in
                Value.jsonLocation(of: [.key("images"), .index(index), .key("file")], in: Array(data), path: path)
            } ?? SourceLocation(path: path, line: 1, column: 1)
        return Diagnostic(
            "the image \(entry.images[index].file) it names is missing: run sitegen fetch --refresh --only \(review)",
            at: location)
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
        let read: (bytes: Data, isInside: Bool)
        do {
            read = try checker.read(relative, limit: DiskFile.copiedSizeLimit)
        } catch {
            if error.isMissing { return nil }
            throw Diagnostic("cannot read: \(error.reason)", at: location)
        }
        guard read.isInside else {
            // Said of the folder when the folder is the link (each of its files would say it).
            let folder = (relative as NSString).deletingLastPathComponent
            if !folder.isEmpty, SafePath.linkLeadsOut(folder, in: self.folder) {
                throw Diagnostic(
                    "refused: it is a link to a place outside \(Self.folderName)/",
                    at: SourceLocation(path: "\(Self.folderName)/\(folder)", line: 1, column: 1))
            }
            throw Diagnostic("refused: it is a link to a place outside \(Self.folderName)/", at: location)
        }
        return read.bytes
    }
}
