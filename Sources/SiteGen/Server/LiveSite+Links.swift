/// Links by source path while serving: a review that comes, goes or changes its URL changes
/// the links to it, so the reviews that link to it are read again (and a page or section
/// intro linking to it means a full build).
extension LiveSite {
    /// The link rules of the site as it is, with the output paths of `moved` sources (nil: no
    /// longer published) taking the place of what the index says.
    func links(moved: [String: String?] = [:]) -> MarkdownLinks {
        let index = presentation.index
        let others = MarkdownLinks.targets(reviews: [], pages: content.pages, sections: content.sections)
        return MarkdownLinks(basePath: content.config.baseURL.path).resolving { source in
            if let path = moved[source] { return path }
            if let id = index.ids[source], let review = index.reviews[id] { return review.path }
            return others[source]
        }
    }

    /// Where `replacements` move published files: each source whose output path changes
    /// (a review that came, went, or took another slug), with its new path.
    func movedSources(_ replacements: [(source: String, review: Review?)]) -> [String: String?] {
        let index = presentation.index
        var moved: [String: String?] = [:]
        for (source, review) in replacements {
            let old = index.ids[source].flatMap { index.reviews[$0] }?.path
            if old != review?.path { moved[source] = .some(review?.path) }
        }
        return moved
    }

    /// Whether a page or section intro links to one of `sources`.
    func pagesLink(to sources: some Collection<String>) -> Bool {
        let links = content.pages.flatMap(\.sourceLinks) + content.sections.flatMap(\.sourceLinks)
        return links.contains { $0.target.map(sources.contains) ?? false }
    }

    /// The sources of the reviews, as they are after `replacements`, that link to one of `sources`.
    func reviewsLinking(
        to sources: Set<String>, after replacements: [(source: String, review: Review?)]
    ) -> [String] {
        let index = presentation.index
        let replaced = Dictionary(replacements.map { ($0.source, $0.review) }, uniquingKeysWith: { $1 })
        var linking: [String] = []
        let links = { (review: Review) in review.sourceLinks.contains { $0.target.map(sources.contains) ?? false } }
        for id in index.liveIDs {
            let review = index[review: id]
            // Most reviews link to no other file: that is looked at before their source is looked up.
            if links(review), replaced[review.source] == nil { linking.append(review.source) }
        }
        for (source, review) in replaced {
            if let review, links(review) { linking.append(source) }
        }
        return linking.sorted()
    }
}
