/// Plain pages (`content/about.md`).
struct PlainPagePresenter: PagePresenter {
    func owns(_ key: PageKey) -> Bool {
        if case .plain = key { return true }
        return false
    }

    func keys(_ site: Presentation) -> [PageKey] {
        site.context.pages.map { .plain($0.slug) }
    }

    func output(_ key: PageKey, _ site: Presentation) -> String {
        guard case .plain(let slug) = key else { return "" }
        return "\(slug)/index.html"
    }

    func job(_ key: PageKey, _ site: Presentation) -> PageJob {
        let context = site.context
        guard case .plain(let slug) = key, let page = context.pages.first(where: { $0.slug == slug }) else {
            preconditionFailure("not a plain page: \(key)")
        }
        let model = PlainPageModel(
            site: context.sharedSite(at: .page(page.slug)), labels: context.sharedLabels,
            page: context.head(title: page.title, description: page.description, path: page.path, kind: "page"),
            title: page.title, html: page.html, extra: .object(page.extra))
        return PageJob.folder(page.path, template: "page", model: model)
    }

    /// Plain pages show no review: a change to the reviews leaves them as they are.
    func affected(by change: IndexChange, _ site: Presentation) -> [PageKey] { [] }
}

/// The not-found page.
struct NotFoundPresenter: PagePresenter {
    func owns(_ key: PageKey) -> Bool { key == .notFound }

    func keys(_ site: Presentation) -> [PageKey] { [.notFound] }

    func output(_ key: PageKey, _ site: Presentation) -> String { "404.html" }

    func job(_ key: PageKey, _ site: Presentation) -> PageJob {
        let context = site.context
        let model = NotFoundPageModel(
            site: context.sharedSite(at: .other), labels: context.sharedLabels,
            page: context.head(
                title: context.labels.notFoundTitle, description: context.labels.notFoundText, path: "404.html",
                kind: "not-found", isCanonical: false))
        return PageJob(output: "404.html", template: "404", model: model)
    }

    func affected(by change: IndexChange, _ site: Presentation) -> [PageKey] { [] }
}
