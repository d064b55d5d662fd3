/// Builds each section's sorted indexes: the main page (paginated) and one page per other ordering.
struct SectionPresenter {
    let context: SiteContext
    let ordering: ReviewOrdering

    /// The index pages of the sections named in `names` (all sections when nil); with
    /// `outputs`, only the pages written to those paths.
    func jobs(sections names: Set<String>? = nil, outputs: Set<String>? = nil) -> [PageJob] {
        context.content.sections.filter { names?.contains($0.name) ?? true }.flatMap { section -> [PageJob] in
            let members = context.content.reviews.indices.filter { context.content.reviews[$0].section == section.name }
            return SortOrder.allCases.flatMap { order in
                let sorted = ordering.sorted(Array(members), by: order)
                if order == section.defaultSort {
                    return paginated(section, sorted, total: members.count, outputs: outputs)
                }
                let path = context.urls.sorted(section.name, order)
                guard outputs?.contains(path + "index.html") ?? true else { return [] }
                return [
                    PageJob.folder(
                        path, template: "section",
                        model: model(
                            section, order: order, path: path, reviews: sorted,
                            total: members.count, pagination: nil),
                        lists: sorted)
                ]
            }
        }
    }

    func paginated(_ section: ReviewSection, _ sorted: [Int], total: Int, outputs: Set<String>?) -> [PageJob] {
        let size = context.config.pageSize
        let pageCount = max(1, (sorted.count + size - 1) / size)
        let urls = context.urls
        let numbers = (1...pageCount).filter { outputs?.contains(urls.page(section.name, $0) + "index.html") ?? true }
        return numbers.map { number in
            let path = urls.page(section.name, number)
            let slice = Array(sorted.dropFirst((number - 1) * size).prefix(size))
            let pagination =
                pageCount == 1
                ? nil
                : PaginationModel(
                    label: context.format.pageOf(number, pageCount),
                    previous: number > 1 ? urls.path(urls.page(section.name, number - 1)) : nil,
                    next: number < pageCount ? urls.path(urls.page(section.name, number + 1)) : nil,
                    pages: (1...pageCount).map {
                        PageLink(
                            number: context.format.number($0), url: urls.path(urls.page(section.name, $0)),
                            current: $0 == number)
                    })
            return PageJob.folder(
                path, template: "section",
                model: model(
                    section, order: section.defaultSort, path: path, reviews: slice,
                    total: total, pagination: pagination),
                lists: slice)
        }
    }

    func model(
        _ section: ReviewSection, order: SortOrder, path: String, reviews: [Int], total: Int,
        pagination: PaginationModel?
    ) -> SectionPageModel {
        let urls = context.urls
        let sorts = SortOrder.allCases.map { other in
            SortLink(
                label: context.format.sortLabel(other),
                url: urls.path(
                    other == section.defaultSort ? urls.section(section.name) : urls.sorted(section.name, other)),
                current: other == order)
        }
        var title = order == section.defaultSort ? section.title : context.format.sortedTitle(section.title, order)
        if let pagination, let current = pagination.pages.first(where: \.current), current.number != "1" {
            title += " · \(pagination.label)"
        }
        return SectionPageModel(
            site: context.sharedSite(at: .section(section.name)), labels: context.sharedLabels,
            page: context.head(title: title, description: nil, path: path, kind: "section"),
            section: SectionModel(
                title: section.title, url: urls.path(urls.section(section.name)),
                intro: section.introHTML, kind: section.kind.rawValue,
                countLabel: context.format.reviewCount(total)),
            sorts: sorts, groups: context.groups(reviews, by: order, ordering: ordering), pagination: pagination)
    }
}
