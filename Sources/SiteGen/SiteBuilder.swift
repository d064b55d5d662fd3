import Foundation
import Mustache

/// A whole build: load → present → render → write, each step taking and returning values.
public struct SiteBuilder: Sendable {
    public struct Options: Sendable {
        public var source: URL
        public var output: URL
        public var includeDrafts: Bool
        public var baseURL: BaseURL?

        public init(source: URL, output: URL, includeDrafts: Bool = false, baseURL: BaseURL? = nil) {
            self.source = source
            self.output = output
            self.includeDrafts = includeDrafts
            self.baseURL = baseURL
        }
    }

    public let options: Options
    public let fileSystem: FileSystem

    public init(options: Options, fileSystem: FileSystem = .disk) {
        self.options = options
        self.fileSystem = fileSystem
    }

    /// What a finished build did.
    public struct Report: Sendable {
        public let pages: Int
        public let files: Int
        public let output: OutputWriter.Report
        public let warnings: [Diagnostic]
    }

    /// Loads the site folder and attaches the cached metadata (load, then enrich).
    public func load() throws -> SiteContent {
        let content = try SiteLoader(
            root: options.source, fileSystem: fileSystem,
            options: .init(includeDrafts: options.includeDrafts, baseURL: options.baseURL)
        ).load()
        let cache = MetadataCache(folder: options.source.appendingPathComponent(MetadataCache.folderName))
        return try MetadataEnricher(cache: cache).enrich(content)
    }

    /// Every file of the site, by output path, without touching the output folder.
    public func render(_ content: SiteContent, isPreview: Bool = false) throws -> (files: [String: Data], pages: Int) {
        let library = try Self.compile(content.theme)
        let presentation = SitePresenter(content: content, isPreview: isPreview).present()
        let pages = try PageRenderer(library: library).render(presentation.pages)
        return (try Self.assemble(pages, presentation: presentation, content: content), presentation.pages.count)
    }

    /// The theme's templates, compiled; a template error stops the build.
    static func compile(_ theme: Theme) throws -> TemplateLibrary {
        let (library, problems) = theme.library()
        guard let library else { throw BuildError(step: "compiling templates", diagnostics: problems) }
        return library
    }

    /// Rendered pages plus the feed, the sitemap and the static files; a static file may not
    /// take the place of a generated one.
    static func assemble(_ pages: [String: Data], presentation: SitePresenter.Presentation, content: SiteContent)
        throws -> [String: Data]
    {
        var files = pages
        files["feed.xml"] = Data(FeedWriter.xml(presentation.feed).utf8)
        files["sitemap.xml"] = Data(SitemapWriter.xml(presentation.sitemap).utf8)
        let clashes = content.staticFiles.keys.filter { files[$0] != nil }.sorted()
        guard clashes.isEmpty else {
            throw BuildError(step: "copying static files", diagnostics: clashes.map(Diagnostic.staticClash))
        }
        files.merge(content.staticFiles) { generated, _ in generated }
        return files
    }

    /// Builds and writes the site; on any error the output folder is left as it was.
    public func build() throws -> Report {
        try checkOutputFolder()
        let content = try load()
        let (files, pages) = try render(content)
        let written: OutputWriter.Report
        do {
            written = try OutputWriter(folder: options.output).write(files)
        } catch {
            throw BuildError(
                step: "writing",
                diagnostics: [
                    Diagnostic(
                        "cannot write: \(error.localizedDescription)",
                        at: SourceLocation(path: options.output.path, line: 1, column: 1))
                ])
        }
        return Report(pages: pages, files: files.count, output: written, warnings: content.warnings)
    }

    /// The output folder must not be the site folder, hold it, or sit inside its sources.
    func checkOutputFolder() throws {
        let source = options.source.standardizedFileURL.resolvingSymlinksInPath().path
        let output = options.output.standardizedFileURL.resolvingSymlinksInPath().path
        let protected = ["content", "Templates", "static", "metadata", "site.yml"].map { source + "/" + $0 }
        let inside = { (path: String, folder: String) in path == folder || path.hasPrefix(folder + "/") }
        if inside(source, output) || protected.contains(where: { inside(output, $0) }) {
            throw BuildError(
                step: "checking the output folder",
                diagnostics: [
                    Diagnostic(
                        "refusing to write the site into \(options.output.path): it would overwrite the sources",
                        at: SourceLocation(path: options.output.path, line: 1, column: 1))
                ])
        }
    }
}
