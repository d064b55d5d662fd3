/// Builds the home page: the newest reviews, then each section's recent and top-rated ones.
struct HomePresenter {
    let context: SiteContext
    let ordering: ReviewOrdering
    static let recentCount = 8
    static let perSection = 4

    func job() -> PageJob {
        let reviews = context.content.reviews
        let all = Array(reviews.indices)
        var shown: [Int] = []
        let sections = context.content.sections.map { section in
            let members = all.filter { reviews[$0].section == section.name }
            let rated = members.filter { reviews[$0].rating != nil }
            let recentIndices = ordering.sorted(members, by: .date).prefix(Self.perSection)
            let topIndices = ordering.sorted(rated, by: .rating).prefix(Self.perSection)
            shown += recentIndices + topIndices
            let recent = recentIndices.map { context.cards[$0] }
            let topRated = topIndices.map { context.cards[$0] }
            return HomeSection(
                id: "section-\(section.name)", title: section.title,
                url: context.urls.path(context.urls.section(section.name)),
                countLabel: context.format.reviewCount(members.count), recent: recent, topRated: topRated,
                hasRecent: !recent.isEmpty, hasTopRated: !topRated.isEmpty)
        }
        let newest = ordering.sorted(all, by: .date).prefix(Self.recentCount)
        let recent = newest.map { context.cards[$0] }
        let model = HomePageModel(
            site: context.sharedSite(at: .home), labels: context.sharedLabels,
            page: context.head(title: nil, description: nil, path: "", kind: "home"),
            recent: recent, hasRecent: !recent.isEmpty, sections: sections)
        return PageJob.folder("", template: "home", model: model, lists: Array(newest) + shown)
    }
}
