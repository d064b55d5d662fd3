import Foundation
import SiteGen

/// `sitegen new KIND "Title"`: a new review file with its front matter filled in.
struct NewCommand: Command {
    static let name = "new"
    static let summary = "Start a review: a draft file with its front matter filled in"
    static let help = """
        Usage: sitegen new KIND "Title" [--tmdb ID | --isbn ISBN] [--year Y] [--author A] [--director D] [--section S] [--source DIR] [--no-fetch]

        Writes content/<section>/<slug>.md, a draft (draft: true) dated today, and prints
        its path. KIND is movie (or film), book or tv (a series); the section is --section S, else the
        first section of that kind (else movies/ or books/); the file name is the
        title's slug (기생충 stays 기생충.md). An existing file is never replaced.

        When it can, it fetches the film or book at once into the metadata/ cache, as
        sitegen fetch does (a film needs TMDB_API_KEY or TMDB_ACCESS_TOKEN; a book uses
        Naver with NAVER_CLIENT_ID and NAVER_CLIENT_SECRET, else Open Library), and fills
        in tmdb or isbn, year, original_title and director or author. What is already
        cached is used without fetching. When the fetch fails the review is still
        written, and a warning says so (exit status 0).

        Options:
          --tmdb ID         The film's TMDB id (else the film is searched by title and year)
          --isbn ISBN       The book's ISBN (else the book is searched by title and author)
          --year Y          Release or publication year
          --director D      The film's director
          --author A        The book's author
          --section S       The section folder in content/ (it must hold this kind)
          --source DIR      The site folder (default: the current folder)
          --no-fetch        Do not fetch anything
          -h, --help        Show this help

        Environment: SITEGEN_TODAY=YYYY-MM-DD sets today's date (default: the local
        date); the variables sitegen fetch reads.

        """
    static let arguments = ArgumentSpec(
        flags: ["--no-fetch"],
        options: ["--tmdb", "--isbn", "--year", "--author", "--director", "--section", "--source"],
        positional: 2...2)

    let kind: WorkKind
    let title: String
    let tmdbID: Int?
    let isbn: String?
    let year: Int?
    let creator: String?
    let section: String?
    let source: String?
    let fetches: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        switch arguments.positional[0] {
        case "movie", "film": kind = .movie
        case "book": kind = .book
        case "tv", "series": kind = .tv
        default:
            throw UsageError("KIND must be movie (or film), book or tv, not \"\(arguments.positional[0])\"")
        }
        title = arguments.positional[1].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw UsageError("the title cannot be empty") }
        let filmOnly = ["--tmdb", "--director"]
        let bookOnly = ["--isbn", "--author"]
        for option in kind == .book ? filmOnly : bookOnly where arguments.value(option) != nil {
            let forKind = filmOnly.contains(option) ? (option == "--tmdb" ? "films and series" : "films") : "books"
            let these = kind == .tv ? "series" : "\(kind.noun)s"
            throw UsageError("\(option) is for \(forKind), not \(these)")
        }
        tmdbID = try arguments.integer("--tmdb", in: 1...Int(Int32.max))
        if let text = arguments.value("--isbn") {
            guard let digits = Review.isbn(text) else {
                throw UsageError("--isbn must be an ISBN of 10 or 13 digits, not \"\(text)\"")
            }
            isbn = digits
        } else {
            isbn = nil
        }
        if kind == .book, let text = arguments.value("--year") {
            // A book's year may be before the common era, as its front matter's may.
            guard let number = Int(text), (-9999...9999).contains(number), number != 0 else {
                throw UsageError(
                    "--year must be a whole number from -9999 to 9999 other than 0 (-700 is 700 BCE), not \"\(text)\"")
            }
            year = number
        } else {
            year = try arguments.integer("--year", in: 1...9999)
        }
        creator = arguments.value(kind == .movie ? "--director" : "--author")
        section = arguments.value("--section")
        source = arguments.value("--source")
        fetches = !arguments.has("--no-fetch")
    }

    func run(_ environment: CommandEnvironment) async throws -> Int32 {
        let here = URL(fileURLWithPath: environment.currentDirectory, isDirectory: true)
        let site = (source.map { URL(fileURLWithPath: $0, relativeTo: here) } ?? here).standardizedFileURL
        let review = NewReview(
            kind: kind, title: title, date: try Self.today(environment), tmdbID: tmdbID, isbn: isbn, year: year,
            creator: creator, section: section)
        let plan = try Self.reporting { () throws(AuthoringError) in try review.plan(site: site) }
        let metadata = fetches ? await fetch(review, plan: plan, site: site, environment) : nil
        try Self.reporting { () throws(AuthoringError) in
            try review.write(review.text(with: metadata), plan: plan, site: site)
        }
        // The path as the user would type it: under --source, from the current folder.
        let folder = source.map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 } ?? ""
        environment.console.line(
            folder.isEmpty || folder == "." ? plan.path : (folder as NSString).appendingPathComponent(plan.path))
        return ExitCode.success
    }

    /// `body`'s result, its error put as `sitegen new`'s.
    static func reporting<T>(_ body: () throws(AuthoringError) -> T) throws(CommandError) -> T {
        do {
            return try body()
        } catch {
            throw CommandError("sitegen new: \(error)")
        }
    }
}

private extension NewCommand {
    /// The film or book from the cache, or fetched into it; nil (with a line saying why) when
    /// it cannot be had.
    func fetch(
        _ review: NewReview, plan: NewReview.Plan, site: URL, _ environment: CommandEnvironment
    ) async -> WorkMetadata? {
        let console = environment.console
        let later = "sitegen fetch --only \(plan.path) fetches it later"
        let cache = MetadataCache(site: site)
        let lookup = review.lookup
        if let cached = try? cache.entry(for: lookup) {
            console.error("found \(lookup) “\(cached.title)” in \(MetadataCache.folderName)/\(lookup.path)")
            return cached
        }
        let sources: MetadataSources
        do {
            sources = try plan.config.metadata.applying(environment: environment.variables)
        } catch {
            console.error("warning: not fetched: \(error); \(later)")
            return nil
        }
        if kind == .movie && sources.tmdbAPIKey == nil && sources.tmdbAccessToken == nil {
            console.error("not fetched: TMDB needs TMDB_API_KEY or TMDB_ACCESS_TOKEN in the environment; \(later)")
            return nil
        }
        let fetcher = MetadataFetcher(
            cache: cache, sources: sources, language: plan.config.language, client: CurlHTTPClient(),
            options: .init(policy: RetryPolicy(attempts: 2, timeout: 10)))
        do {
            let metadata = try await fetcher.fetch(lookup) { review.storedLookup(for: $0) ?? lookup }
            let stored = review.storedLookup(for: metadata) ?? lookup
            console.error("fetched \(lookup) “\(metadata.title)” into \(MetadataCache.folderName)/\(stored.path)")
            return metadata
        } catch {
            console.error(
                "warning: could not fetch \(lookup): \(error); the review was written without it, and \(later)")
            return nil
        }
    }
}
