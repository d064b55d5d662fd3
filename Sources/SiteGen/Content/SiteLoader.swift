import Foundation
import Mustache

/// Reads a site folder into ``SiteContent``, reporting every problem it finds.
public struct SiteLoader: Sendable {
    public struct Options: Sendable {
        public var includeDrafts = false
        public var baseURL: BaseURL?
        /// Reviews dated after this day are left out until it comes; nil publishes every one
        /// (`--future`).
        public var today: Day?
        /// Large files of `static/` are read when written, not now (a build; see ``CopiedFile``).
        public var copiesLater = false

        public init(includeDrafts: Bool = false, baseURL: BaseURL? = nil, today: Day? = nil) {
            self.includeDrafts = includeDrafts
            self.baseURL = baseURL
            self.today = today
        }

        /// Whether a review is published: not a draft (unless drafts are asked for), not dated after today.
        func publishes(_ review: Review) -> Bool {
            (includeDrafts || !review.draft) && !isFuture(review)
        }

        func isFuture(_ review: Review) -> Bool {
            today.map { review.date > $0 } ?? false
        }
    }

    public let root: URL
    public let fileSystem: FileSystem
    public let options: Options

    /// Output paths sitegen itself uses, which no section or page may take.
    static let reservedNames: Set<String> = [
        "tags", "genres", "assets", "images", "page", "search", "stats", "feed.xml", "sitemap.xml", "404.html",
        "robots.txt", "index.html",
    ]
    /// Folders inside a section that its sorted and paginated indexes use, which no review may take.
    static let sectionIndexNames: Set<String> = Set(SortOrder.allCases.map { "by-\($0.rawValue)" } + ["page"])

    public init(root: URL, fileSystem: FileSystem = .disk, options: Options = Options()) {
        self.root = root
        self.fileSystem = fileSystem
        self.options = options
    }

    /// The site folder, read through ``fileSystem`` with its rules on links and failures.
    var folder: SiteFolder { SiteFolder(root: root, fileSystem: fileSystem) }

    /// Loads the site, or throws a ``BuildError`` listing every problem.
    public func load() throws -> SiteContent {
        var diagnostics: [Diagnostic] = []
        var warnings: [Diagnostic] = []
        let folder = self.folder
        guard var config = readConfig(folder, &diagnostics) else {
            throw BuildError(step: "loading the site", diagnostics: diagnostics)
        }
        if let baseURL = options.baseURL { config.baseURL = baseURL }
        // Links to other files by their source path are only recorded in this first reading.
        let links = MarkdownLinks(basePath: config.baseURL.path)
        var sections: [ReviewSection] = []
        var sectionIndexes: [String: (text: String, source: String)] = [:]
        var sources: [(source: String, section: ReviewSection)] = []
        // Sections whose `_index.md` has errors: their reviews are read for their own errors
        // only, and as targets of links (a link to one is not broken, only its section is).
        var standIns: [ReviewSection] = []
        var checkedReviews: [Review] = []
        var pageSources: [(text: String, source: String)] = []
        for entry in folder.entries("content", &diagnostics) {
            if entry.isFolder {
                let (section, files, index) = readSection(
                    entry, folder, rawHTML: config.rawHTML, links: links, &diagnostics, &warnings)
                if let section {
                    sections.append(section)
                    sectionIndexes[section.name] = index
                    sources += files.map { ($0, section) }
                } else if let standIn = ReviewSection.standIn(name: entry.name, index: index) {
                    standIns.append(standIn)
                    sources += files.map { ($0, standIn) }
                }
            } else if entry.name.hasSuffix(".md") {
                if let text = text(of: entry.path, folder, &diagnostics) { pageSources.append((text, entry.path)) }
            } else {
                warnings.append(
                    Diagnostic(
                        "ignored: only .md files and section folders belong in content/",
                        at: SourceLocation(path: entry.path, line: 1, column: 1), severity: .warning))
            }
        }
        let rawHTML = config.rawHTML
        let extraFields = config.extraFields
        let reviewSources = sources
        let readReview = { @Sendable (text: String, index: Int, links: MarkdownLinks) in
            let source = reviewSources[index]
            return Review.read(
                text, source: source.source, section: source.section.name, kind: source.section.kind,
                allowRawHTML: rawHTML, links: links, extraFields: extraFields)
        }
        var read: [(review: Review, index: Int)] = []
        var future: [Day] = []
        var extraFieldWarnings: [Diagnostic] = []
        // Each review file is read and parsed on one core in one go; its text is kept only when
        // it links to other files by path and is read again below (at 100,000 reviews, holding
        // every text until then was half a gigabyte).
        let found = Array(sources.indices).parallelMap { index in
            var problems: [Diagnostic] = []
            guard let text = text(of: reviewSources[index].source, folder, &problems) else {
                return (review: Review?.none, problems: problems, text: String?.none)
            }
            let (review, found) = readReview(text, index, links)
            return (review, problems + found, review?.sourceLinks.isEmpty == false ? text : nil)
        }
        for (index, (review, problems, _)) in found.enumerated() {
            Self.sort(problems, into: &diagnostics, &warnings, extraFields: &extraFieldWarnings)
            guard let review, options.includeDrafts || !review.draft else { continue }
            guard !standIns.contains(sources[index].section) else {
                checkedReviews.append(review)
                continue
            }
            if options.isFuture(review) { future.append(review.date) } else { read.append((review, index)) }
        }
        // A file a review names as its image is not ignored.
        warnings.removeAll { Self.isImage($0.location.path, of: read.map(\.review)) }
        var readPages: [(page: Page, index: Int)] = []
        for (index, page) in pageSources.enumerated() {
            let (loaded, problems) = Page.read(
                page.text, source: page.source, allowRawHTML: rawHTML, links: links, extraFields: extraFields)
            Self.sort(problems, into: &diagnostics, &warnings, extraFields: &extraFieldWarnings)
            if let loaded { readPages.append((loaded, index)) }
        }
        warnings += Self.oncePerName(extraFieldWarnings)
        if let warning = Self.futureWarning(future) { warnings.append(warning) }
        // Every file's URL is known now: read again the few files that link to others by path.
        let linking = read.indices.filter { !read[$0].review.sourceLinks.isEmpty }
        // The table of every file's URL only when some file links by path (at 100,000 reviews,
        // making it took a tenth of a second on one core).
        let linksByPath =
            !linking.isEmpty || readPages.contains { !$0.page.sourceLinks.isEmpty }
            || sections.contains { !$0.sourceLinks.isEmpty }
        let targets =
            linksByPath
            ? MarkdownLinks.targets(
                reviews: read.map(\.review) + checkedReviews, pages: readPages.map(\.page),
                sections: sections + standIns) : [:]
        let resolving = links.resolving { targets[$0] }
        let rereads = linking.compactMap { position in
            found[read[position].index].text.map { (position: position, text: $0, index: read[position].index) }
        }
        let again = rereads.parallelMap { readReview($0.text, $0.index, resolving).0 }
        for (reread, review) in zip(rereads, again) {
            if let review { read[reread.position].review = review }
        }
        for position in readPages.indices where !readPages[position].page.sourceLinks.isEmpty {
            let page = pageSources[readPages[position].index]
            let again = Page.read(
                page.text, source: page.source, allowRawHTML: rawHTML, links: resolving, extraFields: extraFields)
            if let again = again.0 { readPages[position].page = again }
        }
        for (position, section) in sections.enumerated() where !section.sourceLinks.isEmpty {
            let again = ReviewSection.read(
                name: section.name, index: sectionIndexes[section.name], allowRawHTML: rawHTML, links: resolving)
            if let again = again.0 { sections[position] = again }
        }
        let reviews = read.map(\.review)
        let pages = readPages.map(\.page)
        let sourceLinks = reviews.flatMap(\.sourceLinks) + pages.flatMap(\.sourceLinks)
        diagnostics += resolving.problems(sourceLinks + sections.flatMap(\.sourceLinks), in: folder)
        // The checks across files read every review and are independent: side by side.
        let sectionsRead = sections
        let across = [false, true].parallelMap { letterCase in
            letterCase
                ? Self.letterCaseCollisions(sections: sectionsRead, reviews: reviews, pages: pages)
                : Self.crossChecks(sections: sectionsRead, reviews: reviews, pages: pages)
        }
        diagnostics += across[0]
        warnings += across[1]
        let theme = Theme.load(folder, &diagnostics, &warnings)
        let (staticFiles, copiedFiles) = readStatic(folder, theme: theme, keeping: config.image, &diagnostics)
        if let image = config.image {
            let at = SourceLocation(
                path: SiteConfig.fileName, line: config.imagePosition.line, column: config.imagePosition.column)
            if let data = staticFiles[image] {
                if ImageSize.of(Array(data.prefix(64 * 1024))) == nil {
                    diagnostics.append(
                        Diagnostic("\"image\" must be a PNG, JPEG, GIF or WebP image: static/\(image) is not", at: at))
                }
            } else {
                diagnostics.append(Diagnostic("\"image\" names static/\(image), which does not exist", at: at))
            }
        }
        // A build that stops here would stop again at the templates: their errors come now too,
        // so that one run lists every mistake (a build that loads compiles them as its next step).
        if !diagnostics.isEmpty { diagnostics += theme.library().1 }
        guard diagnostics.isEmpty else { throw BuildError(step: "loading the site", diagnostics: diagnostics) }
        sections.sort { ($0.weight, $0.name) < ($1.weight, $1.name) }
        return SiteContent(
            config: config, sections: sections, reviews: reviews, pages: pages, theme: theme,
            staticFiles: staticFiles, copiedFiles: copiedFiles, warnings: warnings, nextPublication: future.min())
    }

    /// Reads one review file again (`sitegen serve`, after it changed): the review; nil when
    /// the file is gone, or is a draft or a future review left out; or the errors found.
    func reloadReview(
        _ source: String, section: ReviewSection, config: SiteConfig, links: MarkdownLinks
    ) -> (review: Review?, problems: [Diagnostic], warnings: [Diagnostic]) {
        let folder = self.folder
        var diagnostics: [Diagnostic] = []
        guard folder.kind(source) != nil else {
            // Gone, or there but out of reach (its folder may be listed but not searched),
            // which the build's reading reports.
            return (nil, folder.unreachable(source).map { [$0] } ?? [], [])
        }
        guard folder.isInside(source, &diagnostics) else { return (nil, diagnostics, []) }
        guard folder.kind(source) == .file else {
            return (nil, [folder.notRegular(source)], [])
        }
        guard let text = text(of: source, folder, &diagnostics) else { return (nil, diagnostics, []) }
        let (review, found) = Review.read(
            text, source: source, section: section.name, kind: section.kind, allowRawHTML: config.rawHTML,
            links: links, extraFields: config.extraFields)
        let problems = found.filter { $0.severity == .error }
        var warnings = found.filter { $0.severity == .warning }
        if let review, options.includeDrafts || !review.draft, options.isFuture(review) {
            // The build sums these up for the whole site (``futureWarning(_:)``); one file's is its own.
            warnings.append(
                Diagnostic(
                    "dated after today and left out until \(review.date): --future includes it",
                    at: SourceLocation(path: source, line: 1, column: 1), severity: .warning))
        }
        guard let review, options.publishes(review) else { return (nil, problems, warnings) }
        return (review, problems, warnings)
    }

    /// The review files (`content/<section>/*.md` but `_index.md`, and page bundles'
    /// `index.md`) of a section folder as it is now.
    func reviewSources(in section: String) -> (sources: [String], problems: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let folder = self.folder
        let sources = folder.entries("content/\(section)", &diagnostics).compactMap { entry in
            if entry.isFolder { return ReviewFile.bundleIndex(of: entry, in: folder) }
            return entry.name.hasSuffix(".md") && entry.name != "_index.md" ? entry.path : nil
        }
        return (sources, diagnostics)
    }

    /// Reads `site.yml` again (`sitegen serve`, after it changed), with the options' base URL over it.
    func reloadConfig() -> (SiteConfig?, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var config = readConfig(folder, &diagnostics)
        if let baseURL = options.baseURL { config?.baseURL = baseURL }
        return (diagnostics.isEmpty ? config : nil, diagnostics)
    }

    /// Reads a section's `_index.md` again (`sitegen serve`, after it changed or went away).
    func reloadSection(_ name: String, rawHTML: Bool, links: MarkdownLinks) -> (ReviewSection?, [Diagnostic]) {
        let folder = self.folder
        var diagnostics: [Diagnostic] = []
        let source = "content/\(name)/_index.md"
        var index: (text: String, source: String)?
        // As the build's listing of the folder reports them: a FIFO or device, a file out of reach.
        switch folder.kind(source) {
        case .special?:
            return (nil, [folder.notRegular(source)])
        case nil:
            if let problem = folder.unreachable(source) { return (nil, [problem]) }
        default:
            if let text = text(of: source, folder, &diagnostics) { index = (text, source) }
        }
        guard diagnostics.isEmpty else { return (nil, diagnostics) }
        return ReviewSection.read(name: name, index: index, allowRawHTML: rawHTML, links: links)
    }

    /// Reads the plain pages (`content/*.md`) again (`sitegen serve`, after one changed): the
    /// pages, the errors found, and the pages' warnings.
    func reloadPages(
        rawHTML: Bool, links: MarkdownLinks, extraFields: Set<String> = []
    ) -> (pages: [Page], problems: [Diagnostic], warnings: [Diagnostic]) {
        let folder = self.folder
        var diagnostics: [Diagnostic] = []
        var warnings: [Diagnostic] = []
        var pages: [Page] = []
        for entry in folder.entries("content", &diagnostics) where !entry.isFolder && entry.name.hasSuffix(".md") {
            guard let text = text(of: entry.path, folder, &diagnostics) else { continue }
            let (page, problems) = Page.read(
                text, source: entry.path, allowRawHTML: rawHTML, links: links, extraFields: extraFields)
            diagnostics += problems.filter { $0.severity == .error }
            warnings += problems.filter { $0.severity == .warning }
            if let page { pages.append(page) }
        }
        return (pages, diagnostics, warnings)
    }

    /// Problems across files: an output path claimed twice, tags that would share a page.
    static func crossChecks(sections: [ReviewSection], reviews: [Review], pages: [Page]) -> [Diagnostic] {
        // The two checks read every review and are independent: one core each.
        let found = [0, 1].parallelMap { check in
            check == 0 ? conflicts(sections: sections, reviews: reviews, pages: pages) : tagCollisions(reviews)
        }
        return found[0] + found[1]
    }

    /// ``crossChecks(sections:reviews:pages:)`` for a site that passed them before `changed`
    /// (among `reviews`) took new addresses or tags: only their claims can collide, so they are
    /// looked up among the others' and the whole site is checked (for the same messages) only
    /// when one of them might collide. `tagNames` gives the ways `reviews` write the tag of a
    /// slug (the first of each review's tags of that slug, as the site index counts them).
    static func crossChecks(
        sections: [ReviewSection], reviews: [Review], pages: [Page], changed: [Review],
        tagNames: (_ slug: String) -> [String]
    ) -> [Diagnostic] {
        guard mayCollide(changed, sections: sections, reviews: reviews, pages: pages, tagNames: tagNames) else {
            return []
        }
        return crossChecks(sections: sections, reviews: reviews, pages: pages)
    }
}

private extension SiteLoader {
    func readConfig(_ folder: SiteFolder, _ diagnostics: inout [Diagnostic]) -> SiteConfig? {
        guard folder.kind(SiteConfig.fileName) != nil else {
            diagnostics.append(
                Diagnostic(
                    "no \(SiteConfig.fileName) here: is \(root.path) a site folder?",
                    at: SourceLocation(path: SiteConfig.fileName, line: 1, column: 1)))
            return nil
        }
        guard folder.isInside(SiteConfig.fileName, &diagnostics),
            let text = text(of: SiteConfig.fileName, folder, &diagnostics)
        else { return nil }
        let (config, problems) = SiteConfig.read(text, path: SiteConfig.fileName)
        diagnostics += problems
        return config
    }

    func readSection(
        _ sectionFolder: SiteFolder.Entry, _ folder: SiteFolder, rawHTML: Bool, links: MarkdownLinks,
        _ diagnostics: inout [Diagnostic], _ warnings: inout [Diagnostic]
    ) -> (ReviewSection?, [String], index: (text: String, source: String)?) {
        let name = sectionFolder.name
        var index: (text: String, source: String)?
        var sources: [String] = []
        for entry in folder.entries(sectionFolder.path, &diagnostics) {
            var source = entry.path
            if entry.isFolder {
                guard let index = ReviewFile.bundleIndex(of: entry, in: folder) else {
                    // An index.md that is there but out of reach (the folder may not be searched)
                    // is the review's error, not a folder to ignore.
                    if let problem = folder.unreachable(source + "/" + ReviewFile.bundleIndex) {
                        diagnostics.append(problem)
                        continue
                    }
                    warnings.append(Self.ignoredInSection(source, isFolder: true))
                    continue
                }
                guard folder.isInside(index, &diagnostics) else { continue }
                source = index
            } else if !entry.name.hasSuffix(".md") {
                warnings.append(Self.ignoredInSection(source, isFolder: false))
                continue
            }
            if !entry.isFolder && entry.name == "_index.md" {
                if let text = text(of: source, folder, &diagnostics) { index = (text, source) }
            } else {
                sources.append(source)
            }
        }
        if !name.isSafeSlug || Self.reservedNames.contains(name) {
            diagnostics.append(
                Diagnostic(
                    "the section folder name \"\(name)\" cannot be used as a URL here",
                    at: SourceLocation(path: "content/\(name)", line: 1, column: 1)))
            return (nil, [], nil)
        }
        let (section, problems) = ReviewSection.read(name: name, index: index, allowRawHTML: rawHTML, links: links)
        diagnostics += problems.filter { $0.severity == .error }
        warnings += problems.filter { $0.severity == .warning }
        return (section, sources, index)
    }

    /// Files' problems into errors and warnings, warnings about unknown keys apart (see ``oncePerName(_:)``).
    static func sort(
        _ problems: [Diagnostic], into errors: inout [Diagnostic], _ warnings: inout [Diagnostic],
        extraFields: inout [Diagnostic]
    ) {
        for problem in problems {
            switch (problem.severity, problem.topic) {
            case (.error, _): errors.append(problem)
            case (.warning, .extraField): extraFields.append(problem)
            case (.warning, _): warnings.append(problem)
            }
        }
    }

    /// One warning per unknown key name, where it is first written (by path), saying how many files have it.
    static func oncePerName(_ warnings: [Diagnostic]) -> [Diagnostic] {
        var byName: [Diagnostic.Topic: [Diagnostic]] = [:]
        for warning in warnings { byName[warning.topic, default: []].append(warning) }
        return byName.values.map { all in
            let first = all.min()!
            guard all.count > 1 else { return first }
            return Diagnostic(
                first.message + " (\(all.count) files have it; this is the first)", at: first.location,
                severity: .warning, topic: first.topic)
        }.sorted()
    }

    /// The summary of the reviews left out because their date has not come.
    static func futureWarning(_ dates: [Day]) -> Diagnostic? {
        guard let first = dates.min(), let last = dates.max() else { return nil }
        let message =
            dates.count == 1
            ? "1 review is dated after today and left out until \(first): --future includes it"
            : "\(dates.count) reviews are dated after today and left out until their dates, "
                + "the first on \(first)" + (last == first ? "" : " and the last on \(last)")
                + ": --future includes them"
        return Diagnostic(message, severity: .warning)
    }

    /// Whether `path` is the image file of one of `reviews`, or a folder holding one.
    /// Two things that would be written to the same place.
    static func conflicts(sections: [ReviewSection], reviews: [Review], pages: [Page]) -> [Diagnostic] {
        var owners: [String: String] = [:]
        owners.reserveCapacity(sections.count + reviews.count + pages.count)
        var diagnostics: [Diagnostic] = []
        // Names that differ only in how an accent is encoded (NFC, NFD) are one address: Swift's
        // strings compare them equal, as browsers and macOS's file system do.
        for section in sections.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            let folder = "content/\(section.name)"
            if let owner = owners[section.name + "/"] {
                diagnostics.append(
                    Diagnostic(
                        "/\(section.name)/ is also the address of the section \(owner) (the names differ only in "
                            + "how their characters are encoded): rename one folder",
                        at: SourceLocation(path: folder, line: 1, column: 1)))
            } else {
                owners[section.name + "/"] = folder
            }
        }
        // Each at its slug: the `slug` key's value, else the file (named as the slug).
        let claims = reviews.map { ($0.path, $0.slugLocation) } + pages.map { ($0.path, $0.slugLocation) }
        // Only an address claimed twice, a section's or a reserved one makes an error: those few
        // claims are looked at in the order of their files, not the whole site's (at 100,000
        // reviews, this check sorting every claim took a sixth of a second on one core).
        var claimed = Set<String>(minimumCapacity: claims.count)
        var claimedTwice: Set<String> = []
        for claim in claims where !claimed.insert(claim.0).inserted {
            claimedTwice.insert(claim.0)
        }
        let suspect = claims.filter { claimedTwice.contains($0.0) || owners[$0.0] != nil || isReserved($0.0) }
        // The address each one claimed, as written: two that differ in their bytes look the same.
        var written: [String: String] = [:]
        for (path, location) in suspect.sorted(by: { $0.1.path < $1.1.path }) {
            if let owner = owners[path] {
                let twin = written[path].map { !$0.utf8.elementsEqual(path.utf8) } ?? false
                diagnostics.append(
                    Diagnostic(
                        "/\(path) is also the output of \(owner)"
                            + (twin
                                ? " (the two addresses differ only in how accented letters are encoded, composed or "
                                    + "decomposed, so they are one): rename one file or change its slug" : ""),
                        at: location))
            } else if isReserved(path) {
                diagnostics.append(
                    Diagnostic("/\(path) is reserved for sitegen's own pages: choose another slug", at: location))
            } else {
                owners[path] = location.path
                written[path] = path
            }
        }
        return diagnostics
    }

    /// Whether a review of `changed` claims an address another review, a page or a section has
    /// (or a reserved one), or a tag page another tag, written differently, has.
    static func mayCollide(
        _ changed: [Review], sections: [ReviewSection], reviews: [Review], pages: [Page],
        tagNames: (_ slug: String) -> [String]
    ) -> Bool {
        let sources = Set(changed.map(\.source))
        var claimed = Set(sections.map { $0.name + "/" })
        for page in pages { claimed.insert(page.path) }
        for review in changed {
            guard claimed.insert(review.path).inserted, !isReserved(review.path) else { return true }
        }
        // The other reviews, compared in place rather than each made into a path: a section
        // name and a slug are one path segment each, so equal paths are equal pairs.
        let slugs = Set(changed.map(\.slug))
        for review in reviews where slugs.contains(review.slug) && !sources.contains(review.source) {
            if changed.contains(where: { $0.slug == review.slug && $0.section == review.section }) { return true }
        }
        // The spelling key of each slug the changed reviews' tags have, which must agree among
        // them and with the other reviews' tags of that slug (one key each: they passed). Only
        // those tags' keys are made: a site with thousands of tags is not folded on each save.
        var keys: [String: String] = [:]
        var spellings = TagSpellings()
        for review in changed {
            for tag in review.tags {
                let (slug, key) = spellings[tag]
                guard !slug.isEmpty else { continue }
                if let other = keys[slug], other != key { return true }
                keys[slug] = key
            }
        }
        // Every way the site writes those slugs' tags must have that key too. The names come
        // from the site index's counts, so a save does not slug every tag of every review. A
        // review's later tags of a slug it already has are not among them, but they have the
        // key of its first: the site passed the checks before, and a changed review's tags were
        // compared with each other above.
        for (slug, key) in keys {
            for name in tagNames(slug) where spellings[name].key != key { return true }
        }
        return false
    }

    /// Different tags whose slugs would give them one page (`Sci-Fi` and `sci fi` are the same
    /// tag; `C` and `C.` are not): one diagnostic per name, at its first use, naming the other.
    static func tagCollisions(_ reviews: [Review]) -> [Diagnostic] {
        var owners: [String: (name: String, key: String, location: SourceLocation)] = [:]
        var reported: Set<String> = []
        var diagnostics: [Diagnostic] = []
        var spellings = TagSpellings()
        // In source order, sorting positions rather than moving whole reviews.
        for position in reviews.indices.sorted(by: { reviews[$0].source < reviews[$1].source }) {
            let review = reviews[position]
            for (index, tag) in review.tags.enumerated() {
                let (slug, key) = spellings[tag]
                guard !slug.isEmpty else { continue }
                let location =
                    index < review.tagLocations.count
                    ? review.tagLocations[index] : SourceLocation(path: review.source, line: 1, column: 1)
                guard let owner = owners[slug] else {
                    owners[slug] = (tag, key, location)
                    continue
                }
                guard owner.key != key, reported.insert(tag).inserted else { continue }
                diagnostics.append(
                    Diagnostic(
                        "the tag \"\(tag)\" would share the page /tags/\(slug)/ with the tag \"\(owner.name)\" "
                            + "(\(owner.location)): write them the same way, or rename one", at: location))
            }
        }
        return diagnostics
    }

    /// Theme assets, then `static/` over them (its large files to read when written, when
    /// ``Options/copiesLater``, but for `keeping`, the site's image, which is checked now); files
    /// that link outside the site are refused.
    func readStatic(_ folder: SiteFolder, theme: Theme, keeping: String? = nil, _ diagnostics: inout [Diagnostic])
        -> (files: [String: Data], later: [String: CopiedFile])
    {
        var files = theme.assets
        var later: [String: CopiedFile] = [:]
        let paths = folder.files(under: "static", &diagnostics)
        for path in paths {
            switch folder.readCopied("static/\(path)", later: options.copiesLater && path != keeping, &diagnostics) {
            case .held(let data)?:
                files[path] = data
            case .later(let file)?:
                files[path] = nil
                later[path] = file
            case nil:
                break
            }
        }
        // A file where a theme asset needs a folder (`static/assets`), or in a folder where one
        // is (`static/assets/site.css/x`); one of the same name replaces it, as it should.
        let assets = PublishedPaths(theme.assets.keys)
        for path in paths {
            if let asset = assets.clash(with: path) { diagnostics.append(.staticFolderClash(path, page: asset)) }
        }
        return (files, later)
    }
}

/// Each tag's slug (its page) and spelling key (what tells two spellings apart), made once
/// per distinct tag: a site has few distinct tags on many reviews.
private struct TagSpellings {
    private var made: [String: (slug: String, key: String)] = [:]

    subscript(tag: String) -> (slug: String, key: String) {
        mutating get {
            if let known = made[tag] { return known }
            let spelling = (tag.slug, tag.nameKey)
            made[tag] = spelling
            return spelling
        }
    }
}

extension SiteLoader {
    /// The warning for a file or folder of a section that is not a review (unless a review
    /// names it, or a file in it, as its image).
    static func ignoredInSection(_ path: String, isFolder: Bool) -> Diagnostic {
        Diagnostic(
            isFolder
                ? "ignored: a folder in a section is a review (a page bundle) only when it holds index.md"
                : "ignored: only .md files belong in a section folder",
            at: SourceLocation(path: path, line: 1, column: 1), severity: .warning)
    }

    /// Whether `path` is a review's image, or a folder holding one.
    static func isImage(_ path: String, of reviews: [Review]) -> Bool {
        reviews.contains { review in
            guard let image = review.image?.source else { return false }
            return image == path || image.hasPathPrefix(path + "/")
        }
    }

    /// Reads a UTF-8 file; a read failure or invalid UTF-8 becomes a diagnostic.
    func text(of relative: String, _ folder: SiteFolder, _ diagnostics: inout [Diagnostic]) -> String? {
        guard let data = folder.read(relative, &diagnostics) else { return nil }
        guard let text = String(data: data, encoding: .utf8) else {
            diagnostics.append(.invalidUTF8(in: data, path: relative))
            return nil
        }
        return text
    }

    /// Whether a page at `path` would take an address sitegen's own pages use.
    static func isReserved(_ path: String) -> Bool {
        let slash = UInt8(ascii: "/")
        // A reserved name holds no slash: only a path of one folder is copied to be looked up.
        let head = path.dropLast()
        if !head.utf8.contains(slash), reservedNames.contains(String(head)) { return true }
        if path.hasPathPrefix("page/") { return true }
        // The second folder (empty parts skipped), read in place: this runs for every review.
        let utf8 = path.utf8
        var index = utf8.startIndex
        func skip(slashes: Bool) {
            while index < utf8.endIndex, (utf8[index] == slash) == slashes { utf8.formIndex(after: &index) }
        }
        skip(slashes: true)
        skip(slashes: false)
        skip(slashes: true)
        let start = index
        skip(slashes: false)
        let second = utf8[start..<index]
        return sectionIndexNames.contains { $0.utf8.elementsEqual(second) }
    }
}
