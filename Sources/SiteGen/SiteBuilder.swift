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
        /// Keep a build manifest in `.sitegen/` to skip builds when nothing changed.
        public var usesManifest = true
        /// Reviews dated after this day are left out until it comes; nil publishes every one
        /// (`--future`, and the default for code that builds sites).
        public var today: Day?
        /// False when the process ends with the build (`sitegen build`): the site's values are
        /// then left for the exit to reclaim, as compilers do, rather than freed one object at a
        /// time while the build's last steps want every core (about half a second of a core at
        /// 100,000 reviews).
        public var freesMemory = true
        /// Called when another build is writing into the output folder, before waiting for it
        /// to finish (see ``OutputLock``).
        public var waitingForOutput: @Sendable () -> Void = {}

        public init(
            source: URL, output: URL, includeDrafts: Bool = false, baseURL: BaseURL? = nil, force: Bool = false,
            environment: [String: String] = ProcessInfo.processInfo.environment, today: Day? = nil
        ) {
            self.source = source
            self.output = output
            self.includeDrafts = includeDrafts
            self.baseURL = baseURL
            self.force = force
            self.environment = environment
            self.today = today
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
        public internal(set) var warnings: [Diagnostic]
        /// True when nothing had changed since the last build, which the build manifest showed.
        public let upToDate: Bool
        /// The date of the first review left out for being dated after today.
        public var nextPublication: Day? = nil
        /// The date of the newest review published: a build as of an earlier day leaves it out.
        public var newestPublication: Day? = nil
        /// How long each step took (scan inputs, load, present, list pages and files, render and
        /// write, commit, manifest), for benchmarks.
        public var steps: [(name: String, seconds: Double)] = []
    }

    /// Loads the site folder, attaches the cached metadata and processes the reviews' own
    /// images (load, enrich, images).
    public func load() throws -> SiteContent {
        try load(images: images)
    }

    /// ``load()`` with `images` as the image step (whose cache then knows what was used), and
    /// large files of `static/` and page bundles left to read when written when `images` says
    /// so (a build, which writes them; see ``CopiedFile``).
    func load(images: ReviewImages) throws -> SiteContent {
        try StateFolder.check(options.source, step: "loading the site")
        var loading = SiteLoader.Options(
            includeDrafts: options.includeDrafts, baseURL: options.baseURL, today: options.today)
        loading.copiesLater = images.copiesLater
        let content = try SiteLoader(root: options.source, fileSystem: fileSystem, options: loading).load()
        let cache = MetadataCache(folder: options.source.appendingPathComponent(MetadataCache.folderName))
        return try images.publish(try MetadataEnricher(cache: cache).enrich(content))
    }

    /// The image step, reading through ``fileSystem`` and caching in the site's `.sitegen/images/`.
    var images: ReviewImages {
        ReviewImages(
            folder: SiteFolder(root: options.source, fileSystem: fileSystem), cache: ImageCache(source: options.source))
    }

    /// Every file of the site, by output path, without touching the output folder.
    public func render(_ content: SiteContent, isPreview: Bool = false) throws -> (files: [String: Data], pages: Int) {
        let library = try Self.compile(content.theme)
        let jobs = SitePresenter.jobs(Self.present(content, isPreview: isPreview))
        var files = try PageRenderer(library: library).render(jobs)
        files.merge(try Self.staticFiles(content, besides: jobs)) { page, _ in page }
        return (files, jobs.count)
    }

    /// The theme's templates, compiled; a template error stops the build.
    static func compile(_ theme: Theme) throws -> TemplateLibrary {
        let (library, problems) = theme.library()
        guard let library else { throw BuildError(step: "compiling templates", diagnostics: problems) }
        return library
    }

    /// The presenters' view of `content`: the third step of a build.
    /// `previous`, the index of an earlier presentation, lends its search index when the
    /// reviews and their order are the same (a settings change while serving).
    static func present(
        _ content: SiteContent, isPreview: Bool, tracksDependents: Bool = false, previous: SiteIndex? = nil
    ) -> Presentation {
        let context = context(content, isPreview: isPreview)
        return Presentation(
            context: context,
            index: SiteIndex(
                reviews: content.reviews, context: context, tracksDependents: tracksDependents, previous: previous))
    }

    /// What every page of `content` shares: settings, navigation, labels, formats.
    static func context(_ content: SiteContent, isPreview: Bool) -> SiteContext {
        let image = content.config.image.flatMap { path in
            content.staticFiles[path].flatMap { ImageSize.of(Array($0.prefix(64 * 1024))) }.map { size in
                SocialImage(
                    url: URLs(base: content.config.baseURL).absolute(path), width: size.width, height: size.height,
                    alt: content.config.title)
            }
        }
        return SiteContext(
            config: content.config, sections: content.sections, pages: content.pages,
            facts: .init(content.reviews), isPreview: isPreview, siteImage: image,
            hasOwnRobots: content.hasOwnRobots)
    }

    /// Presents every page of `content` and returns how many (the present step alone, for benchmarks).
    public func presentAll(_ content: SiteContent) -> Int {
        SitePresenter.jobs(Self.present(content, isPreview: false)).count
    }

    /// The static files (theme assets, then `static/`, then published images); one may not
    /// take the place of a generated file.
    static func staticFiles(_ content: SiteContent, besides jobs: [PageJob]) throws -> [String: Data] {
        try staticFiles(content, besides: Set(jobs.map(\.output)))
    }

    /// The static files, given the paths of the generated files.
    static func staticFiles(_ content: SiteContent, besides generated: Set<String>) throws -> [String: Data] {
        try staticFiles(content, besides: generated, isGenerated: generated.contains)
    }

    /// The static files, given the paths of the generated files and whether a path is one of them.
    static func staticFiles(
        _ content: SiteContent, besides generated: some Sequence<String>, isGenerated: (String) -> Bool
    ) throws -> [String: Data] {
        let copied = content.copiedPaths
        let clashes = copied.filter(isGenerated).sorted()
        guard clashes.isEmpty else {
            throw BuildError(step: "copying static files", diagnostics: clashes.map(Diagnostic.staticClash))
        }
        // A static file where a page needs a folder (`static/movies`), or in a folder where a
        // page is (`static/movies/x/index.html/a.txt`).
        let paths = PublishedPaths(copied)
        let folderClashes = Self.folderClashes(generated, inTheWay: paths.clash(with:))
        guard folderClashes.isEmpty else { throw BuildError(step: "copying static files", diagnostics: folderClashes) }
        return content.staticFiles
    }

    /// The errors for the static files that `inTheWay` finds for `pages` (one where a page
    /// needs a folder, or in a folder where a page is): each static file once, with the first
    /// page it is in the way of, sorted.
    static func folderClashes(_ pages: some Sequence<String>, inTheWay: (String) -> String?) -> [Diagnostic] {
        var clashes: [String: String] = [:]
        for page in pages {
            guard let path = inTheWay(page) else { continue }
            if clashes[path].map({ page < $0 }) ?? true { clashes[path] = page }
        }
        return clashes.map { Diagnostic.staticFolderClash($0.key, page: $0.value) }.sorted()
    }

    /// Builds and writes the site. Pages are written as they are rendered, into a staging
    /// area; only when every page succeeded do they replace the old ones, so on any error
    /// the output folder is left exactly as it was.
    public func build() throws -> Report {
        let site = OutputFolder.realPath(of: options.source.standardizedFileURL.path)
        let links = OutputFolder.followedLinks(in: site)
        try checkOutputFolder(links: links)
        try StateFolder.check(options.source, step: "checking the site folder")
        // One build at a time writes into an output folder; the next one then reads its manifest.
        let (source, output) = (options.source, options.output)
        // A link that leads out of the site folder is the full build's to refuse: the manifest
        // knows the files, not where a link leads (a folder moved out, a link left in its place).
        let linksStayInside = links.allSatisfy { SafePath.isWithin($0.target, site) }
        return try OutputLock.holding(source: source, output: output, waiting: options.waitingForOutput) {
            try buildLocked(mayStopEarly: linksStayInside)
        }
    }

    /// ``build()`` once no other build writes into the output folder; the manifest may end it
    /// early only when `mayStopEarly`.
    private func buildLocked(mayStopEarly: Bool) throws -> Report {
        // Nothing changed since the last build (the manifest says so, and the output is intact): done.
        let manifestURL = BuildManifest.location(source: options.source, output: options.output)
        let identity = BuildManifest.identity(of: options)
        let started = Date()
        var steps = StepClock()
        let stamps = options.usesManifest ? BuildManifest.scan(options.source) : nil
        // An output folder without sitegen's record (a first build) cannot be up to date: the
        // manifest is not even read.
        let outputPath = options.output.standardizedFileURL.path
        let hasRecord = OutputRecord.exists(in: outputPath)
        // --force asks for every other visible file in the output to go: never skipped.
        if mayStopEarly, let stamps, hasRecord, !options.force, let manifest = BuildManifest.read(manifestURL),
            manifest.identity == identity,
            manifest.isCurrent(today: options.today), manifest.matches(stamps, source: options.source),
            manifest.outputIsIntact(options.output),
            // A killed build's staged pages (maybe a draft's, from a --drafts build) must go.
            !OutputTransaction.hasStaging(in: outputPath)
        {
            return Report(
                pages: manifest.pages, files: manifest.files,
                output: .init(written: 0, unchanged: manifest.files, removed: 0), warnings: manifest.warnings,
                upToDate: true, nextPublication: manifest.nextPublication,
                newestPublication: manifest.newestPublication)
        }
        if stamps != nil { steps.lap("scan inputs") }
        // The manifest's inputs are made ready on another thread while the site builds.
        let prepared = stamps.map { stamps in Background { BuildManifest.PreparedInputs(stamps, started: started) } }
        var report = try buildAll(steps: &steps)
        if let prepared {
            if let manifest = BuildManifest.made(
                identity: identity, prepared: prepared.value, source: options.source, output: options.output,
                report: report)
            {
                // Only a shortcut for the next build: a manifest that cannot be written is no
                // error, but the reviewer is told why every build does all the work again.
                do {
                    try manifest.write(to: manifestURL, prepared: prepared.value)
                    BuildManifest.pruneOthers(besides: manifestURL)
                } catch {
                    report.warnings.append(Diagnostic.manifestNotKept(manifestURL, error))
                }
                letGo(manifest)
            }
            steps.lap("manifest")
            report.steps = steps.laps
        }
        // The stamps of every input (200,000 at 100,000 reviews) are freed apart from the build's end.
        letGo((stamps, prepared))
        return report
    }

    /// Hands `value` over to be freed on another thread, or (``Options/freesMemory`` false) at
    /// the exit, rather than one object at a time at the end of the build.
    private func letGo<Value: Sendable>(_ value: consuming Value) {
        if options.freesMemory {
            BackgroundRelease.release(value)
        } else {
            BackgroundRelease.keepUntilExit(value)
        }
    }

    /// Loads, presents, renders and writes the whole site.
    func buildAll(steps: inout StepClock) throws -> Report {
        var images = self.images
        images.copiesLater = true
        let content = try load(images: images)
        steps.lap("load")
        let library = try Self.compile(content.theme)
        let presentation = Self.present(content, isPreview: false)
        steps.lap("present")
        // Pages are listed by key; each one's model is made when it is rendered and dropped
        // once its bytes are handed over, so models are never all held at once.
        // The large pages first, so that none of them is left to finish alone on one core.
        let all = SitePresenter.keys(presentation)
        let keys = all.filter(\.readsManyReviews) + all.filter { !$0.readsManyReviews }
        let outputs = keys.parallelMap { SitePresenter.output($0, presentation) }
        let others = try Self.staticFiles(content, besides: Set(outputs))
        let copies = others.mapValues(CopiedBytes.held).merging(content.copiedFiles.mapValues(CopiedBytes.later)) {
            held, _ in held
        }
        steps.lap("list pages and files")
        let transaction = try OutputTransaction(output: options.output, force: options.force)
        transaction.expect(outputs + copies.keys)
        let written: OutputTransaction.Report
        do {
            try PageRenderer(library: library).render(
                keys, job: { SitePresenter.job($0, presentation) },
                deliverBytes: { job, bytes throws(BuildError) in try transaction.put(bytes: bytes, at: job.output) })
            // Staged on every core; the first failure in path order is the one reported. Large
            // files are read as they are staged, one per core at a time.
            let staged = copies.sorted { $0.key < $1.key }
                .parallelMap { path, bytes in
                    Result { () throws(BuildError) in
                        switch bytes {
                        case .held(let data): try transaction.put(data, at: path)
                        case .later(let file): try transaction.put(copying: file, at: path)
                        }
                    }
                }
            for result in staged { try result.get() }
            steps.lap("render and write")
            written = try transaction.commit()
            steps.lap("commit")
        } catch {
            transaction.discard()
            throw error
        }
        // Every review's image went through the cache: what it did not use can go.
        images.cache?.prune()
        var warnings = content.warnings
        if let cache = images.cache, let failure = cache.storeFailure {
            warnings.append(Diagnostic.imagesNotKept(cache.folder, failure))
        }
        let pages = outputs.filter { $0.hasSuffix(".html") }.count
        let report = Report(
            pages: pages, files: outputs.count + copies.count, output: written, warnings: warnings,
            upToDate: false, nextPublication: content.nextPublication,
            newestPublication: content.reviews.lazy.map(\.date).max(), steps: steps.laps)
        letGo((consume content, consume presentation, consume transaction, consume keys, consume outputs))
        return report
    }

    /// Refuses output folders a build must never write into (see ``OutputFolder``).
    func checkOutputFolder(links: [(path: String, target: String)]? = nil) throws {
        let home = OutputFolder.homeFolder(environment: options.environment)
        if let reason = OutputFolder.refusal(output: options.output, source: options.source, home: home, links: links) {
            throw BuildError(
                step: "checking the output folder",
                diagnostics: [
                    Diagnostic(
                        "refusing to write the site into \(options.output.path): \(reason)", file: options.output.path)
                ])
        }
    }
}

/// Times the steps of a build, one lap each.
struct StepClock {
    private let clock = ContinuousClock()
    private var last: ContinuousClock.Instant
    private(set) var laps: [(name: String, seconds: Double)] = []

    init() {
        last = clock.now
    }

    mutating func lap(_ name: String) {
        let now = clock.now
        laps.append((name, (now - last) / .seconds(1)))
        last = now
    }
}
