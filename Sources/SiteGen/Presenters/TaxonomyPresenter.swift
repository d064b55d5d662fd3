/// A way of grouping reviews by name: the tags reviewers write, or the genres fetched metadata gives.
enum Taxonomy: Sendable {
    case tags
    case genres

    func names(of review: Review) -> [String] {
        switch self {
        case .tags: review.tags
        case .genres: review.genres
        }
    }

    /// The folder of its pages: `tags/` or `genres/`.
    var folder: String {
        switch self {
        case .tags: "tags"
        case .genres: "genres"
        }
    }

    var place: SiteContext.Place {
        switch self {
        case .tags: .tags
        case .genres: .genres
        }
    }
}

/// Builds `/tags/` or `/genres/` and one page per tag or genre, newest reviews first.
struct TaxonomyPresenter {
    let context: SiteContext
    let ordering: ReviewOrdering
    let taxonomy: Taxonomy

    /// The index and every page; with `slugs`, only the pages of those (the index too only when `slugs` is nil).
    func jobs(slugs only: Set<String>? = nil) -> [PageJob] {
        let reviews = context.content.reviews
        var names: [String: String] = [:]
        var members: [String: [Int]] = [:]
        let slugsOf = taxonomy == .tags ? ordering.tagSlugs : ordering.genreSlugs
        for index in reviews.indices {
            if let only, !slugsOf[index].contains(where: only.contains) { continue }
            for name in taxonomy.names(of: reviews[index]) {
                let slug = name.slug
                guard !slug.isEmpty else { continue }
                if members[slug]?.last != index { members[slug, default: []].append(index) }
                names[slug] = min(names[slug] ?? name, name)
            }
        }
        guard !members.isEmpty else { return [] }
        let urls = context.urls
        let format = context.format
        let labels = context.labels
        let slugs = members.keys.sorted { lhs, rhs in
            let order = context.collation.ordered(names[lhs]!, names[rhs]!)
            return order == .orderedSame ? lhs < rhs : order == .orderedAscending
        }
        let indexPath = taxonomy.folder + "/"
        let pagePath = { (slug: String) in "\(taxonomy.folder)/\(slug)/" }
        let title = taxonomy == .tags ? labels.tags : labels.genres
        let counts = slugs.map { slug in
            TagCount(
                name: names[slug]!, url: urls.path(pagePath(slug)), count: members[slug]!.count,
                countLabel: format.reviewCount(members[slug]!.count))
        }
        let site = context.sharedSite(at: taxonomy.place)
        let index = TagsPageModel(
            site: site, labels: context.sharedLabels,
            page: context.head(title: title, description: nil, path: indexPath, kind: "tags"),
            heading: title, tags: counts)
        return (only == nil ? [PageJob.folder(indexPath, template: "tags", model: index)] : [])
            + slugs.filter { only?.contains($0) ?? true }.map { slug in
                let sorted = ordering.sorted(members[slug]!, by: .date)
                let heading = taxonomy == .tags ? format.taggedHeading(names[slug]!) : format.genreHeading(names[slug]!)
                let model = TagPageModel(
                    site: site, labels: context.sharedLabels,
                    page: context.head(title: heading, description: nil, path: pagePath(slug), kind: "tag"),
                    heading: heading, countLabel: format.reviewCount(sorted.count),
                    allTags: LinkModel(
                        title: taxonomy == .tags ? labels.allTags : labels.allGenres,
                        url: urls.path(indexPath)),
                    reviews: sorted.map { context.cards[$0] })
                return PageJob.folder(pagePath(slug), template: "tag", model: model, lists: sorted)
            }
    }
}
