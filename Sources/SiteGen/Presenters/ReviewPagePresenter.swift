import Mustache

/// Builds the page of each review: the review, its details, previous/next and related reviews.
struct ReviewPagePresenter {
    let context: SiteContext
    let ordering: ReviewOrdering
    /// How many related reviews a page lists.
    static let relatedLimit = 4
    /// How many of each tag's newest reviews are considered for "related".
    static let candidatesPerTag = 100

    /// The pages of the reviews at `indices` (all reviews when nil).
    func jobs(for indices: [Int]? = nil) -> [PageJob] {
        let reviews = context.content.reviews
        let around = ordering.neighbours
        return (indices ?? Array(reviews.indices)).parallelMap { index in
            let related = related(to: index, byTag: ordering.newestByTag)
            let shown = [index] + [around[index].previous, around[index].next].compactMap { $0 } + related
            return PageJob.folder(
                reviews[index].path, template: "review",
                model: model(index, neighbours: around[index], related: related), lists: shown)
        }
    }

    func model(_ index: Int, neighbours: (previous: Int?, next: Int?), related: [Int]) -> ReviewPageModel {
        let review = context.content.reviews[index]
        let format = context.format
        let section = context.section(named: review.section)
        let link = { (other: Int) in
            LinkModel(title: context.content.reviews[other].title, url: context.cards[other].url)
        }
        let work = review.work
        let details = detailRows(review)
        let genres = review.genres.map { TagLink(name: $0, url: context.urls.path(context.urls.genre($0.slug))) }
        let image = context.cards[index].image
        let model = ReviewModel(
            title: review.title, originalTitle: originalTitle(of: review),
            language: review.language ?? context.config.language.rawValue, url: context.cards[index].url,
            section: LinkModel(
                title: section?.title ?? review.section,
                url: context.urls.path(context.urls.section(review.section))),
            kind: work.kind.rawValue, isMovie: work.kind == .movie, isBook: work.kind == .book,
            date: context.cards[index].date, rating: context.cards[index].rating,
            summary: context.cards[index].summary, html: review.body.html,
            readingTime: format.readingTime(words: review.body.wordCount), year: context.cards[index].year,
            creator: context.cards[index].creator, overview: review.metadata?.overview, details: details, image: image,
            tags: review.tags.map { TagLink(name: $0, url: context.urls.path(context.urls.tag($0.slug))) },
            genres: genres, hasDetails: !details.isEmpty || !genres.isEmpty, hasGenres: !genres.isEmpty,
            hasTags: !review.tags.isEmpty, extra: .object(review.extra))
        let imageURL = image.map {
            context.config.baseURL.absolute + String($0.url.dropFirst(context.urls.base.path.count))
        }
        return ReviewPageModel(
            site: context.sharedSite(at: .section(review.section)), labels: context.sharedLabels,
            page: context.head(
                title: review.title, description: model.summary, path: review.path, kind: "review", imageURL: imageURL),
            review: model, previous: neighbours.previous.map(link), next: neighbours.next.map(link),
            related: related.map { context.cards[$0] })
    }

    /// The "Details" rows: front matter first, fetched metadata where the front matter is silent.
    func detailRows(_ review: Review) -> [DetailRow] {
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

    /// Reviews sharing the most tags with this one, then the newest.
    func related(to index: Int, byTag: [String: [Int]]) -> [Int] {
        var shared: [Int: Int] = [:]
        shared.reserveCapacity(Self.candidatesPerTag * 4)
        for tag in ordering.tagSlugs[index] {
            for other in byTag[tag, default: []].prefix(Self.candidatesPerTag + 1) where other != index {
                shared[other, default: 0] += 1
            }
        }
        // Most shared tags, then newest, then by title: the first `relatedLimit` in that order.
        let ranked = { (candidate: (key: Int, value: Int)) in
            (candidate.value, ordering.dayKeys[candidate.key], -ordering.titleRank[candidate.key])
        }
        var best: [(key: Int, value: Int)] = []
        for candidate in shared {
            guard best.count < Self.relatedLimit || ranked(candidate) > ranked(best[best.count - 1]) else { continue }
            best.append(candidate)
            best.sort { ranked($0) > ranked($1) }
            if best.count > Self.relatedLimit { best.removeLast() }
        }
        return best.map(\.key)
    }
}
