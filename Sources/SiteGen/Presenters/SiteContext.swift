import Mustache

/// What every presenter shares and what changes only with the site's settings, sections or
/// plain pages: formatting, collation, links, labels, the navigation, and the `site` model
/// of each place, made into template values once.
public struct SiteContext: Sendable {
    public let config: SiteConfig
    public let sections: [ReviewSection]
    public let pages: [Page]
    public let labels: Labels
    public let format: Formatter
    public let collation: Collation
    public let urls: URLs
    /// What the reviews' cards read of all this.
    let cardSettings: CardSettings
    /// True when `sitegen serve` renders the pages.
    public let isPreview: Bool
    /// The year of the newest review, for the footer.
    let copyrightYear: String
    /// The navigation's links and the place each one stands for.
    let navigation: [(place: Place, title: String, url: String)]
    /// Sections by folder name.
    let sectionsByName: [String: ReviewSection]
    /// The labels and each place's `site` model, made into template values once.
    public let sharedLabels: Precomputed<Labels>
    private let sharedSites: [Spot: Precomputed<SiteModel>]

    /// What the context depends on beyond the content's settings: whether any review has
    /// tags or genres (the navigation links to them) and the newest review's year.
    struct Facts: Sendable, Equatable {
        var hasTags: Bool
        var hasGenres: Bool
        var newestYear: Int?

        init(hasTags: Bool, hasGenres: Bool, newestYear: Int?) {
            self.hasTags = hasTags
            self.hasGenres = hasGenres
            self.newestYear = newestYear
        }

        init(_ reviews: some Collection<Review>) {
            hasTags = reviews.contains { !ReviewKey.names($0.tags).isEmpty }
            hasGenres = reviews.contains { !ReviewKey.names($0.genres).isEmpty }
            newestYear = reviews.map(\.date.year).max()
        }
    }

    let facts: Facts
    /// The site's own preview image (`image` in `site.yml`), for pages without one.
    let siteImage: SocialImage?
    /// Whether `static/` has a `robots.txt` (else one is written).
    let hasOwnRobots: Bool

    init(
        config: SiteConfig, sections: [ReviewSection], pages: [Page], facts: Facts, isPreview: Bool,
        siteImage: SocialImage? = nil, hasOwnRobots: Bool = false
    ) {
        self.config = config
        self.siteImage = siteImage
        self.hasOwnRobots = hasOwnRobots
        self.sections = sections
        self.pages = pages
        self.facts = facts
        self.labels = Labels.for(config.language, overrides: config.labels)
        self.format = Formatter(
            language: config.language, phrases: Phrases.for(config.language, overrides: config.labels))
        self.collation = Collation(language: config.language)
        self.urls = URLs(base: config.baseURL)
        cardSettings = CardSettings(format: format, urls: urls, sections: sections)
        self.isPreview = isPreview
        self.copyrightYear = facts.newestYear.map(String.init) ?? ""
        let urls = self.urls
        let labels = self.labels
        sectionsByName = Dictionary(sections.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var navigation: [(place: Place, title: String, url: String)] = [(.home, labels.home, urls.path(""))]
        navigation += sections.map { (.section($0.name), $0.title, urls.path(urls.section($0.name))) }
        if facts.hasTags { navigation.append((.tags, labels.tags, urls.path(urls.tags()))) }
        if facts.hasGenres { navigation.append((.genres, labels.genres, urls.path(urls.genres()))) }
        navigation += pages.sorted { $0.slug < $1.slug }.map { (.page($0.slug), $0.title, urls.path($0.path)) }
        self.navigation = navigation
        sharedLabels = Precomputed(labels)
        let spots =
            navigation.flatMap { [Spot(place: $0.place, isItself: true), Spot(place: $0.place, isItself: false)] }
            + [Spot(place: .search, isItself: true), Spot(place: .other, isItself: true)]
        var sites: [Spot: Precomputed<SiteModel>] = [:]
        for spot in spots where sites[spot] == nil {
            sites[spot] = Precomputed(
                Self.site(
                    at: spot, config: config, urls: urls, copyrightYear: copyrightYear, navigation: navigation,
                    isPreview: isPreview))
        }
        sharedSites = sites
    }

    /// Where a page sits in the navigation.
    public enum Place: Sendable, Hashable {
        case home
        case section(String)
        case tags
        case genres
        case page(String)
        case search
        case other
    }

    /// A place, and whether the page is the one its link leads to (a section's main page) or a
    /// page within it (a review of the section, its page 2, a tag's page).
    struct Spot: Hashable {
        let place: Place
        let isItself: Bool
    }

    /// The `site` model for a page at `place`, made once per place: `isItself` when the page
    /// is the one the navigation links to for `place`, false for a page within it.
    public func sharedSite(at place: Place, isItself: Bool = true) -> Precomputed<SiteModel> {
        sharedSites[Spot(place: place, isItself: isItself)] ?? sharedSites[Spot(place: .other, isItself: true)]!
    }

    /// The `page` model: `<title>` (with the site's title after a page's own), description,
    /// canonical URL, language, preview image (the site's own when the page has none),
    /// structured data (JSON-LD, as ``JSONLDWriter`` writes it) and feeds.
    func head(
        title: String?, description: String?, path: String, kind: String, language: String? = nil,
        image: SocialImage? = nil, structuredData: String? = nil, feeds: [LinkModel] = [],
        isCanonical: Bool = true
    ) -> PageHead {
        PageHead(
            title: title.map { "\($0) · \(config.title)" } ?? config.title,
            description: description.flatMap { $0.isEmpty ? nil : $0 } ?? config.description,
            canonicalURL: urls.absolute(path), isCanonical: isCanonical, kind: kind,
            language: language ?? config.language.rawValue, image: image ?? siteImage,
            structuredData: structuredData, feeds: feeds)
    }

    /// The section a review belongs to.
    public func section(named name: String) -> ReviewSection? {
        sectionsByName[name]
    }

    /// Whether another context gives every page the same shared parts (settings, sections,
    /// navigation and footer): when not, every page must be presented again.
    func isInterchangeable(with other: SiteContext) -> Bool {
        config == other.config && sections == other.sections
            && pages.map(\.navigationEntry) == other.pages.map(\.navigationEntry)
            && facts == other.facts && isPreview == other.isPreview && siteImage == other.siteImage
            && hasOwnRobots == other.hasOwnRobots
    }
}

private extension SiteContext {
    static func site(
        at spot: Spot, config: SiteConfig, urls: URLs, copyrightYear: String,
        navigation: [(place: Place, title: String, url: String)], isPreview: Bool
    ) -> SiteModel {
        let nav = navigation.map { entry in
            NavItem(
                title: entry.title, url: entry.url, current: entry.place == spot.place,
                ariaCurrent: entry.place != spot.place ? nil : spot.isItself ? "page" : "true")
        }
        return SiteModel(
            title: config.title, description: config.description, language: config.language.rawValue,
            author: config.author, rootURL: urls.path(""), feedURL: urls.path("feed.xml"),
            stylesheetURL: urls.path("assets/site.css"), menuScriptURL: urls.path("assets/menu.js"),
            searchURL: urls.path("search/"),
            isSearch: spot.place == .search, statsURL: urls.path("stats/"), copyrightYear: copyrightYear,
            copyrightHolder: config.author.isEmpty ? config.title : config.author, nav: nav, isPreview: isPreview)
    }
}

private extension Page {
    /// What the navigation shows of a page.
    var navigationEntry: String { "\(slug)\u{0}\(title)" }
}
