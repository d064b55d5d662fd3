/// The Atom feed's content, every string ready: the newest reviews across sections.
public struct FeedModel: Sendable, Equatable {
    public let title: String
    public let subtitle: String
    public let language: String
    public let selfURL: String
    public let siteURL: String
    /// RFC 3339: the newest review's date, so identical input gives an identical feed.
    public let updated: String
    public let author: String
    public let entries: [FeedEntry]
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

/// Builds the feed model.
struct FeedPresenter {
    let context: SiteContext
    let ordering: ReviewOrdering
    static let limit = 20

    func model() -> FeedModel {
        let reviews = context.content.reviews
        let newest = ordering.sorted(Array(reviews.indices), by: .date).prefix(Self.limit)
        let stamp = { (day: Day) in "\(day.description)T00:00:00Z" }
        return FeedModel(
            title: context.config.title, subtitle: context.config.description,
            language: context.config.language.rawValue, selfURL: context.urls.absolute("feed.xml"),
            siteURL: context.urls.absolute(""),
            updated: newest.first.map { stamp(reviews[$0].date) } ?? "1970-01-01T00:00:00Z",
            author: context.config.author,
            entries: newest.map { index in
                let review = reviews[index]
                return FeedEntry(
                    title: review.title, url: context.urls.absolute(review.path), published: stamp(review.date),
                    summary: context.cards[index].summary, contentHTML: review.body.html,
                    categories: review.tags)
            })
    }
}

/// Every page's absolute URL for `sitemap.xml`, with a date where one is known.
struct SitemapPresenter {
    let context: SiteContext

    func entries(for jobs: [PageJob]) -> [(url: String, lastModified: String?)] {
        let dates = Dictionary(
            context.content.reviews.map { ($0.path + "index.html", $0.date.description) },
            uniquingKeysWith: { first, _ in first })
        return jobs.filter { $0.output.hasSuffix("index.html") }.map { job in
            (context.urls.absolute(String(job.output.dropLast("index.html".count))), dates[job.output])
        }.sorted { $0.url < $1.url }
    }
}
