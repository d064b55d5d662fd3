/// The Atom feed's content, every string ready: the newest reviews across sections.
public struct FeedModel: DocumentModel, Equatable {
    public let title: String
    public let subtitle: String
    public let language: String
    public let selfURL: String
    public let siteURL: String
    /// RFC 3339: the newest review's date, so identical input gives an identical feed.
    public let updated: String
    /// site.yml's author, else the site's title.
    public let author: String
    public let entries: [FeedEntry]

    public func text() -> String { FeedWriter.xml(self) }
}

/// One review in the feed.
public struct FeedEntry: Sendable, Equatable {
    public let title: String
    public let url: String
    public let published: String
    /// The last change recorded in the review (front matter `updated`), else its date.
    public let updated: String
    /// The language of the review's text.
    public let language: String
    public let summary: String
    public let contentHTML: String
    public let categories: [String]
}

/// The Atom feeds: the site's, and one per section and per tag, each of its newest reviews.
struct FeedPresenter: PagePresenter {
    static let limit = 20

    func owns(_ key: PageKey) -> Bool {
        if case .feed = key { return true }
        return false
    }

    func keys(_ site: Presentation) -> [PageKey] {
        keys(site, tags: site.scopes(.tags))
    }

    /// The site's feed, each section's, and those of `tags` (slugs, in order).
    private func keys(_ site: Presentation, tags: [String]) -> [PageKey] {
        [.feed(.all)] + site.context.sections.map { .feed(.section($0.name)) } + tags.map { .feed(.tag($0)) }
    }

    func output(_ key: PageKey, _ site: Presentation) -> String {
        guard case .feed(let scope) = key else { return "" }
        return Self.path(scope)
    }

    /// Where the feed of a list goes: `feed.xml`, `movies/feed.xml`, `tags/noir/feed.xml`.
    static func path(_ scope: ListScope) -> String {
        switch scope {
        case .all: "feed.xml"
        case .section(let name): "\(name)/feed.xml"
        case .tag(let slug): "tags/\(slug)/feed.xml"
        case .genre(let slug): "genres/\(slug)/feed.xml"
        }
    }

    func job(_ key: PageKey, _ site: Presentation) -> PageJob {
        guard case .feed(let scope) = key else { preconditionFailure("not a feed: \(key)") }
        let context = site.context
        let index = site.index
        let newest = index.list(ListKey(scope, .date)).prefix(Self.limit)
        let entries = newest.map { id in
            let review = index[review: id]
            return FeedEntry(
                title: review.title, url: context.urls.absolute(review.path), published: Self.stamp(review.date),
                updated: Self.stamp(review.updated ?? review.date), language: index.card(id).language,
                summary: index.card(id).summary, contentHTML: review.body.html, categories: review.tags)
        }
        let title: String
        switch scope {
        case .all: title = context.config.title
        case .section(let name): title = "\(context.section(named: name)?.title ?? name) · \(context.config.title)"
        case .tag(let slug), .genre(let slug):
            title = "\(context.format.taggedHeading(index.names[scope] ?? slug)) · \(context.config.title)"
        }
        let model = FeedModel(
            title: title, subtitle: context.config.description, language: context.config.language.rawValue,
            selfURL: context.urls.absolute(Self.path(scope)),
            siteURL: context.urls.absolute(Self.page(scope)),
            // A section without reviews yet is dated as the site's feed; a site without any, 1970.
            updated: entries.map(\.updated).max()
                ?? Self.updated(index.list(ListKey(.all, .date)).prefix(Self.limit).map { index[review: $0] })
                ?? "1970-01-01T00:00:00Z",
            // Atom needs an author: without one in site.yml, the site (not the feed's own title).
            author: context.config.author.isEmpty ? context.config.title : context.config.author,
            entries: entries)
        return PageJob.document(Self.path(scope), model)
    }

    /// The latest change among `reviews` (Atom's `updated`), nil for none.
    private static func updated(_ reviews: some Sequence<Review>) -> String? {
        reviews.lazy.map { $0.updated ?? $0.date }.max().map(Self.stamp)
    }

    /// A day as an Atom date.
    private static func stamp(_ day: Day) -> String { "\(day.description)T00:00:00Z" }

    /// The page a feed stands for.
    static func page(_ scope: ListScope) -> String {
        switch scope {
        case .all: ""
        case .section(let name): "\(name)/"
        case .tag(let slug): "tags/\(slug)/"
        case .genre(let slug): "genres/\(slug)/"
        }
    }

    /// A feed changes when its list does, or a review among its newest does.
    func affected(by change: IndexChange, _ site: Presentation) -> [PageKey] {
        // The site's and the sections' feeds, and those of the tags the change may reach: a
        // tag's feed changes only when its list does or shows a changed review, which has it.
        let tags = TaxonomyPresenter(taxonomy: .tags).touched(by: change, reviews: change.changed, site)
        let candidates = keys(site, tags: tags)
        return candidates.filter { key in
            guard case .feed(let scope) = key else { return false }
            let list = ListKey(scope, .date)
            if change.lists[list] != nil { return true }
            // An empty list's feed is dated by the whole site's.
            let dating = site.index.list(list).isEmpty ? ListKey(.all, .date) : list
            if dating != list, change.lists[dating] != nil { return true }
            return site.index.list(dating).prefix(Self.limit).contains { change.changed.contains($0) }
        }
    }
}

/// `sitemap.xml`: every page's address, with the review's date where there is one. A site
/// over ``SitemapPresenter/limit`` pages gets a sitemap index there instead, naming
/// `sitemap-1.xml`, `sitemap-2.xml`… of at most that many addresses each.
public struct SitemapModel: DocumentModel, Equatable {
    public struct Entry: Sendable, Equatable {
        public let url: String
        public let lastModified: String?
    }

    public let entries: [Entry]
    /// When set, this is the index of these parts (their addresses), and `entries` is empty.
    public var parts: [Entry]? = nil

    public func text() -> String {
        if let parts { return SitemapWriter.index(parts) }
        return SitemapWriter.xml(entries)
    }
}

/// Lists every HTML page for search engines.
struct SitemapPresenter: PagePresenter {
    /// The most addresses one sitemap holds (50,000 in the sitemaps.org protocol 0.9).
    var limit = 50_000

    func owns(_ key: PageKey) -> Bool {
        switch key {
        case .sitemap, .sitemapPart: true
        default: false
        }
    }

    func keys(_ site: Presentation) -> [PageKey] {
        let parts = parts(Self.count(site))
        return [.sitemap] + (parts > 1 ? (1...parts).map { .sitemapPart($0) } : [])
    }

    func output(_ key: PageKey, _ site: Presentation) -> String {
        if case .sitemapPart(let number) = key { return Self.partName(number) }
        return "sitemap.xml"
    }

    func job(_ key: PageKey, _ site: Presentation) -> PageJob {
        let parts = parts(Self.count(site))
        guard parts > 1 else { return PageJob.document("sitemap.xml", SitemapModel(entries: Self.entries(site))) }
        // The index and each part read one list of entries, made by the first of them.
        let entries = site.shared.sitemapEntries.value { Self.entries(site) }
        if case .sitemapPart(let number) = key {
            let part = Array(entries[range(of: number, count: entries.count)])
            return PageJob.document(Self.partName(number), SitemapModel(entries: part))
        }
        let index = (1...parts).map { number in
            SitemapModel.Entry(
                url: site.context.urls.absolute(Self.partName(number)),
                lastModified: entries[range(of: number, count: entries.count)].compactMap(\.lastModified).max())
        }
        return PageJob.document("sitemap.xml", SitemapModel(entries: [], parts: index))
    }

    /// Pages come and go, and dates change, only when reviews take another place.
    func affected(by change: IndexChange, _ site: Presentation) -> [PageKey] {
        change.placesChanged ? keys(site) : []
    }

    static func partName(_ number: Int) -> String { "sitemap-\(number).xml" }

    /// The presenters whose folder pages a sitemap lists, by their places in
    /// ``SitePresenter/presenters``: every one but itself.
    static let listed = SitePresenter.presenters.indices.filter { !(SitePresenter.presenters[$0] is SitemapPresenter) }

    /// How many sitemaps `count` addresses take (1 means `sitemap.xml` holds them itself).
    func parts(_ count: Int) -> Int { max(1, (count + limit - 1) / limit) }

    /// The positions part `number` (from 1) holds.
    func range(of number: Int, count: Int) -> Range<Int> {
        (number - 1) * limit..<min(count, number * limit)
    }

    /// How many pages the sitemap lists.
    static func count(_ site: Presentation) -> Int {
        listed.reduce(0) { count, index in count + site.keys(ofPresenter: index).count(where: \.isFolderPage) }
    }

    /// Every page's entry (the pages of every other presenter at a folder's address), in
    /// address order; a review's page is dated by the review (its `updated` day, else its date).
    static func entries(_ site: Presentation) -> [SitemapModel.Entry] {
        var entries: [SitemapModel.Entry] = []
        for index in listed {
            let presenter = SitePresenter.presenters[index]
            for key in site.keys(ofPresenter: index) where key.isFolderPage {
                let output = presenter.output(key, site)
                var lastModified: String?
                if case .review(let id) = key { lastModified = site.index[key: id].modified.description }
                entries.append(
                    SitemapModel.Entry(
                        url: site.context.urls.absolute(String(output.dropLast("index.html".count))),
                        lastModified: lastModified))
            }
        }
        return entries.sorted { $0.url < $1.url }
    }
}

/// `robots.txt`, naming the sitemap at the site's own address (unless `static/` has one).
public struct RobotsModel: DocumentModel, Equatable {
    public let sitemapURL: String

    public func text() -> String { "User-agent: *\nAllow: /\n\nSitemap: \(sitemapURL)\n" }
}

/// Writes `robots.txt` unless the site provides its own.
struct RobotsPresenter: PagePresenter {
    func owns(_ key: PageKey) -> Bool { key == .robots }

    func keys(_ site: Presentation) -> [PageKey] { site.context.hasOwnRobots ? [] : [.robots] }

    func output(_ key: PageKey, _ site: Presentation) -> String { "robots.txt" }

    func job(_ key: PageKey, _ site: Presentation) -> PageJob {
        PageJob.document("robots.txt", RobotsModel(sitemapURL: site.context.urls.absolute("sitemap.xml")))
    }

    func affected(by change: IndexChange, _ site: Presentation) -> [PageKey] { [] }
}
