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

    /// Loads the site, or throws a ``BuildError`` listing every problem.
    public func load() throws -> SiteContent {
        var diagnostics: [Diagnostic] = []
        var warnings: [Diagnostic] = []
        guard var config = try readConfig(&diagnostics) else {
            throw BuildError(step: "loading the site", diagnostics: diagnostics)
        }
        if let baseURL = options.baseURL { config.baseURL = baseURL }
        let content = root.appendingPathComponent("content")
        var sections: [ReviewSection] = []
        var sources: [(text: String, source: String, section: ReviewSection)] = []
        var pageSources: [(text: String, source: String)] = []
        for entry in try fileSystem.list(content) where !entry.name.hasPrefix(".") {
            if entry.isDirectory {
                let (section, files) = try readSection(entry.name, rawHTML: config.rawHTML, &diagnostics, &warnings)
                if let section {
                    sections.append(section)
                    sources += files.map { ($0.text, $0.source, section) }
                }
            } else if entry.name.hasSuffix(".md") {
                let source = "content/\(entry.name)"
                pageSources.append((try text(of: source, &diagnostics) ?? "", source))
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
        var pages: [Page] = []
        for page in pageSources {
            let (loaded, problems) = Page.read(page.text, source: page.source, allowRawHTML: rawHTML)
            diagnostics += problems
            if let loaded { pages.append(loaded) }
        }
        diagnostics += conflicts(sections: sections, reviews: reviews, pages: pages)
        let theme = try Theme.load(site: root, fileSystem: fileSystem)
        let staticFiles = try readStatic(theme: theme, &diagnostics)
        guard diagnostics.isEmpty else { throw BuildError(step: "loading the site", diagnostics: diagnostics) }
        sections.sort { ($0.weight, $0.name) < ($1.weight, $1.name) }
        return SiteContent(
            config: config, sections: sections, reviews: reviews, pages: pages, theme: theme,
            staticFiles: staticFiles, warnings: warnings)
    }
}

private extension SiteLoader {
    func readConfig(_ diagnostics: inout [Diagnostic]) throws -> SiteConfig? {
        let url = root.appendingPathComponent(SiteConfig.fileName)
        guard fileSystem.fileExists(url) else {
            diagnostics.append(
                Diagnostic(
                    "no \(SiteConfig.fileName) here: is \(root.path) a site folder?",
                    at: SourceLocation(path: SiteConfig.fileName, line: 1, column: 1)))
            return nil
        }
        guard let text = try text(of: SiteConfig.fileName, &diagnostics) else { return nil }
        let (config, problems) = SiteConfig.read(text, path: SiteConfig.fileName)
        diagnostics += problems
        return config
    }

    func readSection(
        _ name: String, rawHTML: Bool, _ diagnostics: inout [Diagnostic], _ warnings: inout [Diagnostic]
    ) throws -> (ReviewSection?, [(text: String, source: String)]) {
        let folder = root.appendingPathComponent("content").appendingPathComponent(name)
        var index: (text: String, source: String)?
        var files: [(text: String, source: String)] = []
        for entry in try fileSystem.list(folder) where !entry.name.hasPrefix(".") {
            let source = "content/\(name)/\(entry.name)"
            if entry.isDirectory || !entry.name.hasSuffix(".md") {
                warnings.append(
                    Diagnostic(
                        "ignored: only .md files belong in a section folder",
                        at: SourceLocation(path: source, line: 1, column: 1), severity: .warning))
                continue
            }
            guard let text = try text(of: source, &diagnostics) else { continue }
            if entry.name == "_index.md" { index = (text, source) } else { files.append((text, source)) }
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

    /// Reads a UTF-8 file; a read failure or invalid UTF-8 becomes a diagnostic.
    func text(of relative: String, _ diagnostics: inout [Diagnostic]) throws -> String? {
        do {
            let data = try fileSystem.read(root.appendingPathComponent(relative))
            guard let text = String(data: data, encoding: .utf8) else {
                diagnostics.append(.invalidUTF8(in: data, path: relative))
                return nil
            }
            return text
        } catch {
            diagnostics.append(
                Diagnostic(
                    "cannot read: \(error.localizedDescription)",
                    at: SourceLocation(path: relative, line: 1, column: 1)))
            return nil
        }
    }

    /// Two things that would be written to the same place.
    func conflicts(sections: [ReviewSection], reviews: [Review], pages: [Page]) -> [Diagnostic] {
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
            } else if Self.reservedNames.contains(String(path.dropLast())) || path.hasPrefix("page/")
                || Self.sectionIndexNames.contains(String(path.split(separator: "/").dropFirst().first ?? ""))
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

    /// Theme assets, then `static/` over them; files that link outside the site are refused.
    func readStatic(theme: Theme, _ diagnostics: inout [Diagnostic]) throws -> [String: Data] {
        var files = theme.assets
        let folder = root.appendingPathComponent("static")
        for path in try fileSystem.files(under: folder) {
            let source = "static/\(path)"
            guard SafePath.resolve(path, in: folder) != nil else {
                diagnostics.append(
                    Diagnostic(
                        "refused: it links to a file outside static/",
                        at: SourceLocation(path: source, line: 1, column: 1)))
                continue
            }
            files[path] = try fileSystem.read(folder.appendingPathComponent(path))
        }
        return files
    }
}
