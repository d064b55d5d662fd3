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

    public var templateValue: Value {
        .members([
            "site": site.templateValue, "labels": labels.templateValue, "page": page.templateValue,
            "review": review.templateValue, "previous": Value(previous), "next": Value(next),
            "related": Value(related), "hasNeighbours": .bool(previous != nil || next != nil),
            "hasRelated": .bool(!related.isEmpty),
        ])
    }
}

/// One review with everything the page shows.
public struct ReviewModel: Sendable, Equatable, ValueRepresentable {
    public let title: String
    public let originalTitle: String?
    /// The `lang` of the review's own text (front matter `language`, else the site's).
    public let language: String
    /// The languages of the title, the original title, the creator's name and the overview.
    public let titleLanguage: String
    public let originalTitleLanguage: String
    public let creatorLanguage: String
    public let overviewLanguage: String
    public let url: String
    public let section: LinkModel
    /// `movie` or `book`, and the same as two flags for sections.
    public let kind: String
    public let date: DateModel
    public let rating: RatingModel?
    public let summary: String
    /// The review body as HTML.
    public let html: String
    /// Whether the body shows anything: words, or an element such as an image (not only white
    /// space, empty paragraphs, comments or raw HTML left out), so the page gives it a "Review" part.
    public let hasBody: Bool
    /// "4 min read" / "4분 분량"; empty when the review has no words.
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
    /// Front matter keys sitegen does not know, as written.
    public let extra: Value
    /// Whether the review is of a rewatch (front matter `rewatch`).
    public let rewatch: Bool

    public var templateValue: Value {
        .members([
            "title": .string(title), "originalTitle": Value(originalTitle), "language": .string(language),
            "titleLanguage": .string(titleLanguage), "originalTitleLanguage": .string(originalTitleLanguage),
            "creatorLanguage": .string(creatorLanguage), "overviewLanguage": .string(overviewLanguage),
            "url": .string(url), "section": section.templateValue, "kind": .string(kind),
            "isMovie": .bool(kind == WorkKind.movie.rawValue), "isBook": .bool(kind == WorkKind.book.rawValue),
            "date": date.templateValue, "rating": Value(rating), "summary": .string(summary), "html": .string(html),
            "hasBody": .bool(hasBody),
            "readingTime": .string(readingTime), "year": .string(year), "creator": .string(creator),
            "overview": Value(overview), "details": Value(details), "image": Value(image), "tags": Value(tags),
            "genres": Value(genres), "hasDetails": .bool(!details.isEmpty || !genres.isEmpty),
            "hasGenres": .bool(!genres.isEmpty), "hasTags": .bool(!tags.isEmpty), "extra": extra,
            "rewatch": .bool(rewatch),
        ])
    }
}

/// One row of a details list, and its value's language.
public struct DetailRow: Sendable, Equatable, ValueRepresentable {
    public let label: String
    public let value: String
    public let language: String

    public var templateValue: Value {
        .members(["label": .string(label), "value": .string(value), "language": .string(language)])
    }
}
