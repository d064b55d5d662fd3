import Foundation
import ImageProcessing
import Mustache

/// `sitegen fetch`'s work: find every review's film or book, fetch what is not cached
/// (or everything, with `refresh`), and report each outcome.
public struct MetadataFetcher: Sendable {
    public struct Options: Sendable {
        public var refresh = false
        /// Only reviews whose source path equals, or lies inside, one of these.
        public var only: [String] = []
        public var policy = RetryPolicy()
        public var maxInFlight = 8

        public init(
            refresh: Bool = false, only: [String] = [], policy: RetryPolicy = RetryPolicy(), maxInFlight: Int = 8
        ) {
            self.refresh = refresh
            self.only = only
            self.policy = policy
            self.maxInFlight = maxInFlight
        }
    }

    /// One film or book to fetch, and the reviews that name it.
    public struct Job: Sendable {
        public let lookup: Lookup
        public let sources: [String]
        /// Why its cached entry cannot be read, when it cannot and the run does not refresh:
        /// the job then fails with it, and the entry is left as it is.
        public var unreadable: Diagnostic? = nil
    }

    /// What happened, reported as it happens.
    public enum Event: Sendable {
        case started(Job)
        case fetched(Job, WorkMetadata)
        case failed(Job, MetadataError)
    }

    /// One job's result, as a child task hands it back.
    ///
    /// A struct built after the fetch has finished, never a tuple returned across the
    /// `await`: Swift 6.3's optimizer miscompiles async tuple results split across a
    /// suspension (swiftlang/swift PR #91911), which crashed release builds here.
    struct Outcome: Sendable {
        let job: Job
        let result: Result<WorkMetadata, MetadataError>
    }

    /// The result of a run.
    public struct Summary: Sendable {
        public var fetched: [(Job, WorkMetadata)] = []
        public var failed: [(Job, MetadataError)] = []
        /// Jobs skipped because their entry was cached.
        public var cached = 0
        public var total = 0
    }

    public let cache: MetadataCache
    public let sources: MetadataSources
    public let language: SiteLanguage
    public let client: any HTTPClient
    public let options: Options

    public init(
        cache: MetadataCache, sources: MetadataSources, language: SiteLanguage, client: any HTTPClient,
        options: Options
    ) {
        self.cache = cache
        self.sources = sources
        self.language = language
        self.client = client
        self.options = options
    }

    /// The `only` paths that name no review (a typo must not pass as "nothing to fetch").
    public func unmatchedOnlyPaths(in reviews: [Review]) -> [String] {
        options.only.filter { only in !reviews.contains { Self.matches($0.source, only) } }
    }

    /// The jobs for `reviews`: one per cache entry, filtered by `only`, cached ones (with all
    /// their images) left out unless refreshing. Without `refresh`, an entry that cannot be read
    /// (or names a missing image) makes a job that fails with the build's error for it.
    ///
    /// Reviews whose lookups make one cache file (searches for "id31" and "id31!" of one year
    /// are both `search-id31-2000`) share one job, the first review's, so no two jobs ever write
    /// one entry's files; as the build then gives them both that entry, a warning says so when
    /// they searched for different words.
    public func jobs(for reviews: [Review]) -> (jobs: [Job], cached: Int, warnings: [Diagnostic]) {
        var order: [Lookup] = []
        var byPath: [String: (lookup: Lookup, sources: [String])] = [:]
        var warnings: [Diagnostic] = []
        for review in reviews where selected(review.source) {
            guard let lookup = Lookup(review) else { continue }
            guard let first = byPath[lookup.path] else {
                order.append(lookup)
                byPath[lookup.path] = (lookup, [review.source])
                continue
            }
            byPath[lookup.path]?.sources.append(review.source)
            if lookup != first.lookup {
                warnings.append(
                    Diagnostic(
                        "\(lookup) is stored as \(MetadataCache.folderName)/\(lookup.path), as \(first.lookup) of "
                            + "\(first.sources[0]) is: both reviews get the entry found for the latter",
                        at: SourceLocation(path: review.source, line: 1, column: 1), severity: .warning))
            }
        }
        var jobs: [Job] = []
        var cached = 0
        for lookup in order {
            let sources = byPath[lookup.path]?.sources ?? []
            switch options.refresh ? .none : cache.state(of: lookup, review: sources.first ?? lookup.path) {
            case .none: jobs.append(Job(lookup: lookup, sources: sources))
            case .whole: cached += 1
            case .unusable(let problem): jobs.append(Job(lookup: lookup, sources: sources, unreadable: problem))
            }
        }
        return (jobs, cached, warnings)
    }

    /// Fetches every job, at most `maxInFlight` requests at a time; `report` hears each event.
    public func run(_ jobs: [Job], cached: Int, report: @escaping @Sendable (Event) -> Void) async -> Summary {
        let transport = Transport(client: client, policy: options.policy, maxInFlight: options.maxInFlight)
        let provider = MetadataProvider(transport: transport, sources: sources, language: language)
        var summary = Summary(cached: cached, total: jobs.count + cached)
        for job in jobs {
            guard let problem = job.unreadable else { continue }
            report(.started(job))
            summary.failed.append((job, .unreadableEntry(problem)))
            report(.failed(job, .unreadableEntry(problem)))
        }
        await withTaskGroup(of: Outcome.self) { group in
            for job in jobs where job.unreadable == nil {
                group.addTask {
                    report(.started(job))
                    // The result is complete before the outcome is made: see ``Outcome``.
                    let result: Result<WorkMetadata, MetadataError>
                    do throws(MetadataError) {
                        result = .success(try await fetch(job.lookup, provider: provider, transport: transport))
                    } catch {
                        result = .failure(error)
                    }
                    return Outcome(job: job, result: result)
                }
            }
            for await outcome in group {
                let job = outcome.job
                switch outcome.result {
                case .success(let metadata):
                    summary.fetched.append((job, metadata))
                    report(.fetched(job, metadata))
                case .failure(let error):
                    summary.failed.append((job, error))
                    report(.failed(job, error))
                }
            }
        }
        summary.fetched.sort { $0.0.lookup.key < $1.0.lookup.key }
        summary.failed.sort { $0.0.lookup.key < $1.0.lookup.key }
        return summary
    }
}

extension MetadataFetcher {
    /// Fetches one film or book now (`sitegen new`), with its images, and stores it under
    /// the lookup `storedAs` gives for what was found (a search stored under the id the new
    /// review will name).
    public func fetch(
        _ lookup: Lookup, storedAs: @escaping @Sendable (WorkMetadata) -> Lookup
    ) async throws(MetadataError) -> WorkMetadata {
        let transport = Transport(client: client, policy: options.policy, maxInFlight: options.maxInFlight)
        let provider = MetadataProvider(transport: transport, sources: sources, language: language)
        return try await fetch(lookup, provider: provider, transport: transport, storedAs: storedAs)
    }
}

private extension MetadataFetcher {
    func selected(_ source: String) -> Bool {
        options.only.isEmpty || options.only.contains { Self.matches(source, $0) }
    }

    /// Whether a review's source (`content/movies/x.md`) is `only` or lies under it.
    static func matches(_ source: String, _ only: String) -> Bool {
        var trimmed = Substring(only)
        while let rest = trimmed.removingPathPrefix("./") { trimmed = rest }
        while trimmed.endsWithSlash { trimmed = trimmed.droppingLastByte() }
        return source == trimmed || source.hasPathPrefix(trimmed + "/")
    }

    /// Fetches one entry and its images, then stores it (under `storedAs` of what was found,
    /// or `lookup`); nothing is stored unless all of it arrived.
    func fetch(
        _ lookup: Lookup, provider: MetadataProvider, transport: Transport,
        storedAs: (@Sendable (WorkMetadata) -> Lookup)? = nil
    ) async throws(MetadataError) -> WorkMetadata {
        let found = try await provider.fetch(lookup)
        // Control characters (an escape sequence in a title) are neither stored nor printed.
        let metadata = found.metadata.cleanedForCache()
        let lookup = storedAs?(metadata) ?? lookup
        if let problem = metadata.rangeProblem?.message ?? metadata.fetchedIDProblem {
            throw MetadataError.malformed("the answer for \(lookup.key) is out of range: \(problem)")
        }
        let requests = found.images
        var images: [(CachedImage, Data)] = []
        for request in requests {
            let urlRequest = try request.endpoint.request(sources)
            let data = try await transport.data(urlRequest)
            // Only an image is stored: an HTML error page or a header claiming a huge size fails
            // the fetch, and the entry cached before stays.
            guard let size = ImageSize.of(Array(data.prefix(64 * 1024))),
                WorkMetadata.imageSides.contains(size.width), WorkMetadata.imageSides.contains(size.height),
                size.width * size.height <= ReviewImages.pixelLimit
            else {
                throw MetadataError.malformed(
                    "not a JPEG, PNG, GIF or WebP image of at most \(WorkMetadata.imageSides.upperBound) pixels a side "
                        + "and \(ReviewImages.pixelLimit / 1_000_000) million pixels: "
                        + Transport.display(urlRequest.url))
            }
            // Its pixels too, as a review's own image's are: a file cut short or damaged after a
            // good header would be published as a broken image. (A GIF, which libvips is not
            // given, is taken by its header.)
            do throws(ImageError) {
                _ = try ImageProcessor.inspect(data)
                try ImageProcessor.verify(data)
            } catch {
                if case .unsupportedFormat = error {
                } else {
                    throw MetadataError.malformed(
                        "the image is damaged or cut short, it cannot be decoded: " + Transport.display(urlRequest.url))
                }
            }
            let file = "images/\(lookup.imageKey)-\(request.size).\(request.fileExtension)"
            images.append((CachedImage(size: request.size, file: file, width: size.width, height: size.height), data))
        }
        try cache.store(metadata, images: images, for: lookup, refreshing: options.refresh)
        var stored = metadata
        stored.images = images.map(\.0)
        return stored
    }
}
