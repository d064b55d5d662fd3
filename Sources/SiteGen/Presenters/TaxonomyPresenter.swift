/// A way of grouping reviews by name: the tags reviewers write, or the genres fetched metadata gives.
enum Taxonomy: Sendable, Hashable {
    case tags
    case genres

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

    func scope(_ slug: String) -> ListScope {
        switch self {
        case .tags: .tag(slug)
        case .genres: .genre(slug)
        }
    }
}

/// `/tags/` (or `/genres/`) and, for each tag, its reviews newest first, a compact list of pages.
struct TaxonomyPresenter: PagePresenter {
    let taxonomy: Taxonomy

    func owns(_ key: PageKey) -> Bool {
        switch key {
        case .taxonomyIndex(let kind, _): return kind == taxonomy
        case .list(let list, _): return scopeSlug(list.scope) != nil
        default: return false
        }
    }

    func keys(_ site: Presentation) -> [PageKey] {
        let slugs = site.scopes(taxonomy)
        guard !slugs.isEmpty else { return [] }
        return (1...indexPageCount(slugs.count, site)).map { PageKey.taxonomyIndex(taxonomy, page: $0) }
            + slugs.flatMap { slug in
                let list = ListKey(taxonomy.scope(slug), .date)
                return (1...pages(list, site).count).map { PageKey.list(list, page: $0) }
            }
    }

    func output(_ key: PageKey, _ site: Presentation) -> String {
        switch key {
        case .list(let list, let page): return pages(list, site).path(page) + "index.html"
        case .taxonomyIndex(_, let page): return indexPath(page) + "index.html"
        default: return "\(taxonomy.folder)/index.html"
        }
    }

    func job(_ key: PageKey, _ site: Presentation) -> PageJob {
        let context = site.context
        let labels = context.labels
        let title = taxonomy == .tags ? labels.tags : labels.genres
        let indexFolder = indexPath(1)
        guard case .list(let list, let number) = key, let slug = scopeSlug(list.scope) else {
            guard case .taxonomyIndex(_, let number) = key else { preconditionFailure("not a page of \(taxonomy)") }
            return indexJob(number, title: title, site)
        }
        let pages = pages(list, site)
        let name = site.index.names[list.scope] ?? slug
        let format = context.format
        let heading = taxonomy == .tags ? format.taggedHeading(name) : format.genreHeading(name)
        let listModel = pages.model(number, site)
        var pageTitle = heading
        if number > 1, let pagination = listModel.pagination { pageTitle += " · \(pagination.label)" }
        let model = TagPageModel(
            site: context.sharedSite(at: taxonomy.place, isItself: false), labels: context.sharedLabels,
            page: context.head(
                title: pageTitle,
                description: format.taggedDescription(name, count: pages.members.count)
                    + (number > 1 ? " · \(listModel.pagination?.label ?? "")" : ""),
                path: pages.path(number), kind: "tag",
                feeds: taxonomy == .tags
                    ? [
                        LinkModel(
                            title: "\(heading) · \(context.config.title)",
                            url: context.urls.path(FeedPresenter.path(list.scope)))
                    ]
                    : []),
            heading: heading, countLabel: format.reviewCount(pages.members.count),
            allTags: LinkModel(
                title: taxonomy == .tags ? labels.allTags : labels.allGenres, url: context.urls.path(indexFolder)),
            list: listModel)
        return PageJob.folder(pages.path(number), template: "tag", model: model)
    }

    func affected(by change: IndexChange, _ site: Presentation) -> [PageKey] {
        var keys: [PageKey] = []
        let renamed = change.namesChanged.contains { scopeSlug($0) != nil }
        let resized = change.lists.contains { scopeSlug($0.key.scope) != nil && $0.value.toEnd }
        if renamed || resized {
            let total = indexPageCount(site.scopes(taxonomy).count, site)
            keys += (1...total).map { .taxonomyIndex(taxonomy, page: $0) }
        }
        for slug in touched(by: change, reviews: change.cardChanged, site) {
            let list = ListKey(taxonomy.scope(slug), .date)
            let pages = pages(list, site)
            let all = change.namesChanged.contains(list.scope) || change.lists[list]?.toEnd == true
            keys += (all ? Array(1...pages.count) : pages.affected(by: change, site)).map { .list(list, page: $0) }
        }
        return keys
    }

    /// The tags (or genres) of the site that `change` may reach, in order: those whose list or
    /// name changed, and those of `reviews` (whose card, or value, changed). The others show
    /// nothing that changed, and a site with thousands of tags does not look at each of them
    /// on every save.
    func touched(by change: IndexChange, reviews: Set<Int>, _ site: Presentation) -> [String] {
        var slugs = Set(change.lists.keys.compactMap { scopeSlug($0.scope) })
        slugs.formUnion(change.namesChanged.compactMap(scopeSlug))
        for id in reviews {
            guard let key = site.index.keys[id] else { continue }
            slugs.formUnion((taxonomy == .tags ? key.tags : key.genres).map(\.slug))
        }
        return slugs.sorted().filter { site.index.lists[ListKey(taxonomy.scope($0), .date)] != nil }
    }

    func pages(_ list: ListKey, _ site: Presentation) -> ListPages {
        ListPages(list, folder: "\(taxonomy.folder)/\(scopeSlug(list.scope) ?? "")/", isCompact: true, site: site)
    }

    /// The slug of a tag (or genre) scope of this taxonomy.
    func scopeSlug(_ scope: ListScope) -> String? {
        switch (scope, taxonomy) {
        case (.tag(let slug), .tags), (.genre(let slug), .genres): slug
        default: nil
        }
    }

    /// How many tags (or genres) a page of the index lists: ten times `list_page_size` (600
    /// by default), so that the index, which grows with the tags a reviewer invents, is paged
    /// like every other list.
    func indexPageSize(_ site: Presentation) -> Int { site.context.config.listPageSize * 10 }

    func indexPageCount(_ tags: Int, _ site: Presentation) -> Int {
        let size = indexPageSize(site)
        return max(1, (tags + size - 1) / size)
    }

    /// The folder of page `number` of the index: `tags/`, `tags/page/2/`.
    func indexPath(_ number: Int) -> String {
        number == 1 ? "\(taxonomy.folder)/" : "\(taxonomy.folder)/page/\(number)/"
    }

    /// Page `number` of the index. One page lists every tag; when there are more, each page
    /// groups its tags under their initials, with jump links to where each initial starts
    /// (on this page or another) and a pager.
    func indexJob(_ number: Int, title: String, _ site: Presentation) -> PageJob {
        let context = site.context
        let layout = layout(site)
        let all = layout.tags
        let size = indexPageSize(site)
        let total = indexPageCount(all.count, site)
        let range = min(all.count, (number - 1) * size)..<min(all.count, number * size)
        var groups: [TagGroup] = []
        if total > 1 {
            let language = context.config.language.rawValue
            for position in range {
                let initial = layout.initials[position]
                if position == range.lowerBound || initial != layout.initials[position - 1] {
                    groups.append(
                        TagGroup(
                            heading: initial, id: Self.groupID(initial), tags: [],
                            language: TextLanguage.of(initial, otherwise: language)))
                }
                groups[groups.count - 1].tags.append(all[position])
            }
        }
        let jumps = layout.jumps.map { $0.page == number ? $0.here : $0.elsewhere }
        let pagination = ListPages.pagination(number, of: total, byDate: false, context: context, path: indexPath)
        let model = TagsPageModel(
            site: context.sharedSite(at: taxonomy.place, isItself: number == 1), labels: context.sharedLabels,
            page: context.head(
                title: number > 1 ? "\(title) · \(context.format.pageOf(number, total))" : title, description: nil,
                path: indexPath(number), kind: "tags"),
            heading: title, tags: Array(all[range]), groups: groups, jumps: jumps, pagination: pagination)
        return PageJob.folder(indexPath(number), template: "tags", model: model)
    }

    /// The fragment id of an initial's group on the index.
    private static func groupID(_ initial: String) -> String { "initial-\(initial)" }

    /// The index as all of its pages share it, made once: each page reads its own part, so
    /// the index costs time in proportion to its tags, not to its tags times its pages.
    struct Layout: Sendable {
        /// Every tag with its count, in collation order of their names from their first
        /// letter or digit, as titles are sorted (so each initial's tags stay together).
        let tags: [TagCount]
        /// The initial of each tag, by place in ``tags``, when the index has several pages.
        let initials: [String]
        /// The jump links to where each initial starts, when the index has several pages.
        let jumps: [ListPages.Jump]
    }

    func layout(_ site: Presentation) -> Layout {
        Presentation.SharedParts.value(in: site.shared.taxonomyLayouts, for: taxonomy) { makeLayout(site) }
    }

    private func makeLayout(_ site: Presentation) -> Layout {
        let context = site.context
        let slugs = site.scopes(taxonomy)
        let names = slugs.map { site.index.names[taxonomy.scope($0)] ?? $0 }
        // Sorted by name; the same names (keys) by slug, as `slugs` are.
        let tags = context.collation.sortedPlaces(of: names.map(context.collation.titleKey)).map { place in
            let count = site.index.list(ListKey(taxonomy.scope(slugs[place]), .date)).count
            return TagCount(
                name: names[place], url: context.urls.path("\(taxonomy.folder)/\(slugs[place])/"), count: count,
                countLabel: context.format.reviewCount(count))
        }
        var initials: [String] = []
        var jumps: [ListPages.Jump] = []
        let size = indexPageSize(site)
        if indexPageCount(tags.count, site) > 1 {
            initials = tags.map { context.collation.initial(of: $0.name) }
            var seen: Set<String> = []
            let starts = initials.indices.filter { seen.insert(initials[$0]).inserted }
            let linked = ListPages.linked(initials: starts.map { initials[$0] })
            let language = context.config.language.rawValue
            for (start, isLinked) in zip(starts, linked) where isLinked {
                let initial = initials[start]
                let page = start / size + 1
                let url = context.urls.path(indexPath(page)) + "#" + Self.groupID(initial)
                let labelLanguage = TextLanguage.of(initial, otherwise: language)
                jumps.append(
                    ListPages.Jump(
                        page: page, here: JumpLink(label: initial, url: url, onThisPage: true, language: labelLanguage),
                        elsewhere: JumpLink(label: initial, url: url, onThisPage: false, language: labelLanguage)))
            }
        }
        return Layout(tags: tags, initials: initials, jumps: jumps)
    }
}
