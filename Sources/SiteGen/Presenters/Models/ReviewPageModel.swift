import Mustache

/// The page of one review (`review.mustache`).
public struct ReviewPageModel: PageModel, Equatable {
    public let site: Precomputed<SiteModel>
    public let labels: Precomputed<Labels>
    public let page: PageHead
    public let review: ReviewModel
    public let previous: LinkModel?
    public let next: LinkModel?
    public let related: [ReviewCard]

    /// Whether there is a previous or next review, to show the navigation at all.
    public var hasNeighbours: Bool { previous != nil || next != nil }
    public var hasRelated: Bool { !related.isEmpty }

    enum CodingKeys: String, CodingKey {
        case site, labels, page, review, previous, next, related, hasNeighbours, hasRelated
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(site, forKey: .site)
        try container.encode(labels, forKey: .labels)
        try container.encode(page, forKey: .page)
        try container.encode(review, forKey: .review)
        try container.encode(previous, forKey: .previous)
        try container.encode(next, forKey: .next)
        try container.encode(related, forKey: .related)
        try container.encode(hasNeighbours, forKey: .hasNeighbours)
        try container.encode(hasRelated, forKey: .hasRelated)
    }
}

/// One review with everything the page shows.
public struct ReviewModel: Encodable, Sendable, Equatable {
    public let title: String
    public let originalTitle: String?
    /// The `lang` of the review's own text (front matter `language`, else the site's).
    public let language: String
    public let url: String
    public let section: LinkModel
    /// `movie` or `book`, and the same as two flags for sections.
    public let kind: String
    public let isMovie: Bool
    public let isBook: Bool
    public let date: DateModel
    public let rating: RatingModel?
    public let summary: String
    /// The review body as HTML.
    public let html: String
    /// "4 min read" / "4분 분량".
    public let readingTime: String
    /// Release or publication year, or empty.
    public let year: String
    /// Director or author, or empty.
    public let creator: String
    /// The synopsis from fetched metadata, or nil.
    public let overview: String?
    /// Label/value rows for the "Details" section (director, author, runtime, pages…).
    public let details: [DetailRow]
    public let image: ImageModel?
    public let tags: [TagLink]
    public let genres: [TagLink]
    /// Whether the "Details" section has anything to show.
    public let hasDetails: Bool
    public let hasGenres: Bool
    public let hasTags: Bool
    /// Front matter keys sitegen does not know, as written.
    public let extra: Value
}

/// One row of a details list.
public struct DetailRow: Encodable, Sendable, Equatable {
    public let label: String
    public let value: String
}
