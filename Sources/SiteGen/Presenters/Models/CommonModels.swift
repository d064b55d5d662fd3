import Mustache

/// The parts every page model shares: the site, the fixed labels and this page's head.

/// What every template can read as `site`.
public struct SiteModel: Encodable, Sendable, Equatable {
    public let title: String
    public let description: String
    /// The `lang` attribute of the site's own words (`en`, `ko`…).
    public let language: String
    public let author: String
    /// The site's root as a path, such as `/` or `/reviews/`.
    public let rootURL: String
    public let feedURL: String
    public let stylesheetURL: String
    /// `assets/menu.js`, which closes the phone menu with Escape or when focus leaves it.
    public let menuScriptURL: String
    /// The search page and the stats page.
    public let searchURL: String
    /// True on the search page (its link in the navigation is the page itself).
    public let isSearch: Bool
    public let statsURL: String
    /// The year of the newest review, for the footer (never the build date: builds are reproducible).
    public let copyrightYear: String
    /// Whom the footer's copyright names: the author, else (no author set) the site's title.
    public let copyrightHolder: String
    public let nav: [NavItem]
    /// True only when `sitegen serve` renders the page (never in built files).
    public let isPreview: Bool
}

/// A link in the main navigation.
public struct NavItem: Encodable, Sendable, Equatable {
    public let title: String
    public let url: String
    /// True on the page the link leads to and on the pages within it (a section's reviews).
    public let current: Bool
    /// The `aria-current` value: "page" on the page the link leads to, "true" on a page
    /// within it (a review of the section, its page 2), nil elsewhere.
    public let ariaCurrent: String?
}

/// What every template can read as `page`: the document head.
public struct PageHead: Sendable, Equatable, ValueRepresentable {
    /// The full `<title>` text.
    public let title: String
    public let description: String
    /// The absolute URL of this page.
    public let canonicalURL: String
    /// Whether the page is the one at its address (false for the not-found page, shown anywhere).
    public let isCanonical: Bool
    /// A word for the `<body class>`: `home`, `review`, `section`, `tags`, `tag`, `page`, `not-found`.
    public let kind: String
    /// The page's main language, for `<html lang>`.
    public let language: String
    /// The image for link previews: the poster or cover, else the site's `image`.
    public let image: SocialImage?
    /// schema.org JSON-LD, safe inside `<script>`, or nil.
    public let structuredData: String?
    /// Feeds for this page besides the site's own (its section's, its tag's).
    public let feeds: [LinkModel]

    public var templateValue: Value {
        .members([
            "title": .string(title), "description": .string(description), "canonicalURL": .string(canonicalURL),
            "isCanonical": .bool(isCanonical), "kind": .string(kind), "language": .string(language),
            "image": Value(image), "imageURL": Value(image?.url), "structuredData": Value(structuredData),
            "feeds": Value(feeds),
        ])
    }
}

/// An image for link previews (Open Graph, Twitter cards): an absolute URL and its size.
public struct SocialImage: Sendable, Equatable, ValueRepresentable {
    public let url: String
    public let width: Int
    public let height: Int
    public let alt: String

    public var templateValue: Value {
        .members(["url": .string(url), "width": .int(width), "height": .int(height), "alt": .string(alt)])
    }
}

/// A formatted date: `iso` for `datetime=`, `display` for people.
public struct DateModel: Sendable, Equatable, ValueRepresentable {
    public let iso: String
    public let display: String

    public var templateValue: Value {
        .members(["iso": .string(iso), "display": .string(display)])
    }
}

/// A rating ready to show: `stars` like ★★★★½ and `label` for screen readers.
public struct RatingModel: Sendable, Equatable, ValueRepresentable {
    public let stars: String
    /// "4.5 out of 5 stars" / "별 5개 중 4.5개".
    public let label: String
    /// "4.5".
    public let value: String

    public var templateValue: Value {
        .members(["stars": .string(stars), "label": .string(label), "value": .string(value)])
    }
}

/// A poster or cover image.
public struct ImageModel: Sendable, Equatable, ValueRepresentable {
    public let url: String
    /// A `srcset` value listing the sizes available, or empty.
    public let srcset: String
    /// A `srcset` of the same sizes in WebP, for a `<source type="image/webp">`, or empty.
    public let webpSrcset: String
    public let alt: String
    public let width: Int
    public let height: Int

    public var templateValue: Value {
        .members([
            "url": .string(url), "srcset": .string(srcset), "webpSrcset": .string(webpSrcset), "alt": .string(alt),
            "width": .int(width), "height": .int(height),
        ])
    }
}

/// A link with a title, and the title's language.
public struct LinkModel: Sendable, Equatable, ValueRepresentable {
    public let title: String
    public let url: String
    public let language: String?

    public init(title: String, url: String, language: String? = nil) {
        self.title = title
        self.url = url
        self.language = language
    }

    public var templateValue: Value {
        .members(["title": .string(title), "url": .string(url), "language": Value(language)])
    }
}

/// A tag (or genre) with its page, and its name's language.
public struct TagLink: Sendable, Equatable, ValueRepresentable {
    public let name: String
    public let url: String
    public let language: String

    public var templateValue: Value {
        .members(["name": .string(name), "url": .string(url), "language": .string(language)])
    }
}

/// A review as it appears in lists and grids. A card appears on many pages, so its
/// template value is made once, when the card is, and both are kept in one shared box
/// (handing a card to a page costs one reference, not one per field); two cards are equal
/// when their fields are.
@dynamicMemberLookup
public struct ReviewCard: Sendable, Equatable, ValueRepresentable {
    /// What the card shows.
    public struct Fields: Sendable, Equatable {
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
        /// The language of the review's text (its summary).
        public let language: String
        /// The languages of the title and the creator's name, by their script.
        public let titleLanguage: String
        public let creatorLanguage: String
    }

    private final class Box: Sendable {
        let fields: Fields
        let templateValue: Value

        init(_ fields: Fields, _ templateValue: Value) {
            self.fields = fields
            self.templateValue = templateValue
        }
    }

    private let box: Box

    public var fields: Fields { box.fields }
    public var templateValue: Value { box.templateValue }

    public init(_ fields: Fields) {
        // Kept renderings: each partial that shows a card is rendered once per card.
        let templateValue: Value = .members(
            [
                "title": .string(fields.title), "url": .string(fields.url), "date": fields.date.templateValue,
                "rating": Value(fields.rating), "summary": .string(fields.summary), "image": Value(fields.image),
                "year": .string(fields.year), "creator": .string(fields.creator),
                "sectionTitle": .string(fields.sectionTitle), "kind": .string(fields.kind),
                "language": .string(fields.language), "titleLanguage": .string(fields.titleLanguage),
                "creatorLanguage": .string(fields.creatorLanguage),
            ], keepsRenderings: true)
        box = Box(fields, templateValue)
    }

    public subscript<Property>(dynamicMember keyPath: KeyPath<Fields, Property>) -> Property {
        box.fields[keyPath: keyPath]
    }

    public static func == (lhs: ReviewCard, rhs: ReviewCard) -> Bool {
        lhs.box === rhs.box || lhs.fields == rhs.fields
    }
}

/// A heading over a run of reviews in an index: a month, an initial, a rating or a year.
public struct ReviewGroup: Sendable, Equatable, ValueRepresentable {
    public let heading: String
    /// A fragment id for the heading, unique on the page.
    public let id: String
    public let reviews: [ReviewCard]
    /// The heading's language (a Hangul initial is Korean).
    public let language: String

    public var templateValue: Value {
        .members([
            "heading": .string(heading), "id": .string(id), "reviews": Value(reviews), "language": .string(language),
        ])
    }
}
