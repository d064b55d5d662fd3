/// The Atom feed's content, every string ready: the newest reviews across sections.
public struct FeedModel: DocumentModel, Equatable {
    public let title: String
    public let subtitle: String
    public let language: String
    public let selfURL: String
    public let siteURL: String
    /// RFC 3339: the newest review's date, so identical input gives an identical feed.
    public let updated: String
    public let author: String
    public let entries: [FeedEntry]

    public func text() -> String { FeedWriter.xml(self) }
}

/// One review in the feed.
public struct FeedEntry: Sendable, Equatable {
    public let title: String
    public let url: String
    public let published: String
    public let summary: String
    public let contentHTML: String
    public let categories: [String]
}

/// The site's Atom feed of its newest reviews.
struct FeedPresenter: PagePresenter {
    static let limit = 20

    func owns(_ key: PageKey) -> Bool { key == .feed }

    func keys(_ site: Presentation) -> [PageKey] { [.feed] }

    func output(_ key: PageKey, _ site: Presentation) -> String { "feed.xml" }

    func job(_ key: PageKey, _ site: Presentation) -> PageJob {
        let context = site.context
        let index = site.index
        let newest = index.list(ListKey(.all, .date)).prefix(Self.limit)
        let stamp = { (day: Day) in "\(day.description)T00:00:00Z" }
        let model = FeedModel(
            title: context.config.title, subtitle: context.config.description,
            language: context.config.language.rawValue, selfURL: context.urls.absolute("feed.xml"),
            siteURL: context.urls.absolute(""),
            updated: newest.first.map { stamp(index.review($0).date) } ?? "1970-01-01T00:00:00Z",
            author: context.config.author,
            entries: newest.map { id in
                let review = index.review(id)
                return FeedEntry(
                    title: review.title, url: context.urls.absolute(review.path), published: stamp(review.date),
                    summary: index.card(id).summary, contentHTML: review.body.html, categories: review.tags)
            })
        return PageJob.document("feed.xml", model)
    }

    /// The feed is one file: it is made again after any change (and written only if it differs).
    func affected(by change: IndexChange, _ site: Presentation) -> [PageKey] { [.feed] }
}

/// `sitemap.xml`: every page's address, with the review's date where there is one.
public struct SitemapModel: DocumentModel, Equatable {
    public struct Entry: Sendable, Equatable {
        public let url: String
        public let lastModified: String?
    }

    public let entries: [Entry]

    public func text() -> String { SitemapWriter.xml(entries) }
}

/// Lists every HTML page for search engines.
struct SitemapPresenter: PagePresenter {
    func owns(_ key: PageKey) -> Bool { key == .sitemap }

    func keys(_ site: Presentation) -> [PageKey] { [.sitemap] }

    func output(_ key: PageKey, _ site: Presentation) -> String { "sitemap.xml" }

    func job(_ key: PageKey, _ site: Presentation) -> PageJob {
        var dates: [String: String] = [:]
        for id in site.index.liveIDs {
            let review = site.index.review(id)
            dates[review.path + "index.html"] = review.date.description
        }
        let pages = SitePresenter.presenters.filter { !($0 is SitemapPresenter) }.flatMap { presenter in
            presenter.keys(site).map { presenter.output($0, site) }
        }
        let entries = pages.filter { $0.hasSuffix("index.html") }.map { output in
            SitemapModel.Entry(
                url: site.context.urls.absolute(String(output.dropLast("index.html".count))),
                lastModified: dates[output])
        }.sorted { $0.url < $1.url }
        return PageJob.document("sitemap.xml", SitemapModel(entries: entries))
    }

    /// Pages come and go, and dates change, only when reviews move.
    func affected(by change: IndexChange, _ site: Presentation) -> [PageKey] {
        change.moved.isEmpty ? [] : [.sitemap]
    }
}
