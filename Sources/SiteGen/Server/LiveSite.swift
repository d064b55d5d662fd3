import Foundation
import Mustache

/// The site as `sitegen serve` holds it: every file in memory, with what an update needs to
/// redo only what a change touches. It runs the build's own steps (``SiteLoader`` to read,
/// ``MetadataEnricher`` to enrich, ``SitePresenter`` to present, ``PageRenderer`` to render);
/// an update re-reads the changed files, moves the changed reviews in the ``SiteIndex``,
/// presents only the pages the change may affect, and renders only those whose model
/// changed. The files it produces are the same as a full build's.
///
/// An update can leave its pages to be made later (``deferredUpdate(_:)``): the pages it
/// touches are then *pending*, made one at a time when asked for (``page(_:)``) and all at
/// once by ``completed()``, so the server can answer for a changed page before the others
/// are made.
public struct LiveSite: Sendable {
    /// Every file of the site by output path (for a pending page, its bytes before the update
    /// that made it pending, if it had any).
    public let files: [String: Data]
    /// How the last update was made, for logs and the benchmark.
    public let lastUpdate: Update
    /// How much work the last update took.
    public let lastWork: Work
    let builder: SiteBuilder
    let content: SiteContent
    let presentation: Presentation
    let library: TemplateLibrary
    /// The job (template and model) of each page, by output path (for a pending page
    /// presented again, the job its bytes in ``files`` were made from).
    let jobs: [String: PageJob]
    /// The pages whose bytes the last update left to be made, by output path.
    let pending: [String: PendingPage]
    /// Whether the last update presented every page again.
    var presentedAll = false
    /// The files the last update read again, and their warnings.
    public internal(set) var lastReading = Reading(files: nil, warnings: [])

    /// What an update did.
    public struct Update: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// Everything read, presented and rendered again.
            case full
            /// Reviews moved in (or into, or out of) the site's lists.
            case reviews
            /// Every page presented again from the reviews already read (settings, the
            /// navigation or the footer changed), and rendered again where its model changed.
            case allPages
            /// Pages rendered again with new templates.
            case templates
            /// Static files copied again.
            case staticFiles
        }

        public let kind: Kind
        /// Files whose bytes changed (or appeared, or went away), in order once every page is
        /// made; with pages left pending (``LiveSite/deferredUpdate(_:)``), in no particular order.
        public let changedFiles: [String]

        public init(kind: Kind, changedFiles: [String]) {
            self.kind = kind
            self.changedFiles = changedFiles
        }

        /// Whether only stylesheets changed, so a page can swap them instead of reloading.
        public var onlyStylesheets: Bool {
            !changedFiles.isEmpty && changedFiles.allSatisfy { $0.hasSuffix(".css") }
        }
    }

    /// The files an update read again and their warnings, for `serve` to print those an
    /// edit brought (``SiteContent/warnings`` are the first build's).
    public struct Reading: Sendable, Equatable {
        /// The files read (relative to the site folder), or nil when the whole site was.
        public var files: Set<String>?
        /// Their warnings, each file's as a full build finds them but not summed up: an unknown
        /// field in each file that has it, a review dated after today at its file.
        public var warnings: [Diagnostic]
    }

    /// The work an update did.
    public struct Work: Sendable, Equatable {
        /// Pages presented again (their models compared with the old ones).
        public var presented = 0
        /// Pages rendered again (their models changed, or the templates did).
        public var rendered = 0
    }

    /// Loads, presents and renders the whole site.
    public static func build(_ builder: SiteBuilder, previous: [String: Data] = [:]) throws -> LiveSite {
        // As `build` checks it first, with the same step.
        try StateFolder.check(builder.options.source, step: "checking the site folder")
        let content = try builder.load()
        let library = try SiteBuilder.compile(content.theme)
        let presentation = SiteBuilder.present(content, isPreview: true, tracksDependents: true)
        let jobs = SitePresenter.jobs(presentation)
        var files = try PageRenderer(library: library).render(jobs)
        files.merge(try SiteBuilder.staticFiles(content, besides: jobs)) { page, _ in page }
        return LiveSite(
            files: files,
            lastUpdate: Update(kind: .full, changedFiles: Self.difference(previous, files)),
            lastWork: Work(presented: jobs.count, rendered: jobs.count),
            builder: builder, content: content, presentation: presentation, library: library,
            jobs: Dictionary(jobs.map { ($0.output, $0) }, uniquingKeysWith: { $1 }), pending: [:],
            lastReading: Reading(files: nil, warnings: content.warnings))
    }

    /// The site after the files at `paths` (relative to the site folder) changed, every page made.
    public func updating(_ paths: Set<String>) throws -> LiveSite {
        try deferredUpdate(paths).completed()
    }

    /// The site after the files at `paths` changed, with the pages the change touches left
    /// pending: every error of reading, checking and presenting is thrown here, those of
    /// rendering by ``completed()``. Its ``Update/changedFiles`` lists every pending page
    /// (whose bytes may or may not change), in no particular order: what is served first
    /// need not wait to sort 45,000 paths; ``completed()`` says exactly which changed, in
    /// order. This site may itself have pending pages (an update whose pages were not all
    /// made when the next change came): they stay pending, and the update counts the files
    /// that one changed.
    public func deferredUpdate(_ paths: Set<String>) throws -> LiveSite {
        // `.sitegen/` made a link out of the site since the last build: refused, as a full build
        // refuses it, before anything (processed images) is written through it.
        try StateFolder.check(builder.options.source, step: "checking the site folder")
        var reviewSources: Set<String> = []
        var templates = false
        var statics: Set<String> = []
        var metadata: Set<String> = []
        var settings = Settings()
        for path in paths {
            let kind = classify(path)
            // A link to nothing, or a loop: the build reports it, and so does a full build here.
            if !kind.isIgnored, isBrokenLink(path) { return try Self.build(builder, previous: files) }
            switch kind {
            case .ignored: continue
            case .config: settings.config = true
            case .sectionIndex(let name): settings.sections.insert(name)
            case .page: settings.pages = true
            case .review(let source): reviewSources.insert(source)
            case .reviewFile(let sources): reviewSources.formUnion(sources)
            case .sectionFolder(let section):
                // The folder itself changed (its permissions, say): its intro is read again too.
                settings.sections.insert(section)
                let (sources, problems) = loader.reviewSources(in: section)
                guard problems.isEmpty else { throw BuildError(step: "loading the site", diagnostics: problems) }
                reviewSources.formUnion(sources)
                reviewSources.formUnion(presentation.index.ids.keys.filter { $0.hasPathPrefix("content/\(section)/") })
            case .template: templates = true
            case .staticFile(let relative): statics.insert(relative)
            case .metadata(let relative): metadata.insert(relative)
            case .other: return try Self.build(builder, previous: files)
            }
        }
        var site = self
        var changed: Set<String> = []
        var reading = Reading(files: [], warnings: [])
        var kind = Update.Kind.staticFiles
        if !metadata.isEmpty { reviewSources.formUnion(reviews(using: metadata)) }
        // Pages or intros and reviews at once may link to each other's new names: read everything.
        if settings.pages || !settings.sections.isEmpty, !reviewSources.isEmpty {
            return try Self.build(builder, previous: files)
        }
        // Static files first: a review, page or setting that changes with them is checked
        // against them as they are now (a file of static/ removed to make way for a review's).
        if !statics.isEmpty {
            guard let updated = try site.updatingStatic(statics, changed: &changed) else {
                return try Self.build(builder, previous: files)
            }
            site = updated
        }
        if settings.any {
            guard let content = try site.reloading(settings, &reading) else {
                return try Self.build(builder, previous: files)
            }
            site = try site.representing(content, index: presentation.index, changed: &changed)
        }
        if !reviewSources.isEmpty {
            guard let updated = try site.updatingReviews(reviewSources, changed: &changed, reading: &reading) else {
                return try Self.build(builder, previous: files)
            }
            site = updated
        }
        if settings.any || !reviewSources.isEmpty { kind = site.presentedAll ? .allPages : .reviews }
        if templates {
            site = try site.updatingTheme(changed: &changed)
            if kind == .staticFiles { kind = .templates }
        }
        site.listingWarnings(paths, &reading)
        // The files an update left unfinished changed count too (one changed back counts as well).
        let earlier = pending.isEmpty ? [] : lastUpdate.changedFiles.filter { site.pending[$0] == nil }
        let made = Set(earlier).union(changed.filter { site.pending[$0] == nil && files[$0] != site.files[$0] })
        let update = Update(kind: kind, changedFiles: Array(made) + site.pending.keys)
        var updated = site.with(update, Work())
        updated.lastReading = reading
        return updated
    }
}

private extension LiveSite {
    /// What a changed path is, for the update.
    enum ChangedPath {
        /// A review file of a known section (maybe new, maybe deleted).
        case review(String)
        /// A file of the reviews at these paths: the image they name, a page bundle's file.
        case reviewFile(Set<String>)
        /// A known section's folder itself (files moved in or out at once).
        case sectionFolder(String)
        case template
        /// A file of `static/`, by output path.
        case staticFile(String)
        /// A file of the metadata cache, relative to the cache folder.
        case metadata(String)
        /// A hidden file (an editor's swap file): the site never reads it.
        case ignored
        /// `site.yml`.
        case config
        /// A known section's `_index.md`.
        case sectionIndex(String)
        /// A plain page (`content/about.md`).
        case page
        /// Anything else (a new section): read everything again.
        case other

        var isIgnored: Bool {
            if case .ignored = self { true } else { false }
        }
    }

    /// Whether `path` is a symbolic link that leads nowhere (or into a loop).
    func isBrokenLink(_ path: String) -> Bool {
        let folder = SiteFolder(root: builder.options.source, fileSystem: builder.fileSystem)
        guard folder.kind(path) == nil, let name = path.pathSegments().last else { return false }
        return builder.fileSystem.isSymbolicLink(
            folder.path(path), name: String(name), in: folder.path(path.parentPath))
    }

    var loader: SiteLoader {
        SiteLoader(
            root: builder.options.source, fileSystem: builder.fileSystem,
            options: .init(
                includeDrafts: builder.options.includeDrafts, baseURL: builder.options.baseURL,
                today: builder.options.today))
    }

    func classify(_ path: String) -> ChangedPath {
        let parts = path.pathSegments(omittingEmpty: false).map(String.init)
        if parts.contains(where: \.isHiddenName) { return .ignored }
        let knownSection = { (name: String) in presentation.context.section(named: name) != nil }
        if path == SiteConfig.fileName { return .config }
        if parts.first == "content" {
            // A folder named like a Markdown file (`heat.md/`, maybe a page bundle or a section):
            // read as a full build reads it, not as a file.
            if path.hasSuffix(".md"),
                SiteFolder(root: builder.options.source, fileSystem: builder.fileSystem).kind(path) == .folder
            {
                return .other
            }
            if parts.count == 3, knownSection(parts[1]), parts[2] == "_index.md" { return .sectionIndex(parts[1]) }
            if parts.count == 3, knownSection(parts[1]), parts[2].hasSuffix(".md") { return .review(path) }
            if parts.count == 4, knownSection(parts[1]), ReviewFile.isBundle(path) { return .review(path) }
            if parts.count == 2, parts[1].hasSuffix(".md") { return .page }
            // A section folder still there had files moved in or out; one that went away (or
            // turned into something else) takes its section with it: a full build.
            if parts.count == 2, knownSection(parts[1]) {
                let folder = SiteFolder(root: builder.options.source, fileSystem: builder.fileSystem)
                return folder.kind(path) == .folder ? .sectionFolder(parts[1]) : .other
            }
            if parts.count >= 3, knownSection(parts[1]) { return .reviewFile(reviewFile(path, parts)) }
            return .other
        }
        if parts.first == Theme.folderName { return .template }
        if parts.first == "static", parts.count > 1 { return .staticFile(parts.dropFirst().joined(separator: "/")) }
        if parts.first == MetadataCache.folderName, parts.count > 1 {
            return .metadata(parts.dropFirst().joined(separator: "/"))
        }
        return .other
    }

    /// The "ignored" warnings a full build gives for the entries of known sections that
    /// `paths` are in or below (a `notes.txt` dropped into `content/movies/`, a folder there
    /// without `index.md`, a bundle whose `index.md` went), as they are now, into `reading`;
    /// an entry without one clears what was shown for it.
    func listingWarnings(_ paths: Set<String>, _ reading: inout Reading) {
        guard reading.files != nil else { return }
        let folder = SiteFolder(root: builder.options.source, fileSystem: builder.fileSystem)
        var reviews: [Review]?
        for path in paths {
            let parts = path.pathSegments(omittingEmpty: false)
            guard parts.count >= 3, parts[0] == "content", presentation.context.section(named: String(parts[1])) != nil,
                !parts.contains(where: \.isHiddenName), parts[2] != "_index.md"
            else { continue }
            let entry = parts[0..<3].joined(separator: "/")
            guard reading.files?.insert(entry).inserted == true else { continue }
            let kind = folder.kind(entry)
            let index = entry + "/" + ReviewFile.bundleIndex
            let ignored: Bool
            switch kind {
            // A folder whose index.md is there but out of reach is a review's error, not ignored.
            case .folder: ignored = folder.kind(index) == nil && folder.unreachable(index) == nil
            case .file: ignored = !entry.hasSuffix(".md")
            case .special, nil: ignored = false
            }
            guard ignored else { continue }
            if reviews == nil { reviews = presentation.index.liveIDs.map { presentation.index[review: $0] } }
            guard !SiteLoader.isImage(entry, of: reviews ?? []) else { continue }
            reading.warnings.append(SiteLoader.ignoredInSection(entry, isFolder: kind == .folder))
        }
    }

    /// The reviews a file of a known section belongs to: those naming it as their image, and
    /// the page bundle it is in (or was, for a bundle folder moved away). Reading a bundle that
    /// is not there changes nothing, and a file no review uses is read by none (a review that
    /// failed to load for want of it is read again with the next change anyway).
    func reviewFile(_ path: String, _ parts: [String]) -> Set<String> {
        let index = presentation.index
        let users = index.ids.compactMap { source, id in index.reviews[id]?.image?.source == path ? source : nil }
        var sources = Set(users)
        sources.insert("content/\(parts[1])/\(parts[2])/\(ReviewFile.bundleIndex)")
        return sources
    }

    /// The reviews whose metadata is in one of the cache files `paths` (an entry or an image),
    /// or would be (a review whose entry was missing), or in a folder among `paths` (one whose
    /// permissions changed).
    func reviews(using paths: Set<String>) -> [String] {
        let index = presentation.index
        let isIn = { (file: String) in
            var path = file
            while !path.isEmpty, path != "/" {
                if paths.contains(path) { return true }
                path = path.parentPath
            }
            return false
        }
        return index.ids.compactMap { source, id in
            let review = index[review: id]
            guard let lookup = Lookup(review) else { return nil }
            let files = [lookup.path] + (review.metadata?.images.map(\.file) ?? [])
            return files.contains(where: isIn) ? source : nil
        }
    }

    func with(_ update: Update, _ work: Work) -> LiveSite {
        LiveSite(
            files: files, lastUpdate: update, lastWork: work, builder: builder, content: content,
            presentation: presentation, library: library, jobs: jobs, pending: pending)
    }

    /// Re-reads the review files at `sources` (changed, new or gone), moves them in the index,
    /// and leaves the pages that affects pending. Nil when a page or section intro links to a
    /// review that came, went or moved, which a full build handles.
    func updatingReviews(
        _ sources: Set<String>, changed: inout Set<String>, reading: inout Reading
    ) throws -> LiveSite? {
        let loader = self.loader
        let enricher = MetadataEnricher(
            cache: MetadataCache(folder: builder.options.source.appendingPathComponent(MetadataCache.folderName)))
        var problems: [Diagnostic] = []
        var replacements: [(source: String, review: Review?)] = []
        // Where each source is in `replacements`: the second reading replaces, in its place.
        var positions: [String: Int] = [:]
        let replace = { (source: String, review: Review?) in
            if let position = positions[source] {
                replacements[position] = (source, review)
            } else {
                positions[source] = replacements.count
                replacements.append((source, review))
            }
        }
        // A build's later steps' problems by review (read once more, a review's replace its
        // first reading's), reported as a build reports them once the reading succeeded.
        var cacheProblems: [String: [Diagnostic]] = [:]
        var imageProblems: [String: [Diagnostic]] = [:]
        var bundleProblems: [String: [Diagnostic]] = [:]
        var warnings: [String: [Diagnostic]] = [:]
        var staticFiles = content.staticFiles
        var publishedBefore: [String: PublishedFile]?
        var inTheWay: Set<String> = []
        let read = { (sources: [String], links: MarkdownLinks) in
            for source in sources {
                let name = String(source.pathSegments()[1])
                guard let section = presentation.context.section(named: name) else { continue }
                let (read, readProblems, readWarnings) = loader.reloadReview(
                    source, section: section, config: content.config, links: links)
                problems += readProblems
                guard readProblems.isEmpty else { continue }
                warnings[source] = readWarnings
                guard let read else {
                    replace(source, nil)
                    continue
                }
                let attached = enricher.attach(read)
                warnings[source, default: []] += attached.warnings
                for path in attached.images.keys.sorted()
                where lstatKind(builder.options.source.appendingPathComponent("static/" + path).path) != nil {
                    warnings[source, default: []].append(.staticUnderFetchedImage(path, review: source))
                }
                let withImage = builder.images.attach(attached.review)
                cacheProblems[source] = attached.problems
                // As a build refuses it: a file of static/ where a fetched image needs a folder,
                // or in a folder where one goes.
                for path in attached.images.keys.sorted() where content.staticFiles[path] == nil {
                    if let other = staticClash(with: path), inTheWay.insert(other).inserted {
                        cacheProblems[source, default: []].append(.staticFolderClash(other, page: path))
                    }
                }
                imageProblems[source] = withImage.problems
                bundleProblems[source] = withImage.bundleProblems
                // As a build refuses it: a file of static/ (or the theme) where the image or a
                // bundle's file goes.
                let review = withImage.review
                for path in withImage.files.keys.sorted() {
                    var clash: Diagnostic?
                    if content.staticFiles[path] != nil {
                        if publishedBefore == nil { publishedBefore = publishedFiles() }
                        if publishedBefore?[path] == nil { clash = review.ownFileClash(path) }
                    } else {
                        // Each static file once, as a build reports it, with the first own file.
                        if let other = staticClash(with: path), inTheWay.insert(other).inserted {
                            clash = review.ownFolderClash(path, staticPath: other)
                        }
                    }
                    if let clash {
                        if review.isBundleFile(path) {
                            bundleProblems[source, default: []].append(clash)
                        } else {
                            imageProblems[source, default: []].append(clash)
                        }
                    }
                }
                staticFiles.merge(attached.images) { _, new in new }
                staticFiles.merge(withImage.files) { _, new in new }
                replace(source, withImage.review)
            }
        }
        var links = self.links()
        read(sources.sorted(), links)
        guard problems.isEmpty else { throw BuildError(step: "loading the site", diagnostics: problems) }
        // Reviews that came, went or took another URL: the links to them change.
        let moved = movedSources(replacements)
        if !moved.isEmpty {
            guard !pagesLink(to: moved.keys) else { return nil }
            links = self.links(moved: moved)
            read(reviewsLinking(to: Set(moved.keys), after: replacements), links)
            guard problems.isEmpty else { throw BuildError(step: "loading the site", diagnostics: problems) }
        }
        let folder = SiteFolder(root: builder.options.source, fileSystem: builder.fileSystem)
        let broken = links.problems(replacements.flatMap { $0.review?.sourceLinks ?? [] }, in: folder)
        guard broken.isEmpty else { throw BuildError(step: "loading the site", diagnostics: broken) }
        var index = presentation.index
        let change = index.update(replacements, context: presentation.context)
        // Reviews' own files no longer published (a new image, a bundle's file gone, a new slug, gone).
        let ownFiles = { (ids: Set<Int>, index: SiteIndex) in
            Set(ids.flatMap { (index.reviews[safe: $0] ?? nil)?.ownFilePaths ?? [] })
        }
        for path in ownFiles(change.changed, presentation.index).subtracting(ownFiles(change.changed, index)) {
            staticFiles[path] = nil
        }
        let reviews = index.liveIDs.sorted().map { index[review: $0] }
        // Only a review that came, or took another address or other tags, can take another's.
        let claimsAnew = replacements.compactMap { source, review -> Review? in
            guard let review else { return nil }
            guard let id = presentation.index.ids[source], let old = presentation.index.reviews[id] else {
                return review
            }
            return old.path != review.path || old.tags != review.tags ? review : nil
        }
        if !claimsAnew.isEmpty {
            let checks = SiteLoader.crossChecks(
                sections: content.sections, reviews: reviews, pages: content.pages, changed: claimsAnew,
                tagNames: { index.spellings(.tag($0)) })
            guard checks.isEmpty else { throw BuildError(step: "loading the site", diagnostics: checks) }
        }
        for (step, found) in [
            (MetadataEnricher.step, cacheProblems), (ReviewImages.step, imageProblems),
            (BundleFiles.step, bundleProblems),
        ] {
            let diagnostics = found.sorted { $0.key < $1.key }.flatMap(\.value)
            guard diagnostics.isEmpty else { throw BuildError(step: step, diagnostics: diagnostics) }
        }
        reading.files?.formUnion(warnings.keys)
        reading.warnings += warnings.sorted { $0.key < $1.key }.flatMap(\.value)
        var newContent = SiteContent(
            config: content.config, sections: content.sections, reviews: reviews, pages: content.pages,
            theme: content.theme, staticFiles: staticFiles, warnings: content.warnings,
            nextPublication: content.nextPublication)
        // An image no review uses any more: the static file of that name, if any, takes its place.
        let images = { (review: Review?) in Set(review?.fetchedImagePaths ?? []) }
        let lostImages = change.changed.contains { id in
            !images(presentation.index.reviews[safe: id] ?? nil).isSubset(of: images(index.reviews[id]))
        }
        var gone: Set<String> = []
        if lostImages {
            let published = { (reviews: [Review]) in Set(reviews.flatMap { images($0) }) }
            gone = published(content.reviews).subtracting(published(reviews))
            newContent = try withoutImages(gone, newContent)
        }
        // A change to the navigation or the footer reaches every page: present them all again.
        guard index.facts == presentation.context.facts, gone.isEmpty else {
            return try representing(newContent, index: index, changed: &changed)
        }
        let newPresentation = Presentation(context: presentation.context, index: index)
        var files = self.files
        var jobs = self.jobs
        var pending = self.pending
        var keys = SitePresenter.affected(by: change, newPresentation)
        if change.placesChanged {
            // Pages that came or went with the change (a review, a page of a list), found by
            // their keys. A page whose address changed shows its new address (every model has
            // its own URL), so it is among the affected pages: only those, the pages that
            // came and the pages that went are looked up by address.
            let (came, went) = SitePresenter.keysChanged(from: presentation, to: newPresentation)
            let stayed = keys.subtracting(came)
            keys.formUnion(came)
            let outputs = Set(keys.map { SitePresenter.output($0, newPresentation) })
            try checkNewPages(outputs.filter { self.jobs[$0] == nil }, against: staticFiles)
            for key in went.union(stayed) {
                let output = SitePresenter.output(key, presentation)
                guard !outputs.contains(output) else { continue }
                jobs[output] = nil
                files[output] = nil
                pending[output] = nil
                changed.insert(output)
            }
        }
        // Presented (and compared with the old models) when made.
        for key in keys {
            Self.marking(&pending, SitePresenter.output(key, newPresentation), .present(key, always: false))
        }
        for path in Set(staticFiles.keys).union(content.staticFiles.keys)
        where content.staticFiles[path] != staticFiles[path] {
            files[path] = staticFiles[path]
            changed.insert(path)
        }
        return LiveSite(
            files: files, lastUpdate: lastUpdate, lastWork: lastWork, builder: builder, content: newContent,
            presentation: newPresentation, library: library, jobs: jobs, pending: pending, presentedAll: presentedAll)
    }

    /// What changed among the site's settings: `site.yml`, sections' `_index.md`, plain pages.
    struct Settings {
        var config = false
        var sections: Set<String> = []
        var pages = false

        var any: Bool { config || !sections.isEmpty || pages }
    }

    /// The content with its settings read again; nil when reviews must be read again too
    /// (raw HTML allowed or not, a section's kind), which a full build does.
    func reloading(_ settings: Settings, _ reading: inout Reading) throws -> SiteContent? {
        let loader = self.loader
        var config = content.config
        var warnings: [Diagnostic] = []
        var read: Set<String> = []
        if settings.config {
            let (found, problems) = loader.reloadConfig()
            guard let found else { throw BuildError(step: "loading the site", diagnostics: problems) }
            config = found
            read.insert(SiteConfig.fileName)
        }
        // Raw HTML or another base path changes every review's HTML; extra fields, its warnings.
        guard config.rawHTML == content.config.rawHTML, config.baseURL.path == content.config.baseURL.path,
            config.extraFields == content.config.extraFields
        else { return nil }
        let links = self.links()
        var sections = content.sections
        for name in settings.sections.sorted() {
            let (section, problems) = loader.reloadSection(name, rawHTML: config.rawHTML, links: links)
            guard let section else { throw BuildError(step: "loading the site", diagnostics: problems) }
            guard let position = sections.firstIndex(where: { $0.name == name }),
                sections[position].kind == section.kind
            else { return nil }
            sections[position] = section
            read.insert("content/\(name)/_index.md")
            warnings += problems.filter { $0.severity == .warning }
        }
        sections.sort { ($0.weight, $0.name) < ($1.weight, $1.name) }
        var pages = content.pages
        if settings.pages {
            let (found, problems, pageWarnings) = loader.reloadPages(
                rawHTML: config.rawHTML, links: links, extraFields: config.extraFields)
            guard problems.isEmpty else { throw BuildError(step: "loading the site", diagnostics: problems) }
            // A page that came, went or moved changes the links to it: a full build finds them.
            let targets = { (pages: [Page]) in MarkdownLinks.targets(reviews: [], pages: pages, sections: []) }
            guard targets(found) == targets(pages) else { return nil }
            read.formUnion((pages + found).map(\.source))
            warnings += pageWarnings
            pages = found
        }
        let folder = SiteFolder(root: builder.options.source, fileSystem: builder.fileSystem)
        let broken = links.problems(pages.flatMap(\.sourceLinks) + sections.flatMap(\.sourceLinks), in: folder)
        guard broken.isEmpty else { throw BuildError(step: "loading the site", diagnostics: broken) }
        // The checks read the sections' names, the reviews (the same here) and the pages'
        // sources and addresses: with those the same, the site passes them as it did before.
        let claims = { (sections: [ReviewSection], pages: [Page]) in
            (Set(sections.map(\.name)), pages.map(\.source), pages.map(\.path))
        }
        if claims(sections, pages) != claims(content.sections, content.pages) {
            let checks = SiteLoader.crossChecks(sections: sections, reviews: content.reviews, pages: pages)
            guard checks.isEmpty else { throw BuildError(step: "loading the site", diagnostics: checks) }
        }
        reading.files?.formUnion(read)
        reading.warnings += warnings
        return SiteContent(
            config: config, sections: sections, reviews: content.reviews, pages: pages, theme: content.theme,
            staticFiles: content.staticFiles, warnings: content.warnings,
            nextPublication: content.nextPublication)
    }

    /// `content` without the published images at `paths` (a file of `static/` or the theme by
    /// that name comes back in their place).
    func withoutImages(_ paths: Set<String>, _ content: SiteContent) throws -> SiteContent {
        var staticFiles = content.staticFiles
        var diagnostics: [Diagnostic] = []
        let folder = SiteFolder(root: builder.options.source, fileSystem: builder.fileSystem)
        for path in paths {
            staticFiles[path] = content.theme.assets[path]
            if folder.kind("static/\(path)") == .file, folder.isInside("static/\(path)", &diagnostics) {
                staticFiles[path] = folder.read("static/\(path)", limit: DiskFile.copiedSizeLimit, &diagnostics)
            }
        }
        guard diagnostics.isEmpty else { throw BuildError(step: "copying static files", diagnostics: diagnostics) }
        return SiteContent(
            config: content.config, sections: content.sections, reviews: content.reviews, pages: content.pages,
            theme: content.theme, staticFiles: staticFiles, warnings: content.warnings,
            nextPublication: content.nextPublication)
    }

    /// Every page presented again from `content` (whose reviews are already read), when
    /// made: pages whose model is unchanged keep their bytes, the others are rendered again.
    /// `index` is the index of `content`'s reviews under the old context.
    func representing(_ content: SiteContent, index: SiteIndex, changed: inout Set<String>) throws -> LiveSite {
        let context = SiteBuilder.context(content, isPreview: true)
        let presentation = Presentation(
            context: context,
            index: index.reusing(under: context, from: self.presentation.context)
                ?? SiteIndex(reviews: content.reviews, context: context, tracksDependents: true, previous: index))
        let keys = SitePresenter.keys(presentation)
        let outputs = keys.parallelMap { SitePresenter.output($0, presentation) }
        // Every page is pending: presented again when made. The table of them is also the
        // set of published paths (at 45,000 pages each table of paths takes 5 to 10 ms to make).
        var pending = Dictionary(zip(outputs, keys.lazy.map { PendingPage.present($0, always: false) })) {
            $0.merged(with: $1)
        }
        // What an unfinished update left pending comes first, as a step before this one.
        for (output, page) in self.pending {
            if let later = pending[output] { pending[output] = page.merged(with: later) }
        }
        let published = pending
        let staticFiles = try SiteBuilder.staticFiles(content, besides: outputs) { published[$0] != nil }
        // Each page keeps its old bytes, if any, until it is made: what changes now is the
        // pages and files that went, and the static files. Both tables are read on every core.
        var files = self.files
        var jobs = self.jobs
        for path in Array(self.files.keys).parallelFilter({ published[$0] == nil && staticFiles[$0] == nil }) {
            files[path] = nil
            changed.insert(path)
        }
        for path in Array(self.jobs.keys).parallelFilter({ published[$0] == nil }) { jobs[path] = nil }
        for (path, data) in staticFiles where self.files[path] != data {
            files[path] = data
            changed.insert(path)
        }
        return LiveSite(
            files: files, lastUpdate: lastUpdate, lastWork: lastWork, builder: builder, content: content,
            presentation: presentation, library: library, jobs: jobs, pending: pending, presentedAll: true)
    }

    /// Reloads the theme; leaves every page whose templates changed to be rendered again.
    func updatingTheme(changed: inout Set<String>) throws -> LiveSite {
        let theme = try Theme.load(site: SiteFolder(root: builder.options.source, fileSystem: builder.fileSystem))
        let library = try SiteBuilder.compile(theme)
        var files = self.files
        // Only pages whose template, or a template it includes, changed can differ (feeds, the
        // sitemap and the search files use no template).
        let stale = try Self.templatesAffected(from: content.theme, to: theme, in: library)
        var pending = self.pending
        for job in jobs.values where !(job.model is any DocumentModel) && stale.contains(job.template) {
            Self.marking(&pending, job.output, .render(job))
        }
        // Assets added, changed or removed, except where a file of static/ takes their place.
        var staticFiles = content.staticFiles
        for path in Set(theme.assets.keys).union(content.theme.assets.keys)
        where content.staticFiles[path] == content.theme.assets[path] {
            files[path] = theme.assets[path]
            staticFiles[path] = theme.assets[path]
            changed.insert(path)
        }
        let newContent = SiteContent(
            config: content.config, sections: content.sections, reviews: content.reviews, pages: content.pages,
            theme: theme, staticFiles: staticFiles, warnings: content.warnings,
            nextPublication: content.nextPublication)
        return LiveSite(
            files: files, lastUpdate: lastUpdate, lastWork: lastWork, builder: builder, content: newContent,
            presentation: presentation, library: library, jobs: jobs, pending: pending)
    }

    /// Re-reads changed files of `static/`. Nil for a folder (also one that was moved away or
    /// deleted) or a link out of `static/`, which a full build lists or refuses, and for what
    /// the pages say of static files (whether the site has its own `robots.txt`; `site.yml`'s
    /// `image`, and its size), which a full build presents afresh.
    func updatingStatic(_ paths: Set<String>, changed: inout Set<String>) throws -> LiveSite? {
        let folder = builder.options.source.appendingPathComponent("static")
        let robots = SiteContent.robotsFile
        let hasOwnRobots = lstatKind(folder.appendingPathComponent(robots).path) != nil
        if paths.contains(robots) && hasOwnRobots != content.hasOwnRobots { return nil }
        if content.config.image.map(paths.contains) == true { return nil }
        var files = self.files
        var staticFiles = content.staticFiles
        let realRoot = SafePath.realPath(folder.standardizedFileURL.path)
        // The folders holding static files, made once if a path that is gone is met (looking
        // through every file for each such path took minutes for 30,000 deleted files).
        var folders: Set<String>?
        var twins = EncodedTwins()
        var images: [String: PublishedFile]?
        for relative in paths {
            changed.insert(relative)
            // A folder where a page or a review's own file goes: a full build lists it and refuses it.
            if lstatKind(folder.appendingPathComponent(relative).path) == .folder { return nil }
            // Another name for it on disk, differing only in how an accent is encoded: a full
            // build refuses the two. (The paths of one save may hold both, as one: Swift's
            // strings take them for one, so the disk is asked.)
            if twins.any(relative, in: folder.path) { return nil }
            if jobs[relative] != nil || pending[relative] != nil {
                // Only a file that is there takes a generated page's place; once removed (the
                // fix of that error), the page stays as it is.
                guard lstatKind(folder.appendingPathComponent(relative).path) == nil else {
                    throw BuildError(step: "copying static files", diagnostics: [.staticClash(relative)])
                }
                continue
            }
            if images == nil { images = publishedFiles() }
            if let image = images?[relative] {
                // A build refuses a file of static/ in place of a review's own image or a
                // bundle's file, and publishes a fetched image over one with a warning: the
                // image stays, the file is never served (the site is presented afresh, which
                // says so, or no longer does once the file is gone).
                guard let owner = image.owner else { return nil }
                if lstatKind(folder.appendingPathComponent(relative).path) != nil {
                    let step = owner.isBundleFile(relative) ? BundleFiles.step : ReviewImages.step
                    throw BuildError(step: step, diagnostics: [owner.ownFileClash(relative)])
                }
                continue
            }
            if let url = SafePath.resolve(relative, in: folder),
                let data = try? DiskFile.read(url.path, limit: DiskFile.copiedSizeLimit, within: realRoot)
            {
                // As a build refuses it: a file where a review's own file or a page needs a
                // folder, or in a folder where one of them is (in the build's order).
                let owned = images?.filter { $0.value.owner != nil } ?? [:]
                if let own = Self.clash(relative, with: owned), let owner = owned[own]?.owner {
                    let step = owner.isBundleFile(own) ? BundleFiles.step : ReviewImages.step
                    throw BuildError(step: step, diagnostics: [owner.ownFolderClash(own, staticPath: relative)])
                }
                // Or where a fetched poster or cover needs a folder, or in a folder where one goes.
                if let fetched = Self.clash(relative, with: images?.filter { $0.value.owner == nil } ?? [:]) {
                    throw BuildError(
                        step: MetadataEnricher.step, diagnostics: [.staticFolderClash(relative, page: fetched)])
                }
                if let asset = Self.clash(relative, with: content.theme.assets) {
                    throw BuildError(
                        step: "loading the site", diagnostics: [.staticFolderClash(relative, page: asset)])
                }
                if let page = Self.clash(relative, with: jobs) {
                    throw BuildError(
                        step: "copying static files", diagnostics: [.staticFolderClash(relative, page: page)])
                }
                files[relative] = data
                staticFiles[relative] = data
            } else if FileManager.default.fileExists(atPath: folder.appendingPathComponent(relative).path)
                || Self.holdsFiles(relative, of: content.staticFiles, folders: &folders)
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
            theme: content.theme, staticFiles: staticFiles, warnings: content.warnings,
            nextPublication: content.nextPublication)
        return LiveSite(
            files: files, lastUpdate: lastUpdate, lastWork: lastWork, builder: builder, content: newContent,
            presentation: presentation, library: library, jobs: jobs, pending: pending)
    }

    /// A file the site publishes for a review: an image, or a page bundle's file.
    struct PublishedFile {
        /// The review whose own file it is (its image in one of its sizes, or a file of its
        /// page bundle); nil for a fetched poster or cover, which any number of reviews may show.
        var owner: Review?
    }

    /// The files the site publishes for its reviews, by output path: each review's own image
    /// in its sizes and its bundle's files, and the fetched posters and covers of those without
    /// an image of their own.
    func publishedFiles() -> [String: PublishedFile] {
        let index = presentation.index
        var images: [String: PublishedFile] = [:]
        for id in index.liveIDs {
            let review = index[review: id]
            for path in review.ownFilePaths { images[path] = PublishedFile(owner: review) }
            for path in review.fetchedImagePaths { images[path] = PublishedFile() }
        }
        return images
    }

    /// The file of `static/` or the theme that a review's own file at `path` cannot stand
    /// beside, as a build finds it (``PublishedPaths``): one where its folder goes, or the first
    /// in a folder where it goes. Looked up from `path` (a few lookups, and the disk), not by
    /// indexing every file of the site on every edit.
    func staticClash(with path: String) -> String? {
        let isStatic = { (file: String) in self.content.staticFiles[file] != nil && self.isStaticFile(file) }
        if let folder = PublishedPaths.folders(of: path).first(where: { isStatic(String($0)) }) {
            return String(folder)
        }
        let inside = path + "/"
        let folder = SiteFolder(root: builder.options.source, fileSystem: builder.fileSystem)
        guard
            folder.kind("static/\(path)") == .folder
                || content.theme.assets.keys.contains(where: { $0.hasPathPrefix(inside) })
        else { return nil }
        return content.staticFiles.keys.filter { $0.hasPathPrefix(inside) && isStatic($0) }.min()
    }

    /// Refuses, as a build does, a file of `static/` (or the theme) at the address of a page
    /// that came with an update (a new review, a new slug), where its folder goes, or in it.
    func checkNewPages(_ pages: Set<String>, against files: [String: Data]) throws {
        guard !pages.isEmpty else { return }
        let exact = pages.filter { files[$0] != nil && isStaticFile($0) }.sorted()
        guard exact.isEmpty else {
            throw BuildError(step: "copying static files", diagnostics: exact.map(Diagnostic.staticClash))
        }
        let folderClashes = SiteBuilder.folderClashes(pages) { page in
            Self.clash(page, with: files).flatMap { isStaticFile($0) ? $0 : nil }
        }
        guard folderClashes.isEmpty else { throw BuildError(step: "copying static files", diagnostics: folderClashes) }
    }

    /// Whether the site's file at output path `path` is a file of `static/` or a theme asset,
    /// not one published for a review.
    func isStaticFile(_ path: String) -> Bool {
        content.theme.assets[path] != nil
            || SiteFolder(root: builder.options.source, fileSystem: builder.fileSystem).kind("static/\(path)") != nil
    }

    /// The path among `files`' keys that a file at `path` cannot stand beside, as
    /// ``PublishedPaths/clash(with:)`` finds it, looked up without indexing them all (one
    /// static file changed while serving).
    static func clash<Value>(_ path: String, with files: [String: Value]) -> String? {
        if let folder = PublishedPaths.folders(of: path).first(where: { files[String($0)] != nil }) {
            return String(folder)
        }
        return files.keys.filter { $0.hasPathPrefix(path + "/") }.min()
    }

    /// The paths whose bytes differ between two sets of files.
    static func difference(_ old: [String: Data], _ new: [String: Data]) -> [String] {
        Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }.sorted()
    }
}

private extension Array {
    /// The element at `index`, or nil past the end.
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}

extension LiveSite {
    /// Whether `relative` is a folder of `files` (made into `folders` the first time).
    static func holdsFiles(_ relative: String, of files: [String: Data], folders: inout Set<String>?) -> Bool {
        if folders == nil {
            var made: Set<String> = []
            for path in files.keys {
                var path = Substring(path)
                while let slash = path.lastSlashIndex {
                    path = path[..<slash]
                    guard made.insert(String(path)).inserted else { break }
                }
            }
            folders = made
        }
        return folders!.contains(relative)
    }

    /// The templates of `library` (made from `new`) that render differently from `old`'s: those
    /// that changed, came or went, and those that include one of them, at any depth. A
    /// template with a dynamic partial (its name comes from the data) counts as affected.
    static func templatesAffected(from old: Theme, to new: Theme, in library: TemplateLibrary) throws -> Set<String> {
        let names = Set(old.templates.keys).union(new.templates.keys)
        var affected = names.filter { old.templates[$0]?.text != new.templates[$0]?.text }
        var included: [String: Set<String>?] = [:]
        for name in new.templates.keys { included[name] = try library.template(named: name)?.includedNames }
        // Spread to includers until nothing more is affected.
        var grew = true
        while grew {
            grew = false
            for (name, children) in included where !affected.contains(name) {
                guard let children else {
                    affected.insert(name)
                    grew = true
                    continue
                }
                if !children.isDisjoint(with: affected) {
                    affected.insert(name)
                    grew = true
                }
            }
        }
        return affected
    }
}
