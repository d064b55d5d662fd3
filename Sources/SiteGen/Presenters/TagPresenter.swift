/// Builds `/tags/` and one page per tag, newest reviews first.
struct TagPresenter {
    let context: SiteContext
    let ordering: ReviewOrdering

    func jobs() -> [PageJob] {
        let reviews = context.content.reviews
        var names: [String: String] = [:]
        var members: [String: [Int]] = [:]
        for index in reviews.indices {
            for tag in reviews[index].tags {
                let slug = tag.slug
                if members[slug]?.last != index { members[slug, default: []].append(index) }
                names[slug] = min(names[slug] ?? tag, tag)
            }
        }
        guard !members.isEmpty else { return [] }
        let urls = context.urls
        let format = context.format
        let slugs = members.keys.sorted { lhs, rhs in
            let order = context.collation.ordered(names[lhs]!, names[rhs]!)
            return order == .orderedSame ? lhs < rhs : order == .orderedAscending
        }
        let counts = slugs.map { slug in
            TagCount(
                name: names[slug]!, url: urls.path(urls.tag(slug)), count: members[slug]!.count,
                countLabel: format.reviewCount(members[slug]!.count))
        }
        let index = TagsPageModel(
            site: context.sharedSite(at: .tags), labels: context.sharedLabels,
            page: context.head(title: context.labels.tags, description: nil, path: urls.tags(), kind: "tags"),
            heading: context.labels.tags, tags: counts)
        return [PageJob.folder(urls.tags(), template: "tags", model: index)]
            + slugs.map { slug in
                let sorted = ordering.sorted(members[slug]!, by: .date)
                let heading = format.taggedHeading(names[slug]!)
                let model = TagPageModel(
                    site: context.sharedSite(at: .tags), labels: context.sharedLabels,
                    page: context.head(title: heading, description: nil, path: urls.tag(slug), kind: "tag"),
                    heading: heading, countLabel: format.reviewCount(sorted.count),
                    allTags: LinkModel(title: context.labels.allTags, url: urls.path(urls.tags())),
                    reviews: sorted.map { context.cards[$0] })
                return PageJob.folder(urls.tag(slug), template: "tag", model: model)
            }
    }
}
