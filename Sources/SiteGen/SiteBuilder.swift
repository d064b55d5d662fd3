import Foundation
import Mustache

/// A whole build: load → present → render → write, each step taking and returning values.
public struct SiteBuilder: Sendable {
    public struct Options: Sendable {
        public var source: URL
        public var output: URL
        public var includeDrafts: Bool
        public var baseURL: BaseURL?
        /// Write into an output folder sitegen did not make, replacing and removing its files.
        public var force: Bool
        /// The environment (for the home folder, which is never an output folder).
        public var environment: [String: String]

        public init(
            source: URL, output: URL, includeDrafts: Bool = false, baseURL: BaseURL? = nil, force: Bool = false,
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) {
            self.source = source
            self.output = output
            self.includeDrafts = includeDrafts
            self.baseURL = baseURL
            self.force = force
            self.environment = environment
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
        public let output: OutputTransaction.Report
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

    /// Rendered pages plus the feed, the sitemap and the static files.
    static func assemble(_ pages: [String: Data], presentation: SitePresenter.Presentation, content: SiteContent)
        throws -> [String: Data]
    {
        pages.merging(try otherFiles(presentation, content)) { page, _ in page }
    }

    /// The feed, the sitemap and the static files; a static file may not take the place of
    /// a generated one.
    static func otherFiles(_ presentation: SitePresenter.Presentation, _ content: SiteContent) throws -> [String: Data]
    {
        var files: [String: Data] = [:]
        files["feed.xml"] = Data(FeedWriter.xml(presentation.feed).utf8)
        files["sitemap.xml"] = Data(SitemapWriter.xml(presentation.sitemap).utf8)
        let generated = Set(presentation.pages.map(\.output)).union(files.keys)
        let clashes = content.staticFiles.keys.filter(generated.contains).sorted()
        guard clashes.isEmpty else {
            throw BuildError(step: "copying static files", diagnostics: clashes.map(Diagnostic.staticClash))
        }
        files.merge(content.staticFiles) { generated, _ in generated }
        return files
    }

    /// Builds and writes the site. Pages are written as they are rendered, into a staging
    /// area; only when every page succeeded do they replace the old ones, so on any error
    /// the output folder is left exactly as it was.
    public func build() throws -> Report {
        try checkOutputFolder()
        let content = try load()
        let library = try Self.compile(content.theme)
        let presentation = SitePresenter(content: content).present()
        let others = try Self.otherFiles(presentation, content)
        let transaction = try OutputTransaction(output: options.output, force: options.force)
        let written: OutputTransaction.Report
        do {
            try PageRenderer(library: library).render(presentation.pages) { job, data throws(BuildError) in
                try transaction.put(data, at: job.output)
            }
            for (path, data) in others.sorted(by: { $0.key < $1.key }) {
                try transaction.put(data, at: path)
            }
            written = try transaction.commit()
        } catch {
            transaction.discard()
            throw error
        }
        return Report(
            pages: presentation.pages.count, files: presentation.pages.count + others.count, output: written,
            warnings: content.warnings)
    }

    /// Refuses output folders a build must never write into (see ``OutputFolder``).
    func checkOutputFolder() throws {
        let home = OutputFolder.homeFolder(environment: options.environment)
        if let reason = OutputFolder.refusal(output: options.output, source: options.source, home: home) {
            throw BuildError(
                step: "checking the output folder",
                diagnostics: [
                    Diagnostic(
                        "refusing to write the site into \(options.output.path): \(reason)", file: options.output.path)
                ])
        }
    }
}
