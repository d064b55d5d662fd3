import Foundation
import Mustache

/// Reads a site folder into ``SiteContent``, reporting every problem it finds.
public struct SiteLoader: Sendable {
    public struct Options: Sendable {
        public var includeDrafts = false
        public var baseURL: BaseURL?

        public init(includeDrafts: Bool = false, baseURL: BaseURL? = nil) {
            self.includeDrafts = includeDrafts
            self.baseURL = baseURL
        }
    }

    public let root: URL
    public let fileSystem: FileSystem
    public let options: Options

    /// Output paths sitegen itself uses, which no section or page may take.
    static let reservedNames: Set<String> = [
        "tags", "genres", "assets", "images", "page", "feed.xml", "sitemap.xml", "404.html",
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
        var sections: [ReviewSection] = []
        var sources: [(text: String, source: String, section: ReviewSection)] = []
        var pageSources: [(text: String, source: String)] = []
        for entry in folder.entries("content", &diagnostics) {
            if entry.isFolder {
                let (section, files) = readSection(entry, folder, rawHTML: config.rawHTML, &diagnostics, &warnings)
                if let section {
                    sections.append(section)
                    sources += files.map { ($0.text, $0.source, section) }
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
        let results = sources.parallelMap { source in
            Review.read(
                source.text, source: source.source, section: source.section.name, kind: source.section.kind,
                allowRawHTML: rawHTML)
        }
        var reviews: [Review] = []
        for (review, problems) in results {
            diagnostics += problems
            if let review, options.includeDrafts || !review.draft { reviews.append(review) }
        }
        // A file a review names as its image is not ignored.
        let read = results.compactMap(\.0)
        warnings.removeAll { Self.isImage($0.location.path, of: read) }
        var pages: [Page] = []
        for page in pageSources {
            let (loaded, problems) = Page.read(page.text, source: page.source, allowRawHTML: rawHTML)
            diagnostics += problems
            if let loaded { pages.append(loaded) }
        }
        diagnostics += Self.crossChecks(sections: sections, reviews: reviews, pages: pages)
        let theme = Theme.load(folder, &diagnostics, &warnings)
        let staticFiles = readStatic(folder, theme: theme, &diagnostics)
        if let image = config.image {
            let at = SourceLocation(path: SiteConfig.fileName, line: config.imagePosition.line, column: config.imagePosition.column)
            if let data = staticFiles[image] {
                if ImageSize.of(Array(data.prefix(64 * 1024))) == nil {
                    diagnostics.append(Diagnostic("\"image\" must be a PNG, JPEG, GIF or WebP image: static/\(image) is not", at: at))
                }
            } else {
                diagnostics.append(Diagnostic("\"image\" names static/\(image), which does not exist", at: at))
            }
        }
        guard diagnostics.isEmpty else { throw BuildError(step: "loading the site", diagnostics: diagnostics) }
        sections.sort { ($0.weight, $0.name) < ($1.weight, $1.name) }
        return SiteContent(
            config: config, sections: sections, reviews: reviews, pages: pages, theme: theme,
            staticFiles: staticFiles, warnings: warnings)
    }

    /// Reads one review file again (`sitegen serve`, after it changed): the review; nil when
    /// the file is gone or is a draft left out; or the problems found.
    func reloadReview(_ source: String, section: ReviewSection, config: SiteConfig) -> (Review?, [Diagnostic]) {
        let folder = self.folder
        var diagnostics: [Diagnostic] = []
        guard folder.kind(source) != nil else { return (nil, []) }
        guard folder.isInside(source, &diagnostics) else { return (nil, diagnostics) }
        guard folder.kind(source) == .file else {
            return (nil, [folder.problem("not a regular file or folder (a FIFO, socket or device)", at: source)])
        }
        guard let text = text(of: source, folder, &diagnostics) else { return (nil, diagnostics) }
        let (review, problems) = Review.read(
            text, source: source, section: section.name, kind: section.kind, allowRawHTML: config.rawHTML)
        guard let review, options.includeDrafts || !review.draft else { return (nil, problems) }
        return (review, problems)
    }

    /// The review files (`content/<section>/*.md` but `_index.md`, and page bundles'
    /// `index.md`) of a section folder as it is now.
    func reviewSources(in section: String) -> (sources: [String], problems: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let folder = self.folder
        let sources = folder.entries("content/\(section)", &diagnostics).compactMap { entry in
            if entry.isFolder { return bundleIndex(entry, folder) }
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
    func reloadSection(_ name: String, rawHTML: Bool) -> (ReviewSection?, [Diagnostic]) {
        let folder = self.folder
        var diagnostics: [Diagnostic] = []
        let source = "content/\(name)/_index.md"
        var index: (text: String, source: String)?
        if folder.kind(source) != nil, let text = text(of: source, folder, &diagnostics) { index = (text, source) }
        guard diagnostics.isEmpty else { return (nil, diagnostics) }
        return ReviewSection.read(name: name, index: index, allowRawHTML: rawHTML)
    }

    /// Reads the plain pages (`content/*.md`) again (`sitegen serve`, after one changed).
    func reloadPages(rawHTML: Bool) -> ([Page], [Diagnostic]) {
        let folder = self.folder
        var diagnostics: [Diagnostic] = []
        var pages: [Page] = []
        for entry in folder.entries("content", &diagnostics) where !entry.isFolder && entry.name.hasSuffix(".md") {
            guard let text = text(of: entry.path, folder, &diagnostics) else { continue }
            let (page, problems) = Page.read(text, source: entry.path, allowRawHTML: rawHTML)
            diagnostics += problems
            if let page { pages.append(page) }
        }
        return (pages, diagnostics)
    }

    /// Problems across files: an output path claimed twice, tags that would share a page.
    static func crossChecks(sections: [ReviewSection], reviews: [Review], pages: [Page]) -> [Diagnostic] {
        conflicts(sections: sections, reviews: reviews, pages: pages) + tagCollisions(reviews)
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
        _ sectionFolder: SiteFolder.Entry, _ folder: SiteFolder, rawHTML: Bool, _ diagnostics: inout [Diagnostic],
        _ warnings: inout [Diagnostic]
    ) -> (ReviewSection?, [(text: String, source: String)]) {
        let name = sectionFolder.name
        var index: (text: String, source: String)?
        var files: [(text: String, source: String)] = []
        for entry in folder.entries(sectionFolder.path, &diagnostics) {
            var source = entry.path
            if entry.isFolder {
                guard let index = bundleIndex(entry, folder) else {
                    warnings.append(
                        Diagnostic(
                            "ignored: a folder in a section is a review (a page bundle) only when it holds index.md",
                            at: SourceLocation(path: source, line: 1, column: 1), severity: .warning))
                    continue
                }
                guard folder.isInside(index, &diagnostics) else { continue }
                source = index
            } else if !entry.name.hasSuffix(".md") {
                warnings.append(
                    Diagnostic(
                        "ignored: only .md files belong in a section folder",
                        at: SourceLocation(path: source, line: 1, column: 1), severity: .warning))
                continue
            }
            guard let text = text(of: source, folder, &diagnostics) else { continue }
            if !entry.isFolder && entry.name == "_index.md" {
                index = (text, source)
            } else {
                files.append((text, source))
            }
        }
        if !name.isSafeSlug || Self.reservedNames.contains(name) {
            diagnostics.append(
                Diagnostic(
                    "the section folder name \"\(name)\" cannot be used as a URL here",
                    at: SourceLocation(path: "content/\(name)", line: 1, column: 1)))
            return (nil, [])
        }
        let (section, problems) = ReviewSection.read(name: name, index: index, allowRawHTML: rawHTML)
        diagnostics += problems
        return (section, files)
    }

    /// The `index.md` of a page bundle (a folder of a section), or nil when the folder has none.
    func bundleIndex(_ bundle: SiteFolder.Entry, _ folder: SiteFolder) -> String? {
        let index = bundle.path + "/" + ReviewFile.bundleIndex
        return folder.kind(index) == nil ? nil : index
    }

    /// Whether `path` is the image file of one of `reviews`, or a folder holding one.
    static func isImage(_ path: String, of reviews: [Review]) -> Bool {
        reviews.contains { review in
            guard let image = review.image?.source else { return false }
            return image == path || image.hasPrefix(path + "/")
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

    /// Two things that would be written to the same place.
    static func conflicts(sections: [ReviewSection], reviews: [Review], pages: [Page]) -> [Diagnostic] {
        var owners: [String: String] = [:]
        for section in sections { owners[section.name + "/"] = "content/\(section.name)" }
        var diagnostics: [Diagnostic] = []
        let claims = reviews.map { ($0.path, $0.source) } + pages.map { ($0.path, $0.source) }
        for (path, source) in claims.sorted(by: { $0.1 < $1.1 }) {
            if let owner = owners[path] {
                diagnostics.append(
                    Diagnostic(
                        "/\(path) is also the output of \(owner)",
                        at: SourceLocation(path: source, line: 1, column: 1)))
            } else if reservedNames.contains(String(path.dropLast())) || path.hasPrefix("page/")
                || sectionIndexNames.contains(String(path.split(separator: "/").dropFirst().first ?? ""))
            {
                diagnostics.append(
                    Diagnostic(
                        "/\(path) is reserved for sitegen's own pages: choose another slug",
                        at: SourceLocation(path: source, line: 1, column: 1)))
            } else {
                owners[path] = source
            }
        }
        return diagnostics
    }

    /// Different tags whose slugs would give them one page (`Sci-Fi` and `sci fi` are the same
    /// tag; `C` and `C.` are not): one diagnostic per name, at its first use, naming the other.
    static func tagCollisions(_ reviews: [Review]) -> [Diagnostic] {
        var owners: [String: (name: String, key: String, location: SourceLocation)] = [:]
        var reported: Set<String> = []
        var diagnostics: [Diagnostic] = []
        for review in reviews.sorted(by: { $0.source < $1.source }) {
            for (index, tag) in review.tags.enumerated() {
                let slug = tag.slug
                guard !slug.isEmpty else { continue }
                let location =
                    index < review.tagLocations.count
                    ? review.tagLocations[index] : SourceLocation(path: review.source, line: 1, column: 1)
                guard let owner = owners[slug] else {
                    owners[slug] = (tag, tag.nameKey, location)
                    continue
                }
                guard owner.key != tag.nameKey, reported.insert(tag).inserted else { continue }
                diagnostics.append(
                    Diagnostic(
                        "the tag \"\(tag)\" would share the page /tags/\(slug)/ with the tag \"\(owner.name)\" "
                            + "(\(owner.location)): write them the same way, or rename one", at: location))
            }
        }
        return diagnostics
    }

    /// Theme assets, then `static/` over them; files that link outside the site are refused.
    func readStatic(_ folder: SiteFolder, theme: Theme, _ diagnostics: inout [Diagnostic]) -> [String: Data] {
        var files = theme.assets
        for path in folder.files(under: "static", &diagnostics) {
            if let data = folder.read("static/\(path)", limit: DiskFile.copiedSizeLimit, &diagnostics) {
                files[path] = data
            }
        }
        return files
    }
}
