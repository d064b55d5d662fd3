/// What an import does with one entry of an export.
public struct ImportAction: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case create, update, unchanged, skip
    }

    /// Why an entry is left alone.
    public enum SkipReason: Sendable, Equatable, Hashable {
        /// Its file changed since the import wrote it.
        case edited
        /// Its file was deleted since the import wrote it.
        case deleted
        /// A file names the entry (its `letterboxd` or `goodreads` id) but differs from what
        /// the import would write, and this site has no record of importing it (the record is
        /// not in git, so a fresh clone has none).
        case notImportedHere
        /// The export lists the entry again (at `first`).
        case listedTwice(first: String)
        /// A review of the same film or book, written without an import id, is at `path`.
        case alreadyReviewed(path: String)
        /// A Goodreads book on a shelf not imported.
        case shelf(String)

        /// The reason in words.
        public var description: String {
            switch self {
            case .edited: "edited since it was imported"
            case .deleted: "deleted since it was imported"
            case .notImportedHere:
                "differs from the export, and this site has no record of importing it (an edit, or an import on another machine)"
            case .listedTwice(let first): "listed twice in the export (first at \(first))"
            case .alreadyReviewed(let path): "already reviewed in \(path), which has no import id"
            case .shelf(let shelf): "on the \(shelf) shelf"
            }
        }

        /// The reason as the summary counts it.
        public var group: String {
            switch self {
            case .edited: "edited since import"
            case .deleted: "deleted since import"
            case .notImportedHere: "not imported here"
            case .listedTwice: "listed twice"
            case .alreadyReviewed: "already reviewed"
            case .shelf(let shelf): "on the \(shelf) shelf"
            }
        }
    }

    public let kind: Kind
    /// The review file, relative to the site folder (nil for an entry skipped before it had one).
    public let path: String?
    /// The entry, for messages: `"Parasite" (2019)`.
    public let label: String
    /// Where the export lists it: `export.zip/diary.csv:4`.
    public let origin: String
    public let skipReason: SkipReason?
    /// Why a created review is a draft (`rated, never logged`).
    public let draftReason: String?
    /// For an update of a rated-only draft by the film's first diary entry: the draft's key.
    let takesOver: String?
    /// The entry's key and, for create and update, the file's new bytes.
    let key: String
    let text: String?
    let ratedFilm: String?

    init(
        _ kind: Kind, path: String?, item: ImportItem, text: String? = nil, skipReason: SkipReason? = nil,
        takesOver: String? = nil
    ) {
        self.kind = kind
        self.path = path
        self.label = item.label
        self.origin = item.origin
        self.skipReason = skipReason
        self.draftReason = kind == .create ? item.draftReason : nil
        self.takesOver = takesOver
        self.key = item.key
        self.text = text
        self.ratedFilm = item.ratedFilm
    }

    init(skippedShelf row: GoodreadsLibrary.Skipped) {
        kind = .skip
        path = nil
        label = row.label
        origin = row.origin
        skipReason = .shelf(row.shelf)
        draftReason = nil
        takesOver = nil
        key = ""
        text = nil
        ratedFilm = nil
    }
}
