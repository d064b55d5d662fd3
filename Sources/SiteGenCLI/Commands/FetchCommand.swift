import Foundation
import SiteGen
import Synchronization

/// `sitegen fetch`: fills the metadata cache for every review that names a film or book.
struct FetchCommand: Command {
    static let name = "fetch"
    static let summary = "Fetch film and book metadata into the metadata/ cache"
    static let help = """
        Usage: sitegen fetch [--source DIR] [--refresh] [--only PATH]... [--timeout SECONDS] [--tries N] [--concurrency N]

        Finds every review that names a film (tmdb: ID, or title and year) or a book
        (isbn, or title and author), fetches what the metadata/ cache lacks from TMDB,
        Naver (when NAVER_CLIENT_ID and NAVER_CLIENT_SECRET are set) or Open Library,
        and writes one JSON file per film or book plus its poster or cover. Builds read
        the cache and never touch the network. Files are written atomically; a failed
        request leaves the cache as it was. Exits 1 when something could not be had.

        Options:
          --source DIR         The site folder (default: the current folder)
          --refresh            Fetch again what is already cached, replacing entries
                               that cannot be read (else they are reported and kept)
          --only PATH          Only reviews at PATH or under it (repeatable)
          --timeout SECONDS    Give up a request after this long (default 15)
          --tries N            Attempts per request, retrying 429, 5xx and time-outs (default 3)
          --concurrency N      Requests in flight at once (default 8)
          -h, --help           Show this help

        Environment: TMDB_API_KEY or TMDB_ACCESS_TOKEN (films), NAVER_CLIENT_ID and
        NAVER_CLIENT_SECRET (books, optional), and SITEGEN_TMDB_API, SITEGEN_TMDB_IMAGES,
        SITEGEN_NAVER_API, SITEGEN_OPENLIBRARY_API, SITEGEN_OPENLIBRARY_COVERS to point
        at other servers than site.yml's.

        """
    static let arguments = ArgumentSpec(
        flags: ["--refresh"], options: ["--source", "--timeout", "--tries", "--concurrency"], repeatable: ["--only"])

    let source: String?
    let options: MetadataFetcher.Options

    init(_ arguments: Arguments) throws(UsageError) {
        source = arguments.value("--source")
        var options = MetadataFetcher.Options(
            refresh: arguments.has("--refresh"), only: arguments.values["--only"] ?? [])
        if let text = arguments.value("--timeout") {
            guard let seconds = Double(text), seconds > 0, seconds <= 600 else {
                throw UsageError("--timeout must be a number of seconds above 0 and at most 600, not \"\(text)\"")
            }
            options.policy.timeout = seconds
        }
        options.policy.attempts = try arguments.integer("--tries", in: 1...10) ?? options.policy.attempts
        options.maxInFlight = try arguments.integer("--concurrency", in: 1...64) ?? options.maxInFlight
        self.options = options
    }

    func run(_ environment: CommandEnvironment) async throws -> Int32 {
        let here = URL(fileURLWithPath: environment.currentDirectory, isDirectory: true)
        let folder = (source.map { URL(fileURLWithPath: $0, relativeTo: here) } ?? here).standardizedFileURL
        let content = try SiteLoader(root: folder, options: .init(includeDrafts: true)).load()
        let sources: MetadataSources
        do {
            sources = try content.config.metadata.applying(environment: environment.variables)
        } catch {
            throw CommandError("\(error)")
        }
        let fetcher = MetadataFetcher(
            cache: MetadataCache(site: folder), sources: sources,
            language: content.config.language, client: CurlHTTPClient(), options: options)
        let unmatched = fetcher.unmatchedOnlyPaths(in: content.reviews)
        guard unmatched.isEmpty else {
            throw CommandError(
                "--only \(unmatched.joined(separator: ", ")): no review there (paths are relative to the site folder, "
                    + "like content/movies or content/movies/parasite.md)")
        }
        let (jobs, cached, warnings) = fetcher.jobs(for: content.reviews)
        let console = environment.console
        for warning in warnings { console.error(warning.description) }
        let progress = FetchProgress(console: console, total: jobs.count)
        console.line("Fetching \(jobs.count) of \(jobs.count + cached) films and books (\(cached) already cached).")
        let summary = await fetcher.run(jobs, cached: cached) { progress.handle($0) }
        progress.finish()
        console.line(
            "Fetched \(summary.fetched.count), \(summary.cached) already cached, \(summary.failed.count) failed.")
        for (job, error) in summary.failed {
            console.error("\(job.sources.joined(separator: ", ")): \(job.lookup): \(error)")
        }
        return summary.failed.isEmpty ? ExitCode.success : ExitCode.failure
    }
}

/// Shows fetch progress: a bar redrawn in place on a terminal, a line per outcome otherwise.
final class FetchProgress: Sendable {
    private struct State {
        var done = 0
        var failed = 0
        var current = ""
    }

    private let console: Console
    private let total: Int
    private let state = Mutex(State())

    init(console: Console, total: Int) {
        self.console = console
        self.total = total
    }

    func handle(_ event: MetadataFetcher.Event) {
        state.withLock { state in
            switch event {
            case .started(let job):
                state.current = job.sources.first ?? "\(job.lookup)"
            case .fetched(let job, let metadata):
                state.done += 1
                if !console.isTerminal {
                    console.line("fetched \(job.sources.joined(separator: ", ")): \(job.lookup) “\(metadata.title)”")
                }
            case .failed(let job, let error):
                state.done += 1
                state.failed += 1
                if !console.isTerminal { console.error("failed \(job.sources.joined(separator: ", ")): \(error)") }
            }
            if console.isTerminal { draw(state) }
        }
    }

    func finish() {
        if console.isTerminal && total > 0 { console.err("\n") }
    }

    private func draw(_ state: State) {
        let width = 24
        let filled = total == 0 ? width : width * state.done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let failures = state.failed == 0 ? "" : " · \(state.failed) failed"
        console.err("\r\u{1B}[2K[\(bar)] \(state.done)/\(total)\(failures) \(state.current)")
    }
}
