import Mustache

/// What every presenter shares, computed once per build: formatting, links, labels,
/// the navigation, and each review's card.
public struct SiteContext: Sendable {
    public private(set) var content: SiteContent
    public let config: SiteConfig
    public let labels: Labels
    public let format: Formatter
    public let collation: Collation
    public let urls: URLs
    /// True when `sitegen serve` renders the pages.
    public let isPreview: Bool
    /// Cards by review index in `content.reviews`.
    public private(set) var cards: [ReviewCard]
    let copyrightYear: String
    /// The navigation's links and the place each one stands for.
    let navigation: [(place: Place, title: String, url: String)]
    /// Sections by folder name.
    let sectionsByName: [String: ReviewSection]
    /// The labels and each place's `site` model, encoded for templates once.
    public let sharedLabels: Precomputed<Labels>
    private var sharedSites: [Place: Precomputed<SiteModel>] = [:]

    public init(content: SiteContent, isPreview: Bool = false) {
        self.content = content
        self.config = content.config
        self.labels = Labels.for(content.config.language)
        self.format = Formatter(language: content.config.language)
        self.collation = Collation(language: content.config.language)
        self.urls = URLs(base: content.config.baseURL)
        self.isPreview = isPreview
        self.copyrightYear = content.reviews.map(\.date.year).max().map(String.init) ?? ""
        let urls = self.urls
        let labels = self.labels
        sectionsByName = Dictionary(content.sections.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var navigation: [(place: Place, title: String, url: String)] = [(.home, labels.home, urls.path(""))]
        navigation += content.sections.map { (.section($0.name), $0.title, urls.path(urls.section($0.name))) }
        if content.reviews.contains(where: { !$0.tags.isEmpty }) {
            navigation.append((.tags, labels.tags, urls.path(urls.tags())))
        }
        if content.reviews.contains(where: { !$0.genres.isEmpty }) {
            navigation.append((.genres, labels.genres, urls.path(urls.genres())))
        }
        navigation += content.pages.sorted { $0.slug < $1.slug }.map { (.page($0.slug), $0.title, urls.path($0.path)) }
        self.navigation = navigation
        sharedLabels = Precomputed(labels)

        let sections = sectionsByName.mapValues(\.title)
        let format = self.format
        self.cards = content.reviews.parallelMap { review in
            Self.card(for: review, sectionTitles: sections, urls: urls, format: format)
        }
        let places = navigation.map(\.place) + [.other]
        sharedSites = Dictionary(
            places.map { ($0, Precomputed(site(at: $0))) }, uniquingKeysWith: { first, _ in first })
    }

    /// The same context for `content`, in which only the reviews at `changed` differ.
    func updating(content: SiteContent, changed: [Int]) -> SiteContext {
        var copy = self
        copy.content = content
        let titles = sectionsByName.mapValues(\.title)
        for index in changed {
            copy.cards[index] = Self.card(
                for: content.reviews[index], sectionTitles: titles, urls: urls, format: format)
        }
        return copy
    }

    /// A review's card.
    static func card(for review: Review, sectionTitles: [String: String], urls: URLs, format: Formatter) -> ReviewCard {
        ReviewCard(
            title: review.title, url: urls.path(review.path), date: format.date(review.date),
            rating: review.rating.map(format.rating),
            summary: review.summary ?? format.excerpt(review.body.firstParagraph),
            image: image(for: review, urls: urls, format: format), year: review.year.map(String.init) ?? "",
            creator: review.creator ?? "", sectionTitle: sectionTitles[review.section] ?? review.section,
            kind: review.work.kind.rawValue)
    }

    /// The poster or cover: the smallest cached size as `src`, every size in `srcset`.
    static func image(for review: Review, urls: URLs, format: Formatter) -> ImageModel? {
        guard let images = review.metadata?.images, let first = images.first else { return nil }
        let url = { (image: CachedImage) in urls.path(MetadataEnricher.publishedPath(of: image)) }
        return ImageModel(
            url: url(first),
            srcset: images.count > 1 ? images.map { "\(url($0)) \($0.width)w" }.joined(separator: ", ") : "",
            alt: format.imageAlt(title: review.title, kind: review.work.kind), width: first.width, height: first.height)
    }

    /// Where a page sits in the navigation.
    public enum Place: Sendable, Hashable {
        case home
        case section(String)
        case tags
        case genres
        case page(String)
        case other
    }

    /// The `site` model for a page at `place`, encoded once per place.
    public func sharedSite(at place: Place) -> Precomputed<SiteModel> {
        sharedSites[place] ?? Precomputed(site(at: place))
    }

    /// The `site` model for a page at `place`.
    public func site(at place: Place) -> SiteModel {
        let nav = navigation.map { NavItem(title: $0.title, url: $0.url, current: $0.place == place) }
        return SiteModel(
            title: config.title, description: config.description, language: config.language.rawValue,
            author: config.author, rootURL: urls.path(""), feedURL: urls.path("feed.xml"),
            stylesheetURL: urls.path("assets/site.css"), copyrightYear: copyrightYear, nav: nav, isPreview: isPreview)
    }

    /// The `page` model: `<title>` (with the site's title after a page's own), description and canonical URL.
    public func head(title: String?, description: String?, path: String, kind: String, imageURL: String? = nil)
        -> PageHead
    {
        PageHead(
            title: title.map { "\($0) · \(config.title)" } ?? config.title,
            description: description.flatMap { $0.isEmpty ? nil : $0 } ?? config.description,
            canonicalURL: urls.absolute(path), imageURL: imageURL, kind: kind)
    }

    /// The section a review belongs to.
    public func section(named name: String) -> ReviewSection? {
        sectionsByName[name]
    }
}
