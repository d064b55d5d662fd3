/// Runs every presenter over the loaded site: the third step of a build.
public struct SitePresenter: Sendable {
    public let context: SiteContext

    public init(content: SiteContent, isPreview: Bool = false) {
        context = SiteContext(content: content, isPreview: isPreview)
    }

    /// A presenter over an existing context (an incremental rebuild's, with updated cards).
    init(context: SiteContext) {
        self.context = context
    }

    /// Everything to render and write.
    public struct Presentation: Sendable {
        public let pages: [PageJob]
        public let feed: FeedModel
        public let sitemap: [(url: String, lastModified: String?)]
        /// The orderings the pages were built with.
        let ordering: ReviewOrdering
    }

    public func present() -> Presentation {
        let ordering = ReviewOrdering(reviews: context.content.reviews, collation: context.collation)
        let plain = PlainPagePresenter(context: context)
        var pages = [HomePresenter(context: context, ordering: ordering).job()]
        pages += ReviewPagePresenter(context: context, ordering: ordering).jobs()
        pages += SectionPresenter(context: context, ordering: ordering).jobs()
        pages += TaxonomyPresenter(context: context, ordering: ordering, taxonomy: .tags).jobs()
        pages += TaxonomyPresenter(context: context, ordering: ordering, taxonomy: .genres).jobs()
        pages += plain.jobs()
        pages.append(plain.notFound())
        return Presentation(
            pages: pages, feed: FeedPresenter(context: context, ordering: ordering).model(),
            sitemap: SitemapPresenter(context: context).entries(for: pages), ordering: ordering)
    }
}
