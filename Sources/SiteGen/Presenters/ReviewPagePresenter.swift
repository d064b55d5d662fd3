import Mustache

/// The page of each review: the review, its details, the older and newer review of its
/// section, and related reviews.
struct ReviewPagePresenter: PagePresenter {
    func owns(_ key: PageKey) -> Bool {
        if case .review = key { return true }
        return false
    }

    func keys(_ site: Presentation) -> [PageKey] {
        site.index.liveIDs.sorted().map { .review($0) }
    }

    func output(_ key: PageKey, _ site: Presentation) -> String {
        guard case .review(let id) = key else { return "" }
        return site.index.review(id).path + "index.html"
    }

    func job(_ key: PageKey, _ site: Presentation) -> PageJob {
        guard case .review(let id) = key else { preconditionFailure("not a review page: \(key)") }
        let index = site.index
        let context = site.context
        let review = index.review(id)
        let card = index.card(id)
        let section = context.section(named: review.section)
        let link = { (other: Int) in LinkModel(title: index.review(other).title, url: index.card(other).url) }
        let details = detailRows(review, context)
        let urls = context.urls
        let model = ReviewModel(
            title: review.title, originalTitle: originalTitle(of: review),
            language: review.language ?? context.config.language.rawValue, url: card.url,
            section: LinkModel(
                title: section?.title ?? review.section, url: urls.path(urls.section(review.section))),
            kind: review.work.kind.rawValue, date: card.date, rating: card.rating, summary: card.summary,
            html: review.body.html, readingTime: context.format.readingTime(words: review.body.wordCount),
            year: card.year, creator: card.creator, overview: review.metadata?.overview, details: details,
            image: card.image,
            tags: review.tags.map { TagLink(name: $0, url: urls.path(urls.tag($0.slug))) },
            genres: review.genres.map { TagLink(name: $0, url: urls.path(urls.genre($0.slug))) },
            extra: .object(review.extra))
        let imageURL = card.image.map { context.config.baseURL.absolute + String($0.url.dropFirst(urls.base.path.count)) }
        let page = ReviewPageModel(
            site: context.sharedSite(at: .section(review.section)), labels: context.sharedLabels,
            page: context.head(
                title: review.title, description: card.summary, path: review.path, kind: "review", imageURL: imageURL),
            review: model, previous: index.older[id].map(link), next: index.newer[id].map(link),
            related: index.related[id].map(index.card))
        return PageJob.folder(review.path, template: "review", model: page)
    }

    func affected(by change: IndexChange, _ site: Presentation) -> [PageKey] {
        let ids = change.changed.union(change.neighboursChanged).union(change.relatedChanged).subtracting(change.removed)
        // A card's title or link shows on the pages of its neighbours too.
        let neighbours = change.cardChanged.flatMap { [site.index.older[$0], site.index.newer[$0]].compactMap { $0 } }
        return ids.union(neighbours).filter { site.index.reviews.indices.contains($0) && site.index.reviews[$0] != nil }
            .map { .review($0) }
    }

    /// The "Details" rows: front matter first, fetched metadata where the front matter is silent.
    func detailRows(_ review: Review, _ context: SiteContext) -> [DetailRow] {
        let labels = context.labels
        let format = context.format
        let work = review.work
        let metadata = review.metadata
        var rows: [DetailRow] = []
        let add = { (label: String, value: String?) in
            if let value, !value.isEmpty { rows.append(DetailRow(label: label, value: value)) }
        }
        let date =
            metadata?.releaseDate.flatMap(Day.init).map { format.date($0).display }
            ?? review.year.map(String.init)
        switch work.kind {
        case .movie:
            add(labels.director, review.creator)
            add(labels.originalTitle, originalTitle(of: review))
            add(labels.released, date)
            add(labels.runtime, metadata?.runtime.map(format.runtime))
            add(labels.cast, format.cast(metadata?.cast ?? []))
        case .book:
            add(labels.author, review.creator)
            add(labels.originalTitle, originalTitle(of: review))
            add(labels.publisher, work.publisher ?? metadata?.publisher)
            add(labels.published, date)
            add(labels.pages, metadata?.pages.map(format.pages))
        }
        return rows
    }

    /// The original title when it differs from the review's title.
    func originalTitle(of review: Review) -> String? {
        let original = review.work.originalTitle ?? review.metadata?.originalTitle
        return original == review.title ? nil : original
    }
}
