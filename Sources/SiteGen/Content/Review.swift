import CommonMark
import Mustache

/// One review as written: front matter in typed fields, and the rendered body.
public struct Review: Sendable, Equatable {
    /// The file, relative to the site folder: `content/movies/parasite.md`.
    public let source: String
    /// The section folder: `movies`.
    public let section: String
    public let slug: String
    public let title: String
    public let date: Day
    public let rating: Rating?
    public let tags: [String]
    public let draft: Bool
    public let summary: String?
    /// The language of the review's text, when it differs from the site's.
    public let language: String?
    public let work: Work
    /// Front matter keys sitegen does not know, for templates.
    public let extra: [String: Value]
    public let body: RenderedMarkdown
    /// Fetched facts about the film or book, from the metadata cache (front matter wins).
    public let metadata: WorkMetadata?
    /// Where each tag was written, for messages about tags.
    public let tagLocations: [SourceLocation]
    /// When the review was last changed (front matter `updated`), for feeds.
    public let updated: Day?
    /// Links in the body to other files of the site by their path (`../books/stoner.md`).
    public let sourceLinks: [SourceLink]
    /// Its own poster or cover (front matter `image`), which wins over fetched ones.
    public let image: ReviewImage?

    /// The output folder relative to the site root: `movies/parasite/`.
    public var path: String { "\(section)/\(slug)/" }

    public init(
        source: String, section: String, slug: String, title: String, date: Day, rating: Rating?,
        tags: [String], draft: Bool, summary: String?, language: String?, work: Work,
        extra: [String: Value], body: RenderedMarkdown, metadata: WorkMetadata? = nil,
        tagLocations: [SourceLocation] = [], updated: Day? = nil, sourceLinks: [SourceLink] = [],
        image: ReviewImage? = nil
    ) {
        self.source = source
        self.section = section
        self.slug = slug
        self.title = title
        self.date = date
        self.rating = rating
        self.tags = tags
        self.draft = draft
        self.summary = summary
        self.language = language
        self.work = work
        self.extra = extra
        self.body = body
        self.metadata = metadata
        self.tagLocations = tagLocations
        self.updated = updated
        self.sourceLinks = sourceLinks
        self.image = image
    }

    /// The same review with `metadata` attached.
    public func with(metadata: WorkMetadata?) -> Review {
        Review(
            source: source, section: section, slug: slug, title: title, date: date, rating: rating, tags: tags,
            draft: draft, summary: summary, language: language, work: work, extra: extra, body: body,
            metadata: metadata, tagLocations: tagLocations, updated: updated, sourceLinks: sourceLinks,
            image: image)
    }

    /// The same review with `image` (its published sizes) attached.
    public func with(image: ReviewImage?) -> Review {
        Review(
            source: source, section: section, slug: slug, title: title, date: date, rating: rating, tags: tags,
            draft: draft, summary: summary, language: language, work: work, extra: extra, body: body,
            metadata: metadata, tagLocations: tagLocations, updated: updated, sourceLinks: sourceLinks,
            image: image)
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
