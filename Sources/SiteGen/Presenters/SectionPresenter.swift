/// Each section's sorted indexes: the main one in the section's own order (a few large
/// cards a page), and one compact list per other order.
struct SectionPresenter: PagePresenter {
    func owns(_ key: PageKey) -> Bool {
        if case .list(let list, _) = key, case .section = list.scope { return true }
        return false
    }

    func keys(_ site: Presentation) -> [PageKey] {
        site.context.sections.flatMap { section in
            SortOrder.allCases.flatMap { order -> [PageKey] in
                let list = ListKey(.section(section.name), order)
                return (1...pages(list, site).count).map { .list(list, page: $0) }
            }
        }
    }

    func output(_ key: PageKey, _ site: Presentation) -> String {
        guard case .list(let list, let page) = key else { return "" }
        return pages(list, site).path(page) + "index.html"
    }

    func job(_ key: PageKey, _ site: Presentation) -> PageJob {
        guard case .list(let list, let number) = key, case .section(let name) = list.scope,
            let section = site.context.section(named: name)
        else { preconditionFailure("not a section page: \(key)") }
        let pages = pages(list, site)
        let context = site.context
        let urls = context.urls
        let sorts = SortOrder.allCases.map { other in
            SortLink(
                label: context.format.sortLabel(other), url: urls.path(urls.sorted(section, other)),
                current: other == list.order)
        }
        let listModel = pages.model(number, site)
        var title =
            list.order == section.defaultSort ? section.title : context.format.sortedTitle(section.title, list.order)
        if number > 1, let pagination = listModel.pagination { title += " · \(pagination.label)" }
        let onPage = pages.members[pages.range(number)]
        // A schema.org `ItemList` of the page's reviews and the section's place in the site.
        let crumbs = [(context.labels.home, urls.absolute("")), (section.title, urls.absolute(urls.section(name)))]
        let structuredData = JSONLDWriter.page(crumbs: crumbs) { graph in
            graph.object(type: "ItemList") { node in
                node.member(
                    "itemListElement",
                    list: { list in
                        for (position, id) in zip(pages.range(number), onPage) {
                            list.object(type: "ListItem") { item in
                                item.member("position", number: Double(position + 1))
                                item.member("url", urls.absolute(site.index[review: id].path))
                            }
                        }
                    })
                node.member("numberOfItems", number: Double(pages.members.count))
            }
        }
        let model = SectionPageModel(
            site: context.sharedSite(at: .section(name), isItself: number == 1 && list.order == section.defaultSort),
            labels: context.sharedLabels,
            page: context.head(
                title: title,
                description: context.format.listDescription(
                    section.title, count: pages.members.count, order: list.order)
                    + (number > 1 ? " · \(listModel.pagination?.label ?? "")" : ""),
                path: pages.path(number), kind: "section",
                structuredData: structuredData,
                feeds: [ReviewPagePresenter().sectionFeed(name, context)]),
            section: SectionModel(
                title: section.title, url: urls.path(urls.section(name)), intro: section.introHTML,
                kind: section.kind.rawValue, countLabel: context.format.reviewCount(pages.members.count)),
            sorts: sorts, list: listModel)
        return PageJob.folder(pages.path(number), template: "section", model: model)
    }

    func affected(by change: IndexChange, _ site: Presentation) -> [PageKey] {
        var keys: [PageKey] = []
        for section in site.context.sections {
            // The count in every page's header follows the section's size.
            let resized = change.lists[ListKey(.section(section.name), .date)]?.toEnd == true
            for order in SortOrder.allCases {
                let list = ListKey(.section(section.name), order)
                let pages = pages(list, site)
                let numbers = resized ? Array(1...pages.count) : pages.affected(by: change, site)
                keys += numbers.map { .list(list, page: $0) }
            }
        }
        return keys
    }

    func pages(_ list: ListKey, _ site: Presentation) -> ListPages {
        guard case .section(let name) = list.scope, let section = site.context.section(named: name) else {
            preconditionFailure("not a section list: \(list)")
        }
        return ListPages(
            list, folder: site.context.urls.sorted(section, list.order), isCompact: list.order != section.defaultSort,
            site: site)
    }
}
