import Mustache

/// The parts every page model shares: the site, the fixed labels and this page's head.

/// What every template can read as `site`.
public struct SiteModel: Encodable, Sendable, Equatable {
    public let title: String
    public let description: String
    /// The `lang` attribute: `en` or `ko`.
    public let language: String
    public let author: String
    /// The site's root as a path, such as `/` or `/reviews/`.
    public let rootURL: String
    public let feedURL: String
    public let stylesheetURL: String
    /// The year of the newest review, for the footer (never the build date: builds are reproducible).
    public let copyrightYear: String
    public let nav: [NavItem]
    /// True only when `sitegen serve` renders the page (never in built files).
    public let isPreview: Bool
}

/// A link in the main navigation.
public struct NavItem: Encodable, Sendable, Equatable {
    public let title: String
    public let url: String
    public let current: Bool
}

/// What every template can read as `page`: the document head.
public struct PageHead: Encodable, Sendable, Equatable {
    /// The full `<title>` text.
    public let title: String
    public let description: String
    /// The absolute URL of this page.
    public let canonicalURL: String
    /// An absolute image URL for link previews (the poster or cover), or nil.
    public let imageURL: String?
    /// A word for the `<body class>`: `home`, `review`, `section`, `tags`, `tag`, `page`, `not-found`.
    public let kind: String
}

/// A formatted date: `iso` for `datetime=`, `display` for people.
public struct DateModel: Encodable, Sendable, Equatable {
    public let iso: String
    public let display: String
}

/// A rating ready to show: `stars` like ★★★★½ and `label` for screen readers.
public struct RatingModel: Encodable, Sendable, Equatable {
    public let stars: String
    /// "4.5 out of 5 stars" / "별 5개 중 4.5개".
    public let label: String
    /// "4.5".
    public let value: String
}

/// A poster or cover image.
public struct ImageModel: Encodable, Sendable, Equatable {
    public let url: String
    /// A `srcset` value listing the sizes available, or empty.
    public let srcset: String
    public let alt: String
    public let width: Int
    public let height: Int
}

/// A link with a title.
public struct LinkModel: Encodable, Sendable, Equatable {
    public let title: String
    public let url: String
}

/// A tag (or genre) with its page.
public struct TagLink: Encodable, Sendable, Equatable {
    public let name: String
    public let url: String
}

/// A review as it appears in lists and grids. A card appears on many pages, so its
/// template value is made once, when the card is.
public struct ReviewCard: Encodable, Sendable, Equatable, ValueRepresentable {
    public let title: String
    public let url: String
    public let date: DateModel
    public let rating: RatingModel?
    public let summary: String
    public let image: ImageModel?
    /// Release or publication year, or empty.
    public let year: String
    /// Director or author, or empty.
    public let creator: String
    public let sectionTitle: String
    /// `movie` or `book`.
    public let kind: String
    public private(set) var templateValue: Value = .null

    public init(
        title: String, url: String, date: DateModel, rating: RatingModel?, summary: String, image: ImageModel?,
        year: String, creator: String, sectionTitle: String, kind: String
    ) {
        self.title = title
        self.url = url
        self.date = date
        self.rating = rating
        self.summary = summary
        self.image = image
        self.year = year
        self.creator = creator
        self.sectionTitle = sectionTitle
        self.kind = kind
        templateValue = (try? ValueEncoder().encode(self)) ?? .null
    }

    enum CodingKeys: String, CodingKey {
        case title, url, date, rating, summary, image, year, creator, sectionTitle, kind
    }

    /// Equal fields; the template value follows from them.
    public static func == (lhs: ReviewCard, rhs: ReviewCard) -> Bool {
        (lhs.title, lhs.url, lhs.summary, lhs.year) == (rhs.title, rhs.url, rhs.summary, rhs.year)
            && (lhs.creator, lhs.sectionTitle, lhs.kind) == (rhs.creator, rhs.sectionTitle, rhs.kind)
            && lhs.date == rhs.date && lhs.rating == rhs.rating && lhs.image == rhs.image
    }
}

/// A heading over a run of reviews in an index: a month, an initial, a rating or a year.
public struct ReviewGroup: Encodable, Sendable, Equatable {
    public let heading: String
    /// A fragment id for the heading, unique on the page.
    public let id: String
    public let reviews: [ReviewCard]
}
