import CommonMark
import Mustache

/// One review as written: front matter in typed fields, and the rendered body.
///
/// Its fields live in one shared, immutable box, so a copy (every list, presenter and index
/// passes reviews around) costs one reference count, not one per field.
public struct Review: Sendable, Equatable {
    /// The stored fields; `Review`'s properties read them.
    ///
    /// Every review of a site keeps one box of them, allocated in tcmalloc's size class of 768
    /// bytes (the box's header and these fields): eight bytes more moved every box to the next
    /// class, and a build of 10,000 reviews peaked 8 MB higher (246 MB against 238 MB,
    /// measured). `ReviewLayoutTests` says when a change crosses that line.
    struct Fields: Sendable, Equatable {
        let source: String
        let section: String
        let slug: String
        let title: String
        let date: Day
        let rating: Rating?
        // Beside the rating's nine bytes, so as not to take eight of its own.
        let draft: Bool
        /// Where the `slug` key's value is written (line and column), 0 when the slug is the file's name.
        let slugLine: Int32
        let slugColumn: Int32
        let tags: [String]
        let summary: String?
        let language: String?
        let work: Work
        let extra: [String: Value]
        let body: RenderedMarkdown
        var metadata: WorkMetadata?
        let tagLocations: [SourceLocation]
        let updated: Day?
        let sourceLinks: [SourceLink]
        var image: ReviewImage?
        /// The output paths of a page bundle's other files, published beside its page.
        var bundleFiles: [String] = []
    }

    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private let box: Box
    var fields: Fields { box.fields }

    /// The file, relative to the site folder: `content/movies/parasite.md`.
    public var source: String { box.fields.source }
    /// The section folder: `movies`.
    public var section: String { box.fields.section }
    public var slug: String { box.fields.slug }
    /// Where the slug comes from, for messages about the review's address: its `slug` key's
    /// value, else the file (its name is the slug).
    public var slugLocation: SourceLocation {
        SourceLocation(
            path: source, line: max(1, Int(box.fields.slugLine)), column: max(1, Int(box.fields.slugColumn)))
    }
    public var title: String { box.fields.title }
    public var date: Day { box.fields.date }
    public var rating: Rating? { box.fields.rating }
    public var tags: [String] { box.fields.tags }
    public var draft: Bool { box.fields.draft }
    public var summary: String? { box.fields.summary }
    /// The language of the review's text, when it differs from the site's.
    public var language: String? { box.fields.language }
    public var work: Work { box.fields.work }
    /// Front matter keys sitegen does not know, for templates.
    public var extra: [String: Value] { box.fields.extra }
    public var body: RenderedMarkdown { box.fields.body }
    /// Fetched facts about the film or book, from the metadata cache (front matter wins).
    public var metadata: WorkMetadata? { box.fields.metadata }
    /// Where each tag was written, for messages about tags.
    public var tagLocations: [SourceLocation] { box.fields.tagLocations }
    /// When the review was last changed (front matter `updated`), for feeds.
    public var updated: Day? { box.fields.updated }
    /// Links in the body to other files of the site by their path (`../books/stoner.md`).
    public var sourceLinks: [SourceLink] { box.fields.sourceLinks }
    /// Its own poster or cover (front matter `image`), which wins over fetched ones.
    public var image: ReviewImage? { box.fields.image }
    /// Where its page bundle's other files are published (output paths, beside its page);
    /// none for a review that is not a bundle, or before the image step.
    public var bundleFiles: [String] { box.fields.bundleFiles }

    public static func == (lhs: Review, rhs: Review) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    /// The output folder relative to the site root: `movies/parasite/`.
    public var path: String { "\(section)/\(slug)/" }

    public init(
        source: String, section: String, slug: String, title: String, date: Day, rating: Rating?,
        tags: [String], draft: Bool, summary: String?, language: String?, work: Work,
        extra: [String: Value], body: RenderedMarkdown, metadata: WorkMetadata? = nil,
        tagLocations: [SourceLocation] = [], updated: Day? = nil, sourceLinks: [SourceLink] = [],
        image: ReviewImage? = nil, slugLocation: SourceLocation? = nil
    ) {
        box = Box(
            Fields(
                source: source, section: section, slug: slug, title: title, date: date, rating: rating,
                draft: draft, slugLine: Int32(clamping: slugLocation?.line ?? 0),
                slugColumn: Int32(clamping: slugLocation?.column ?? 0), tags: tags,
                summary: summary, language: language, work: work, extra: extra, body: body,
                metadata: metadata, tagLocations: tagLocations, updated: updated, sourceLinks: sourceLinks,
                image: image))
    }

    private init(_ fields: Fields) {
        box = Box(fields)
    }

    /// The same review with `metadata` attached.
    public func with(metadata: WorkMetadata?) -> Review {
        var fields = fields
        fields.metadata = metadata
        // Genres that share a page (`Drama` and `drama`, edited into an entry by hand): the
        // first of them, as fetch keeps them, so that a page shows one chip per genre page.
        if let genres = metadata?.genres, genres.count > 1 {
            var slugs: Set<String> = []
            let kept = genres.filter { slugs.insert($0.slug).inserted }
            if kept.count < genres.count { fields.metadata?.genres = kept }
        }
        return Review(fields)
    }

    /// The same review with `image` (its published sizes) attached.
    public func with(image: ReviewImage?) -> Review {
        var fields = fields
        fields.image = image
        return Review(fields)
    }

    /// The same review with its page bundle's files published at `bundleFiles` (output paths).
    func with(bundleFiles: [String]) -> Review {
        var fields = fields
        fields.bundleFiles = bundleFiles
        return Review(fields)
    }

    /// The release or publication year: front matter, else fetched metadata.
    public var year: Int? { work.year ?? metadata?.year }

    /// The director(s), author(s) or a series' creator(s): front matter, else fetched metadata.
    public var creator: String? {
        if let creator = work.creator { return creator }
        let names = creators
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }

    /// The director(s), author(s) or a series' creator(s) as front matter or fetched metadata names them.
    public var creators: [String] {
        if let creator = work.creator { return [creator] }
        return switch work.kind {
        case .movie: metadata?.directors ?? []
        case .book: metadata?.authors ?? []
        case .tv: metadata?.series?.creators ?? []
        }
    }

    /// The genres from fetched metadata.
    public var genres: [String] { metadata?.genres ?? [] }
}

/// Whether a section holds films, books or TV series.
public enum WorkKind: String, Sendable, CaseIterable {
    case movie
    case book
    case tv
}

/// The film or book a review is about, as the front matter describes it.
public struct Work: Sendable, Equatable {
    public let kind: WorkKind
    /// Release or publication year.
    public let year: Int?
    public let originalTitle: String?
    /// The director, the author or a series' creator.
    public let creator: String?
    public let tmdbID: Int?
    public let isbn: String?
    public let publisher: String?
    /// The film's Letterboxd URI (front matter `letterboxd`), kept by `sitegen import letterboxd`.
    public let letterboxd: String?
    /// The book's Goodreads id (front matter `goodreads`), kept by `sitegen import goodreads`.
    public let goodreads: Int?
    /// Whether the review is of a second (or later) viewing (front matter `rewatch`).
    public let rewatch: Bool

    public init(
        kind: WorkKind, year: Int? = nil, originalTitle: String? = nil, creator: String? = nil,
        tmdbID: Int? = nil, isbn: String? = nil, publisher: String? = nil, letterboxd: String? = nil,
        goodreads: Int? = nil, rewatch: Bool = false
    ) {
        self.kind = kind
        self.year = year
        self.originalTitle = originalTitle
        self.creator = creator
        self.tmdbID = tmdbID
        self.isbn = isbn
        self.publisher = publisher
        self.letterboxd = letterboxd
        self.goodreads = goodreads
        self.rewatch = rewatch
    }
}
