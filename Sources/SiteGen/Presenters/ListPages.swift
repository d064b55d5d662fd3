/// The pages of one sorted list (a section in one order, a tag, a genre): how many there
/// are, what each shows, and its links. Nothing on a page depends on the number of pages
/// but the "page 2 of 5" label: the pager shows a window of page numbers, and compact
/// lists link to where each group starts.
struct ListPages: Sendable {
    let key: ListKey
    let members: [Int]
    let size: Int
    /// Many small cards under jump links (sorted indexes, tags), rather than a few large ones.
    let isCompact: Bool
    /// The folder of page 1: `movies/`, `movies/by-title/`, `tags/thriller/`.
    let folder: String

    init(_ key: ListKey, folder: String, isCompact: Bool, site: Presentation) {
        self.key = key
        self.folder = folder
        self.isCompact = isCompact
        members = site.index.list(key)
        size = isCompact ? site.context.config.listPageSize : site.context.config.pageSize
    }

    var count: Int { max(1, (members.count + size - 1) / size) }

    /// The folder of page `number`: `movies/`, `movies/page/2/`.
    func path(_ number: Int) -> String {
        number == 1 ? folder : "\(folder)page/\(number)/"
    }

    func range(_ number: Int) -> Range<Int> {
        let lower = min(members.count, (number - 1) * size)
        return lower..<min(members.count, lower + size)
    }

    /// The pages whose content may differ after `change`: those showing a changed review,
    /// and those the list's change reaches (every page when the number of pages may change,
    /// and every page of a compact list when a group came, went or starts on another page,
    /// since each page links to where each group starts).
    func affected(by change: IndexChange, _ site: Presentation) -> [Int] {
        var numbers: Set<Int> = []
        if let listChange = change.lists[key] {
            if listChange.toEnd || (isCompact && jumpsMoved(listChange, site.index)) { return Array(1...count) }
            numbers.formUnion((1...count).filter { listChange.touches(range($0)) })
        }
        if !change.cardChanged.isEmpty {
            for (position, id) in members.enumerated() where change.cardChanged.contains(id) {
                numbers.insert(position / size + 1)
            }
        }
        return numbers.sorted()
    }

    /// Whether the jump links (each group and the page it starts on) differ from before `change`.
    func jumpsMoved(_ change: ListChange, _ index: SiteIndex) -> Bool {
        let starts = index.groupStarts[key] ?? []
        guard starts.count == change.oldGroups.count else { return true }
        return zip(starts, change.oldGroups).contains { position, old in
            position / size != old.position / size || index[key: members[position]].group(key.order) != old.group
        }
    }

    /// What page `number` shows.
    func model(_ number: Int, _ site: Presentation) -> ListModel {
        let context = site.context
        let index = site.index
        let slice = members[range(number)]
        var groups: [ReviewGroup] = []
        var current: (id: String, heading: String, cards: [ReviewCard])?
        let language = context.config.language.rawValue
        let close = { (done: (id: String, heading: String, cards: [ReviewCard])) in
            groups.append(
                ReviewGroup(
                    heading: done.heading, id: done.id, reviews: done.cards,
                    language: TextLanguage.of(done.heading, otherwise: language)))
        }
        for id in slice {
            let group = index[key: id].group(key.order)
            if current?.id != group {
                if let done = current { close(done) }
                current = (group, heading(of: id, site), [])
            }
            current!.cards.append(index.card(id))
        }
        if let done = current { close(done) }
        let jumps = isCompact ? self.jumps(site).map { $0.page == number ? $0.here : $0.elsewhere } : []
        return ListModel(groups: groups, jumps: jumps, isCompact: isCompact, pagination: pagination(number, site))
    }

    /// A jump link of a compact list, as the page it leads to shows it and as the others do.
    struct Jump: Sendable {
        let page: Int
        let here: JumpLink
        let elsewhere: JumpLink
    }

    /// More groups than this, and a list by date or by year links to each year or decade
    /// instead of each month or year: a tag reviewed over twenty years has 240 months, a
    /// screen of links on a phone above every page of it.
    static let jumpLimit = 24

    /// Which of a list's groups, given their initials in order, get a jump link: each one, but
    /// past ``jumpLimit`` Han characters only every k-th of those, so at most ``jumpLimit``.
    /// A Chinese or Japanese list by title has an initial for each first character: thousands
    /// of links above every page at 10,000 reviews, growing with the site as the pages do. The
    /// groups a link skips follow the one it leads to, in the list's order.
    static func linked(initials: [String]) -> [Bool] {
        let han = initials.filter(Collation.isHan).count
        guard han > jumpLimit else { return initials.map { _ in true } }
        let stride = (han + jumpLimit - 1) / jumpLimit
        var seen = 0
        return initials.map { initial in
            guard Collation.isHan(initial) else { return true }
            defer { seen += 1 }
            return seen % stride == 0
        }
    }

    /// The list's jump links: the same on each of its pages but for which are on that page,
    /// so made once for all of them. Each leads to the first group of what it names, on the
    /// page where that group starts.
    func jumps(_ site: Presentation) -> [Jump] {
        let cacheKey = Presentation.JumpsKey(list: key, folder: folder, size: size)
        return Presentation.SharedParts.value(in: site.shared.jumps, for: cacheKey) { makeJumps(site) }
    }

    private func makeJumps(_ site: Presentation) -> [Jump] {
        let index = site.index
        let urls = site.context.urls
        let format = site.context.format
        let language = site.context.config.language.rawValue
        let starts = index.groupStarts[key] ?? []
        let coarse = starts.count > Self.jumpLimit
        let linked = key.order == .title ? Self.linked(initials: starts.map { index[key: members[$0]].initial }) : nil
        var jumps: [Jump] = []
        var last: Int?
        for (number, start) in starts.enumerated() where linked?[number] ?? true {
            let id = members[start]
            let label: String
            switch (key.order, coarse) {
            case (.date, true):
                // Sorted by the value grouped on, so a year's months are together (and a
                // decade's years): the first of them is where its link leads.
                let year = index[key: id].day.year
                if year == last { continue }
                last = year
                label = format.year(year)
            case (.year, true):
                let year = index[key: id].year
                let decade = (year < 0 ? -1 : 1) * (Int(year.magnitude / 10) + 1)
                if decade == last { continue }
                last = decade
                label = format.decade(year)
            default: label = heading(of: id, site)
            }
            let page = start / size + 1
            let url = urls.path(path(page)) + "#" + index[key: id].group(key.order)
            let labelLanguage = TextLanguage.of(label, otherwise: language)
            jumps.append(
                Jump(
                    page: page, here: JumpLink(label: label, url: url, onThisPage: true, language: labelLanguage),
                    elsewhere: JumpLink(label: label, url: url, onThisPage: false, language: labelLanguage)))
        }
        return jumps
    }

    /// The heading over the group a review falls in.
    func heading(of id: Int, _ site: Presentation) -> String {
        switch self.key.order {
        case .date: return site.context.format.month(site.index[key: id].day)
        case .title: return site.index[key: id].initial
        case .rating:
            let halves = site.index[key: id].ratingHalves
            return halves < 0
                ? site.context.labels.notRated : site.context.format.ratingHeading(Rating(halves: halves)!)
        case .year: return site.context.format.year(site.index[key: id].year)
        }
    }

    /// The pager of page `number`; nil when the list fits on one page.
    func pagination(_ number: Int, _ site: Presentation) -> PaginationModel? {
        Self.pagination(number, of: count, byDate: key.order == .date, context: site.context, path: path)
    }

    /// The pager of page `number` of `total`, each page's folder given by `path`; nil for one
    /// page. "Newer" and "Older" name the steps of a list by date, "Previous" and "Next" others.
    static func pagination(
        _ number: Int, of total: Int, byDate: Bool, context: SiteContext, path: (Int) -> String
    ) -> PaginationModel? {
        guard total > 1 else { return nil }
        let urls = context.urls
        let labels = context.labels
        let (before, after) = byDate ? (labels.newerPage, labels.olderPage) : (labels.previousPage, labels.nextPage)
        let items = window(number, of: total).map { page -> PageItem in
            guard let page else { return PageItem(number: "…", url: "", current: false, gap: true) }
            return PageItem(
                number: context.format.number(page), url: urls.path(path(page)), current: page == number, gap: false)
        }
        return PaginationModel(
            label: context.format.pageOf(number, total),
            previous: number > 1 ? StepLink(url: urls.path(path(number - 1)), label: before) : nil,
            next: number < total ? StepLink(url: urls.path(path(number + 1)), label: after) : nil, items: items)
    }

    /// The page numbers a pager shows: the first, the last and two on each side of the
    /// current one, with nil for each gap of two pages or more (a gap of one shows that page:
    /// "…" would take its place and hide it); all of them when there are few.
    static func window(_ current: Int, of total: Int) -> [Int?] {
        guard total > 7 else { return Array(1...total) }
        let around = Set([1, total] + (current - 2...current + 2).filter { (1...total).contains($0) })
        var shown: [Int?] = []
        var last = 0
        for page in around.sorted() {
            if page == last + 2 {
                shown.append(last + 1)
            } else if page > last + 2 {
                shown.append(nil)
            }
            shown.append(page)
            last = page
        }
        return shown
    }
}
