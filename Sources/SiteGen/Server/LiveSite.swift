import Foundation
import Mustache

/// The site as `sitegen serve` holds it: every file rendered in memory, with what an
/// incremental rebuild needs to redo only what a change touches. A rebuild returns a
/// new value; the files it produces are the same as a full build's.
public struct LiveSite: Sendable {
    /// Every file of the site by output path.
    public let files: [String: Data]
    /// How the last update was made, for logs and the benchmark.
    public let lastUpdate: Update
    let builder: SiteBuilder
    let content: SiteContent
    let context: SiteContext
    let ordering: ReviewOrdering
    let library: TemplateLibrary
    /// Page jobs by output path.
    let jobs: [String: PageJob]

    /// What an update did.
    public struct Update: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case full
            case reviews
            case templates
            case staticFiles
        }

        public let kind: Kind
        /// Files whose bytes changed (or appeared, or went away).
        public let changedFiles: [String]

        /// Whether only stylesheets changed, so a page can swap them instead of reloading.
        public var onlyStylesheets: Bool {
            !changedFiles.isEmpty && changedFiles.allSatisfy { $0.hasSuffix(".css") }
        }
    }

    /// Loads, presents and renders the whole site.
    public static func build(_ builder: SiteBuilder, previous: [String: Data] = [:]) throws -> LiveSite {
        let content = try builder.load()
        let library = try SiteBuilder.compile(content.theme)
        let presenter = SitePresenter(content: content, isPreview: true)
        let presentation = presenter.present()
        let pages = try PageRenderer(library: library).render(presentation.pages)
        let files = try SiteBuilder.assemble(pages, presentation: presentation, content: content)
        return LiveSite(
            files: files, lastUpdate: Update(kind: .full, changedFiles: Self.difference(previous, files)),
            builder: builder, content: content, context: presenter.context, ordering: presentation.ordering,
            library: library, jobs: Dictionary(presentation.pages.map { ($0.output, $0) }, uniquingKeysWith: { $1 }))
    }

    /// The site after the files at `paths` (relative to the site folder) changed.
    public func updating(_ paths: Set<String>) throws -> LiveSite {
        let reviews = paths.filter(isReview)
        let templates = paths.filter { $0.hasPrefix(Theme.folderName + "/") }
        let statics = paths.filter { $0.hasPrefix("static/") }
        if reviews.count + templates.count + statics.count < paths.count {
            return try Self.build(builder, previous: files)
        }
        var site = self
        var written: Set<String> = []
        if !reviews.isEmpty {
            guard let updated = try site.updatingReviews(reviews, written: &written) else {
                return try Self.build(builder, previous: files)
            }
            site = updated
        }
        if !templates.isEmpty { site = try site.updatingTheme(written: &written) }
        if !statics.isEmpty {
            guard let updated = try site.updatingStatic(statics, written: &written) else {
                return try Self.build(builder, previous: files)
            }
            site = updated
        }
        let kind: Update.Kind = !reviews.isEmpty ? .reviews : !templates.isEmpty ? .templates : .staticFiles
        let changed = written.filter { files[$0] != site.files[$0] }.sorted()
        return site.with(files: site.files, update: Update(kind: kind, changedFiles: changed))
    }
}

private extension LiveSite {
    func with(files: [String: Data], update: Update) -> LiveSite {
        LiveSite(
            files: files, lastUpdate: update, builder: builder, content: content, context: context,
            ordering: ordering, library: library, jobs: jobs)
    }

    /// A review file of a known section (not `_index.md`).
    func isReview(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return parts.count == 3 && parts[0] == "content" && parts[2].hasSuffix(".md") && parts[2] != "_index.md"
            && content.sections.contains { $0.name == parts[1] }
    }

    /// Re-reads changed reviews; re-presents only the pages that show them and re-renders
    /// only pages whose model changed. Nil when a change moves reviews around (a new,
    /// deleted or re-sorted review), which needs a full rebuild.
    func updatingReviews(_ paths: Set<String>, written: inout Set<String>) throws -> LiveSite? {
        var reviews = content.reviews
        var staticFiles = content.staticFiles
        var changed: [Int] = []
        var problems: [Diagnostic] = []
        let enricher = MetadataEnricher(
            cache: MetadataCache(folder: builder.options.source.appendingPathComponent(MetadataCache.folderName)))
        for path in paths.sorted() {
            guard let index = reviews.firstIndex(where: { $0.source == path }),
                let data = FileManager.default.contents(
                    atPath: builder.options.source.appendingPathComponent(path).path),
                let text = String(data: data, encoding: .utf8),
                let section = content.sections.first(where: { $0.name == reviews[index].section })
            else { return nil }
            let (read, readProblems) = Review.read(
                text, source: path, section: section.name, kind: section.kind, allowRawHTML: content.config.rawHTML)
            problems += readProblems
            guard let read else { continue }
            let attached = enricher.attach(read)
            problems += attached.problems
            // Another poster or cover would leave the old image behind: rebuild everything.
            guard attached.review.sortsLike(reviews[index]),
                attached.review.metadata?.images == reviews[index].metadata?.images
            else { return nil }
            reviews[index] = attached.review
            staticFiles.merge(attached.images) { _, new in new }
            changed.append(index)
        }
        guard problems.isEmpty else { throw BuildError(step: "loading the site", diagnostics: problems) }
        let newContent = SiteContent(
            config: content.config, sections: content.sections, reviews: reviews, pages: content.pages,
            theme: content.theme, staticFiles: staticFiles, warnings: content.warnings)
        let newContext = context.updating(content: newContent, changed: changed)
        // A review whose card is unchanged shows differently on its own page only.
        let changedSet = Set(changed.filter { newContext.cards[$0] != context.cards[$0] })
        // Every page that shows a changed review, grouped by the presenter that makes it.
        var reviewPages = Set(changed)
        var sectionPages: Set<String> = []
        for job in jobs.values where job.lists.contains(where: changedSet.contains) {
            if job.template == "review" { reviewPages.insert(job.lists[0]) }
            if job.template == "section" { sectionPages.insert(job.output) }
        }
        let touched = changedSet.sorted().map { reviews[$0] }
        var fresh = ReviewPagePresenter(context: newContext, ordering: ordering).jobs(for: reviewPages.sorted())
        fresh += SectionPresenter(context: newContext, ordering: ordering)
            .jobs(sections: Set(touched.map(\.section)), outputs: sectionPages)
        fresh += TaxonomyPresenter(context: newContext, ordering: ordering, taxonomy: .tags)
            .jobs(slugs: Set(touched.flatMap(\.tags).map(\.slug)))
        fresh += TaxonomyPresenter(context: newContext, ordering: ordering, taxonomy: .genres)
            .jobs(slugs: Set(touched.flatMap(\.genres).map(\.slug)))
        fresh.append(HomePresenter(context: newContext, ordering: ordering).job())
        let redo = fresh.filter { job in !(jobs[job.output].map { $0.model.isEqual(to: job.model) } ?? false) }
        var files = self.files
        for (path, data) in try PageRenderer(library: library).render(redo) {
            files[path] = data
            written.insert(path)
        }
        files["feed.xml"] = Data(FeedWriter.xml(FeedPresenter(context: newContext, ordering: ordering).model()).utf8)
        written.insert("feed.xml")
        for (path, data) in newContent.staticFiles where content.staticFiles[path] != data {
            files[path] = data
            written.insert(path)
        }
        var newJobs = jobs
        for job in fresh { newJobs[job.output] = job }
        return LiveSite(
            files: files, lastUpdate: lastUpdate, builder: builder, content: newContent, context: newContext,
            ordering: ordering, library: library, jobs: newJobs)
    }

    /// Reloads the theme; re-renders every page with the new templates (only changed bytes count).
    func updatingTheme(written: inout Set<String>) throws -> LiveSite {
        let theme = try Theme.load(site: builder.options.source, fileSystem: builder.fileSystem)
        let library = try SiteBuilder.compile(theme)
        var files = self.files
        for (path, data) in try PageRenderer(library: library).render(Array(jobs.values)) {
            files[path] = data
            written.insert(path)
        }
        // Assets added, changed or removed, except where a file of static/ takes their place.
        var staticFiles = content.staticFiles
        for path in Set(theme.assets.keys).union(content.theme.assets.keys)
        where content.staticFiles[path] == content.theme.assets[path] {
            files[path] = theme.assets[path]
            staticFiles[path] = theme.assets[path]
            written.insert(path)
        }
        let newContent = SiteContent(
            config: content.config, sections: content.sections, reviews: content.reviews, pages: content.pages,
            theme: theme, staticFiles: staticFiles, warnings: content.warnings)
        return LiveSite(
            files: files, lastUpdate: lastUpdate, builder: builder, content: newContent, context: context,
            ordering: ordering, library: library, jobs: jobs)
    }

    /// Re-reads changed files of `static/`. Nil for a folder (also one that was moved away or
    /// deleted) or a link out of `static/`, which a full build lists or refuses.
    func updatingStatic(_ paths: Set<String>, written: inout Set<String>) throws -> LiveSite? {
        var files = self.files
        var staticFiles = content.staticFiles
        let folder = builder.options.source.appendingPathComponent("static")
        for path in paths {
            let relative = String(path.dropFirst("static/".count))
            written.insert(relative)
            if jobs[relative] != nil || relative == "feed.xml" || relative == "sitemap.xml" {
                throw BuildError(step: "copying static files", diagnostics: [.staticClash(relative)])
            }
            if let url = SafePath.resolve(relative, in: folder),
                let data = FileManager.default.contents(atPath: url.path)
            {
                files[relative] = data
                staticFiles[relative] = data
            } else if FileManager.default.fileExists(atPath: folder.appendingPathComponent(relative).path)
                || staticFiles.keys.contains(where: { $0.hasPrefix(relative + "/") })
            {
                // A folder, or one that went away with its files: a full build lists what is there.
                return nil
            } else {
                files[relative] = content.theme.assets[relative]
                staticFiles[relative] = content.theme.assets[relative]
            }
        }
        let newContent = SiteContent(
            config: content.config, sections: content.sections, reviews: content.reviews, pages: content.pages,
            theme: content.theme, staticFiles: staticFiles, warnings: content.warnings)
        return LiveSite(
            files: files, lastUpdate: lastUpdate, builder: builder, content: newContent, context: context,
            ordering: ordering, library: library, jobs: jobs)
    }

    /// The paths whose bytes differ between two sets of files.
    static func difference(_ old: [String: Data], _ new: [String: Data]) -> [String] {
        Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }.sorted()
    }
}

extension Review {
    /// Whether the two place a review in the same spot of every list: same path, title, date,
    /// rating, year, tags, genres and draft state (and so the same neighbours and related reviews).
    func sortsLike(_ other: Review) -> Bool {
        source == other.source && path == other.path && title == other.title && date == other.date
            && rating == other.rating && year == other.year && tags == other.tags && genres == other.genres
            && draft == other.draft && work.kind == other.work.kind
    }
}
