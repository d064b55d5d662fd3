/// The home page: the newest reviews, then each section's recent and top-rated ones.
struct HomePresenter: PagePresenter {
    static let recentCount = 8
    static let perSection = 4

    func owns(_ key: PageKey) -> Bool { key == .home }

    func keys(_ site: Presentation) -> [PageKey] { [.home] }

    func output(_ key: PageKey, _ site: Presentation) -> String { "index.html" }

    func job(_ key: PageKey, _ site: Presentation) -> PageJob {
        let context = site.context
        let index = site.index
        let newest = index.list(ListKey(.all, .date)).prefix(Self.recentCount)
        let shown = Set(newest)
        let sections = context.sections.compactMap { section -> HomeSection? in
            let all = index.list(ListKey(.section(section.name), .date))
            // A section with no review yet has no band (it would hold only "0 reviews"); the
            // navigation still links to its page.
            guard !all.isEmpty else { return nil }
            // The section's newest reviews that the site-wide band above does not show already.
            let recent = all.prefix(Self.perSection + Self.recentCount)
                .filter { !shown.contains($0) }.prefix(Self.perSection)
            let rated = index.list(ListKey(.section(section.name), .rating)).prefix { index[key: $0].ratingHalves >= 0 }
            return HomeSection(
                id: "section-\(section.name)", title: section.title,
                url: context.urls.path(context.urls.section(section.name)),
                countLabel: context.format.reviewCount(all.count),
                recent: recent.map(index.card), topRated: rated.prefix(Self.perSection).map(index.card))
        }
        let model = HomePageModel(
            site: context.sharedSite(at: .home), labels: context.sharedLabels,
            page: context.head(title: nil, description: nil, path: "", kind: "home"),
            recent: newest.map(index.card), sections: sections)
        return PageJob.folder("", template: "home", model: model)
    }

    /// The home page is one page: it is made again after any change.
    func affected(by change: IndexChange, _ site: Presentation) -> [PageKey] { [.home] }
}
