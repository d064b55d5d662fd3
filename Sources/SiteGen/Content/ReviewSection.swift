import CommonMark
import Mustache
import YAML

/// A folder of reviews under `content/`, described by its optional `_index.md`.
public struct ReviewSection: Sendable, Equatable {
    public let name: String
    public let title: String
    public let kind: WorkKind
    /// The `_index.md` body as HTML.
    public let introHTML: String
    /// The order of the section's main page.
    public let defaultSort: SortOrder
    /// Lower comes first in the navigation; then by name.
    public let weight: Int
    /// Links in the intro to other files of the site by their path (`parasite.md`).
    public let sourceLinks: [SourceLink]

    public init(
        name: String, title: String, kind: WorkKind, introHTML: String = "", defaultSort: SortOrder = .date,
        weight: Int = 0, sourceLinks: [SourceLink] = []
    ) {
        self.name = name
        self.title = title
        self.kind = kind
        self.introHTML = introHTML
        self.defaultSort = defaultSort
        self.weight = weight
        self.sourceLinks = sourceLinks
    }

    /// Reads `_index.md` (nil when the section has none), its links rewritten by `links`: the
    /// section (when there is no error) and the problems found, errors and warnings.
    static func read(
        name: String, index: (text: String, source: String)?, allowRawHTML: Bool, links: MarkdownLinks
    ) -> (ReviewSection?, [Diagnostic]) {
        let defaultKind = defaultKind(name)
        let fallbackTitle = fallbackTitle(name)
        guard let index else {
            guard let defaultKind else {
                let message =
                    "section \"\(name)\" needs a kind: add content/\(name)/_index.md with \"kind: movie\", \"kind: book\" or \"kind: tv\""
                return (nil, [Diagnostic(message, at: SourceLocation(path: "content/\(name)", line: 1, column: 1))])
            }
            return (ReviewSection(name: name, title: fallbackTitle, kind: defaultKind), [])
        }
        // An empty file (`touch _index.md`, a byte-order mark, blank lines) says nothing: the defaults.
        if index.text.unicodeScalars.allSatisfy({ $0 == "\u{FEFF}" || $0.properties.isWhitespace }) {
            guard let defaultKind else {
                let message =
                    "empty: section \"\(name)\" needs front matter saying its kind (\"kind: movie\", \"kind: book\""
                    + " or \"kind: tv\", between \"---\" lines)"
                return (nil, [Diagnostic(message, at: SourceLocation(path: index.source, line: 1, column: 1))])
            }
            return (ReviewSection(name: name, title: fallbackTitle, kind: defaultKind), [])
        }
        let front: FrontMatter
        var reader: FieldReader
        switch FrontMatter.read(index.text, path: index.source) {
        case .success(let parsed): (front, reader) = parsed
        case .failure(let problems): return (nil, problems.diagnostics)
        }
        reader.rejectUnknownKeys(["title", "kind", "sort", "weight"], of: "_index.md")
        let title = reader.string("title", nonBlank: true) ?? fallbackTitle
        let kind = reader.choice("kind", from: WorkKind.allCases.map(\.rawValue)).flatMap(WorkKind.init(rawValue:))
        let sort = reader.choice("sort", from: SortOrder.allCases.map(\.rawValue)).flatMap(SortOrder.init(rawValue:))
        let weight = reader.integer("weight", in: -1000...1000) ?? 0
        if kind == nil && defaultKind == nil && reader.diagnostics.isEmpty {
            reader.report(
                "missing \"kind\": say \"kind: movie\", \"kind: book\" or \"kind: tv\"",
                at: TextPosition(line: 1, column: 1))
        }
        guard reader.diagnostics.isEmpty, let kind = kind ?? defaultKind else { return (nil, reader.diagnostics) }
        // Shown on every page and order of the section (and on the home page): its relative
        // links are written against the section's folder.
        let (intro, sourceLinks) = links.render(
            front, source: index.source, allowRawHTML: allowRawHTML, shownIn: "\(name)/")
        let omitted =
            allowRawHTML
            ? nil
            : Diagnostic.rawHTMLOmitted(in: intro, body: front.body, path: index.source, firstLine: front.bodyFirstLine)
        return (
            ReviewSection(
                name: name, title: title, kind: kind, introHTML: intro.html, defaultSort: sort ?? .date,
                weight: weight, sourceLinks: sourceLinks), omitted.map { [$0] } ?? []
        )
    }
}

extension ReviewSection {
    /// The kind of a section folder named `name` without `_index.md`, if it has one.
    static func defaultKind(_ name: String) -> WorkKind? {
        switch name {
        case "movies", "films": .movie
        case "books": .book
        case "tv", "series": .tv
        default: nil
        }
    }

    /// The title of a section folder named `name` whose `_index.md` gives none.
    static func fallbackTitle(_ name: String) -> String {
        name == "tv" ? "TV" : name.prefix(1).uppercased() + name.dropFirst()
    }

    /// What a section whose `_index.md` has errors is taken for while its reviews are checked,
    /// so that their errors are reported with the file's (the build fails on both): of the
    /// kind the file says, if it says one that can be read, else of the folder's default kind;
    /// nil when neither is known.
    static func standIn(name: String, index: (text: String, source: String)?) -> ReviewSection? {
        var kind = defaultKind(name)
        if let index, case .success(let (_, found)) = FrontMatter.read(index.text, path: index.source) {
            var reader = found
            if let said = reader.choice("kind", from: WorkKind.allCases.map(\.rawValue)).flatMap(WorkKind.init) {
                kind = said
            }
        }
        return kind.map { ReviewSection(name: name, title: fallbackTitle(name), kind: $0) }
    }
}

/// The orders a section can be listed in.
public enum SortOrder: String, Sendable, CaseIterable {
    /// Newest review first, grouped by month.
    case date
    /// By title in the site language's collation, grouped by initial.
    case title
    /// Highest rating first, grouped by rating.
    case rating
    /// By release or publication year, newest first.
    case year
}
