import Mustache

/// Builds the page of each review: the review, its details, previous/next and related reviews.
struct ReviewPagePresenter {
    let context: SiteContext
    let ordering: ReviewOrdering
    /// How many related reviews a page lists.
    static let relatedLimit = 4
    /// How many of each tag's newest reviews are considered for "related".
    static let candidatesPerTag = 100

    func jobs() -> [PageJob] {
        let reviews = context.content.reviews
        var neighbours = [(previous: Int?, next: Int?)](repeating: (nil, nil), count: reviews.count)
        for section in context.content.sections {
            let newestFirst = ordering.sorted(reviews.indices.filter { reviews[$0].section == section.name }, by: .date)
            for (position, index) in newestFirst.enumerated() {
                neighbours[index] = (
                    position + 1 < newestFirst.count ? newestFirst[position + 1] : nil,
                    position > 0 ? newestFirst[position - 1] : nil
                )
            }
        }
        let byTag = tagIndex()
        let around = neighbours
        return Array(reviews.indices).parallelMap { index in
            PageJob.folder(
                reviews[index].path, template: "review",
                model: model(index, neighbours: around[index], byTag: byTag))
        }
    }

    func model(_ index: Int, neighbours: (previous: Int?, next: Int?), byTag: [String: [Int]]) -> ReviewPageModel {
        let review = context.content.reviews[index]
        let format = context.format
        let labels = context.labels
        let section = context.section(named: review.section)
        let link = { (other: Int) in
            LinkModel(title: context.content.reviews[other].title, url: context.cards[other].url)
        }
        var details: [DetailRow] = []
        let work = review.work
        if let creator = work.creator {
            details.append(DetailRow(label: work.kind == .movie ? labels.director : labels.author, value: creator))
        }
        if let original = work.originalTitle { details.append(DetailRow(label: labels.originalTitle, value: original)) }
        if let publisher = work.publisher { details.append(DetailRow(label: labels.publisher, value: publisher)) }
        if let year = work.year {
            details.append(
                DetailRow(label: work.kind == .movie ? labels.released : labels.published, value: String(year)))
        }
        let model = ReviewModel(
            title: review.title, originalTitle: work.originalTitle,
            language: review.language ?? context.config.language.rawValue, url: context.cards[index].url,
            section: LinkModel(
                title: section?.title ?? review.section,
                url: context.urls.path(context.urls.section(review.section))),
            kind: work.kind.rawValue, isMovie: work.kind == .movie, isBook: work.kind == .book,
            date: context.cards[index].date, rating: context.cards[index].rating,
            summary: context.cards[index].summary, html: review.body.html,
            readingTime: format.readingTime(words: review.body.wordCount), year: work.year.map(String.init) ?? "",
            creator: work.creator ?? "", overview: nil, details: details, image: nil,
            tags: review.tags.map { TagLink(name: $0, url: context.urls.path(context.urls.tag($0.slug))) },
            genres: [], hasDetails: !details.isEmpty, hasGenres: false, hasTags: !review.tags.isEmpty,
            extra: .object(review.extra))
        return ReviewPageModel(
            site: context.sharedSite(at: .section(review.section)), labels: context.sharedLabels,
            page: context.head(title: review.title, description: model.summary, path: review.path, kind: "review"),
            review: model, previous: neighbours.previous.map(link), next: neighbours.next.map(link),
            related: related(to: index, byTag: byTag).map { context.cards[$0] })
    }

    /// Reviews sharing the most tags with this one, then the newest.
    func related(to index: Int, byTag: [String: [Int]]) -> [Int] {
        let reviews = context.content.reviews
        var shared: [Int: Int] = [:]
        shared.reserveCapacity(Self.candidatesPerTag * 4)
        for tag in Set(reviews[index].tags.map(\.slug)) {
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

    /// Review indices by tag slug, newest first.
    func tagIndex() -> [String: [Int]] {
        var index: [String: [Int]] = [:]
        let reviews = context.content.reviews
        for position in ordering.sorted(Array(reviews.indices), by: .date) {
            for tag in Set(reviews[position].tags.map(\.slug)) { index[tag, default: []].append(position) }
        }
        return index
    }
}
