import Foundation

/// The review files already in a section, as an import needs them: the names and slugs a new
/// file must not take, the ids that find a file imported before, and what tells a review of
/// the same film or book written by hand.
struct ExistingReviews {
    struct Entry {
        /// `content/movies/parasite.md`.
        let source: String
        let title: String?
        let year: Int?
        let letterboxd: String?
        let goodreads: String?
        let isbn: String?
        let author: String?
    }

    let entries: [Entry]
    /// File names (without `.md`) and slugs in the section, lowercased, plus the names its own
    /// index pages use: a new file's slug takes none of them.
    let takenSlugs: Set<String>
    /// The files naming each id, by source.
    private let byID: [ImportSource: [String: [String]]]
    /// Reviews without an import id, by title (as a name key) and by ISBN.
    private let byTitle: [String: [Entry]]
    private let byISBN: [String: Entry]

    init(entries: [Entry], takenSlugs: Set<String>) {
        self.entries = entries
        self.takenSlugs = takenSlugs
        var byID: [ImportSource: [String: [String]]] = [:]
        var byTitle: [String: [Entry]] = [:]
        var byISBN: [String: Entry] = [:]
        for entry in entries {
            if let id = entry.letterboxd { byID[.letterboxd, default: [:]][id, default: []].append(entry.source) }
            if let id = entry.goodreads { byID[.goodreads, default: [:]][id, default: []].append(entry.source) }
            guard entry.letterboxd == nil, entry.goodreads == nil, let title = entry.title else { continue }
            byTitle[title.nameKey, default: []].append(entry)
            if let isbn = entry.isbn.map(Self.isbn13), byISBN[isbn] == nil { byISBN[isbn] = entry }
        }
        self.byID = byID
        self.byTitle = byTitle
        self.byISBN = byISBN
    }

    /// How the site's reviews and pages already write each tag, by the tag's slug: an imported
    /// tag that would share a page with one of them (`c plus plus` beside `C++`) is written the
    /// same way, as the build refuses two spellings of one page. Files that cannot be read or
    /// parsed are left to the build to report.
    static func tagSpellings(_ folder: SiteFolder) -> [String: String] {
        var ignored: [Diagnostic] = []
        var spellings: [String: String] = [:]
        for path in folder.files(under: "content", &ignored) where path.hasSuffix(".md") {
            guard let data = folder.read("content/\(path)", &ignored), let text = String(data: data, encoding: .utf8),
                case .success(let (_, reader)) = FrontMatter.read(text, path: path)
            else { continue }
            var fields = reader
            for tag in fields.strings("tags") {
                let slug = tag.slug
                if !slug.isEmpty, spellings[slug] == nil { spellings[slug] = tag }
            }
        }
        return spellings
    }

    /// Reads the section folder `content/<section>` (which may not exist yet). A file that
    /// cannot be read stops the import; one whose front matter does not parse still takes its name.
    static func scan(_ folder: SiteFolder, section: String) throws(BuildError) -> ExistingReviews {
        var diagnostics: [Diagnostic] = []
        var taken = SiteLoader.sectionIndexNames
        var entries: [Entry] = []
        for entry in folder.entries("content/\(section)", &diagnostics) {
            let stem = entry.name.hasSuffix(".md") ? String(entry.name.dropLast(3)) : entry.name
            taken.insert(stem.lowercased())
            // A review is a file of the section, or a page bundle's index.md (one moved into a
            // folder to sit beside its poster is the same review).
            let source: String
            if entry.isFolder {
                guard let index = ReviewFile.bundleIndex(of: entry, in: folder) else { continue }
                source = index
            } else {
                guard entry.name.hasSuffix(".md"), entry.name != "_index.md" else { continue }
                source = entry.path
            }
            guard let data = folder.read(source, &diagnostics) else { continue }
            guard let text = String(data: data, encoding: .utf8),
                case .success(let (_, reader)) = FrontMatter.read(text, path: source)
            else {
                entries.append(
                    Entry(
                        source: source, title: nil, year: nil, letterboxd: nil, goodreads: nil, isbn: nil,
                        author: nil))
                continue
            }
            var fields = reader
            if let slug = fields.node("slug")?.scalarText { taken.insert(slug.lowercased()) }
            entries.append(
                Entry(
                    source: source, title: fields.node("title")?.scalarText,
                    year: fields.node("year")?.scalarText.flatMap { Int($0) },
                    letterboxd: fields.node("letterboxd")?.scalarText,
                    goodreads: fields.node("goodreads")?.scalarText,
                    isbn: fields.node("isbn")?.scalarText.flatMap(Review.isbn),
                    author: fields.node("author")?.scalarText))
        }
        guard diagnostics.isEmpty else { throw BuildError(step: "reading the section", diagnostics: diagnostics) }
        return ExistingReviews(entries: entries, takenSlugs: taken)
    }

    /// An ISBN (10 or 13 digits, as ``Review/isbn(_:)`` gives it) in its 13-digit form, so that
    /// a book's two ISBNs compare equal: an ISBN-10 becomes 978, its first nine digits, and the
    /// ISBN-13 check digit.
    static func isbn13(_ isbn: String) -> String {
        guard isbn.utf8.count == 10 else { return isbn }
        let digits = Array("978".utf8) + Array(isbn.utf8.prefix(9))
        let sum = digits.enumerated().reduce(0) { sum, pair in
            sum + Int(pair.element - UInt8(ascii: "0")) * (pair.offset % 2 == 0 ? 1 : 3)
        }
        return String(decoding: digits, as: UTF8.self) + String((10 - sum % 10) % 10)
    }

    /// The files whose front matter names `key` under `source`'s field (`letterboxd`, `goodreads`).
    func sources(naming key: String, in source: ImportSource) -> [String] {
        byID[source]?[key] ?? []
    }

    /// A review written without an import id about the same film (same title, same year when
    /// both have one) or book (same ISBN, or same title and author when both have one).
    func handWritten(sameAs item: ImportItem, source: ImportSource) -> String? {
        let isbn = item.isbn.map(Self.isbn13)
        if source == .goodreads, let isbn, let entry = byISBN[isbn] { return entry.source }
        return byTitle[item.title.nameKey]?.first { entry in
            switch source {
            case .letterboxd:
                guard let year = item.year, let other = entry.year else { return true }
                return year == other
            case .goodreads:
                if let isbn, let other = entry.isbn.map(Self.isbn13), isbn != other { return false }
                guard let author = item.author, let other = entry.author else { return true }
                return author.nameKey == other.nameKey
            }
        }?.source
    }
}
