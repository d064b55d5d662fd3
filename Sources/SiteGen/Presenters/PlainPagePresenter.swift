import Mustache

/// Builds plain pages (`content/about.md`) and the not-found page.
struct PlainPagePresenter {
    let context: SiteContext

    func jobs() -> [PageJob] {
        context.content.pages.map { page in
            let model = PlainPageModel(
                site: context.sharedSite(at: .page(page.slug)), labels: context.sharedLabels,
                page: context.head(title: page.title, description: page.description, path: page.path, kind: "page"),
                title: page.title, html: page.html, extra: .object(page.extra))
            return PageJob.folder(page.path, template: "page", model: model)
        }
    }

    func notFound() -> PageJob {
        let model = NotFoundPageModel(
            site: context.sharedSite(at: .other), labels: context.sharedLabels,
            page: context.head(
                title: context.labels.notFoundTitle, description: nil, path: "404.html",
                kind: "not-found"))
        return PageJob(output: "404.html", template: "404", model: model)
    }
}
