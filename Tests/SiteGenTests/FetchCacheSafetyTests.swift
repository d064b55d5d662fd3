import Foundation
import Mustache
import Synchronization
import Testing

@testable import SiteGen

/// What a fetch may replace or remove in the cache: never an entry edited by hand that it
/// cannot read (unless `--refresh`), never an image another entry names, and never, with two
/// runs at once, an image the entry on disk names.
@Suite("What a fetch leaves in the cache")
struct FetchCacheSafetyTests {
    static let entry = #"{"kind": "movie", "source": "tmdb", "id": "7", "title": "Mine", "#

    @Test(
        "without --refresh an entry that cannot be read fails with the build's error and is left as it is",
        arguments: [
            (
                entry + "\n\"runtime\": 100,,\n}", "2:16",
                "not a valid metadata file: not valid JSON: expected a string key, found \",\""
            ),
            (
                entry + #""year": 99999}"#, "1:73",
                "not a valid metadata file: \"year\" must be a year from -9999 to 9999 (there is no year 0), not 99999"
            ),
            (
                // At the file's name in the entry.
                entry + #""images": [{"size": "w342", "file": "images/tmdb-7-w342.jpg", "width": 2, "height": 3}]}"#,
                "1:101",
                "the image images/tmdb-7-w342.jpg it names is missing: run sitegen fetch --refresh --only "
                    + "content/movies/seven.md"
            ),
        ])
    func unreadableEntryKept(json: String, place: String, message: String) async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/7", .json(ProviderFixtures.film(id: 7)))
        let cache = try ScratchFolder()
        try cache.write("movies/tmdb-7.json", json)
        let reviews = try InMemorySite([
            "content/movies/seven.md": reviewFile("title: Seven\ndate: 2024-01-01\ntmdb: 7")
        ]).load().reviews
        let expected = "metadata/movies/tmdb-7.json:\(place): \(message)"

        let fetcher = try FakeFetch.fetcher(fake, cache: cache.url)
        let (jobs, cached, _) = fetcher.jobs(for: reviews)
        #expect(cached == 0)
        #expect(jobs.map { $0.unreadable?.description } == [expected])
        let summary = await fetcher.run(jobs, cached: cached) { _ in }
        #expect(summary.fetched.isEmpty)
        #expect(
            summary.failed.map(\.1.description) == [
                "\(expected) (left as it is: fix it, or fetch it again with --refresh)"
            ])
        #expect(fake.requests.isEmpty)
        #expect(try cache.contents() == ["movies/tmdb-7.json": json])

        // The build says the same of it.
        let built = try #require(
            MetadataEnricher(cache: MetadataCache(folder: cache.url)).attach(reviews[0]).problems.first)
        #expect(built.description == expected)

        // Asked for, it is replaced.
        let refresh = try FakeFetch.fetcher(fake, cache: cache.url, refresh: true)
        let again = refresh.jobs(for: reviews)
        #expect(again.jobs.map(\.unreadable) == [nil])
        let refreshed = await refresh.run(again.jobs, cached: again.cached) { _ in }
        #expect(refreshed.failed.isEmpty)
        #expect(try MetadataCache(folder: cache.url).entry(for: .tmdb(7))?.title == "Film 7")
    }

    @Test("storing over an entry that cannot be read fails unless refreshing (sitegen new stores so)")
    func storeKeepsUnreadable() throws {
        let cache = try ScratchFolder()
        let json = Self.entry + "\"runtime\": 100,,}"
        try cache.write("movies/tmdb-7.json", json)
        let store = MetadataCache(folder: cache.url)
        let metadata = WorkMetadata(kind: "movie", source: "tmdb", id: "7", title: "Film 7")
        #expect(
            throws: MetadataError.unreadableEntry(
                Diagnostic(
                    "not a valid metadata file: not valid JSON: expected a string key, found \",\"",
                    at: SourceLocation(path: "metadata/movies/tmdb-7.json", line: 1, column: 80)))
        ) {
            try store.store(metadata, images: [], for: .tmdb(7), refreshing: false)
        }
        #expect(try cache.contents() == ["movies/tmdb-7.json": json])
        try store.store(metadata, images: [], for: .tmdb(7), refreshing: true)
        #expect(try store.entry(for: .tmdb(7)) == metadata)
    }

    @Test("two fetches storing the same entries at once never leave an entry naming a missing image, nor leftovers")
    func racingStores() async throws {
        let site = try ScratchFolder()
        let lookups = [Lookup.tmdb(200), .tmdb(201)]
        let done = Done()
        for racer in 0..<2 {
            // Each racer is a fetch run of its own: its own cache value, on a thread of its own,
            // as the lock's waits block.
            let cache = MetadataCache(site: site.url)
            Thread.detachNewThread {
                defer { done.one() }
                for round in 0..<150 {
                    for lookup in lookups {
                        let image = CachedImage(
                            size: "w342", file: "images/\(lookup.key)-w342.png", width: 2, height: 3)
                        let metadata = WorkMetadata(kind: "movie", source: "tmdb", id: "\(lookup)", title: "T")
                        let bytes = TestImage.png(width: 2, height: 3, seed: racer * 1000 + round)
                        do {
                            try cache.store(metadata, images: [(image, bytes)], for: lookup, refreshing: true)
                        } catch {
                            done.fail("\(error)")
                        }
                    }
                }
            }
        }
        try await eventually { done.count == 2 }
        #expect(done.count == 2)
        #expect(done.failures.isEmpty, "\(done.failures.prefix(3))")
        let cache = MetadataCache(folder: site.url.appendingPathComponent("metadata"))
        var named: [String] = []
        for lookup in lookups {
            let entry = try #require(try cache.entry(for: lookup))
            for image in entry.images { #expect(try cache.image(image.file) != nil, "\(image.file) is missing") }
            named += entry.images.map(\.file)
        }
        let images = try FileManager.default.contentsOfDirectory(
            atPath: cache.folder.appendingPathComponent("images").path)
        #expect(images.map { "images/\($0)" }.sorted() == named.sorted())
        #expect(try site.entries().contains(".sitegen/fetch.lock"))
    }

    @Test("a refresh never removes an old image that another entry names")
    func sharedImageKept() throws {
        let scratch = try ScratchFolder()
        let cache = MetadataCache(folder: scratch.url)
        let image = CachedImage(size: "w342", file: "images/tmdb-7-w342.png", width: 2, height: 3)
        let metadata = WorkMetadata(kind: "movie", source: "tmdb", id: "7", title: "Seven")
        try cache.store(
            metadata, images: [(image, TestImage.png(width: 2, height: 3, seed: 1))], for: .tmdb(7), refreshing: true)
        // Entries edited by hand to name it: one that reads, one that does not.
        let naming = #""images": [{"size": "w342", "file": "images/tmdb-7-w342.png", "width": 2, "height": 3}]"#
        try scratch.write(
            "movies/tmdb-8.json", #"{"kind": "movie", "source": "tmdb", "id": "8", "title": "Eight", "# + naming + "}")
        try scratch.write("books/isbn-1.json", #"{"kind": "book", "# + naming + ",,}")
        try cache.store(
            metadata, images: [(image, TestImage.png(width: 2, height: 3, seed: 2))], for: .tmdb(7), refreshing: true)
        #expect(try cache.entry(for: .tmdb(7))?.images.first?.file != image.file)
        #expect(try cache.image(image.file) == TestImage.png(width: 2, height: 3, seed: 1))
        #expect(try cache.entry(for: .tmdb(8))?.images == [image])

        // Once no other entry names it, the next refresh that drops it removes it.
        try scratch.files.remove("movies/tmdb-8.json")
        try scratch.files.remove("books/isbn-1.json")
        let fresh = MetadataCache(folder: scratch.url)
        try fresh.store(metadata, images: [], for: .tmdb(7), refreshing: true)
        try fresh.store(
            metadata, images: [(image, TestImage.png(width: 2, height: 3, seed: 3))], for: .tmdb(7), refreshing: true)
        try fresh.store(metadata, images: [], for: .tmdb(7), refreshing: true)
        #expect(try scratch.entries() == ["books", "images", "movies", "movies/tmdb-7.json"])
    }

    @Test("a fetch of a site that stores nothing writes nothing, not even its lock")
    func nothingStoredNothingWritten() async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/7", .status(404))
        let site = try ScratchFolder()
        try site.write("site.yml", "title: X\n")
        let sources = try MetadataSources.defaults.applying(
            environment: fake.environment.merging(FakeFetch.tmdbKey) { $1 })
        let fetcher = MetadataFetcher(
            cache: MetadataCache(site: site.url), sources: sources, language: .english, client: CurlHTTPClient(),
            options: .init(policy: RetryPolicy(attempts: 1, timeout: 5)))
        let summary = await fetcher.run(
            [MetadataFetcher.Job(lookup: .tmdb(7), sources: ["content/seven.md"])], cached: 0
        ) { _ in }
        #expect(summary.failed.count == 1)
        #expect(try site.entries() == ["site.yml"])
    }

    @Test("reviews whose searches make one cache file share one job; a warning says so when their words differ")
    func collidingKeys() async throws {
        let fake = try FakeProviders()
        fake.route("/3/search/movie", .json(ProviderFixtures.search(ids: [31])))
        fake.route("/3/movie/31", .json(ProviderFixtures.film(id: 31)))
        let cache = try ScratchFolder()
        let reviews = try InMemorySite([
            "content/movies/a.md": reviewFile("title: id31\ndate: 2024-01-01\nyear: 2000"),
            "content/movies/b.md": reviewFile("title: id31!\ndate: 2024-01-02\nyear: 2000"),
            "content/movies/c.md": reviewFile("title: id31\ndate: 2024-01-03\nyear: 2000"),
        ]).load().reviews
        let fetcher = try FakeFetch.fetcher(fake, cache: cache.url)
        let (jobs, cached, warnings) = fetcher.jobs(for: reviews)
        #expect(cached == 0)
        #expect(jobs.map(\.lookup) == [.movieSearch(title: "id31", year: 2000)])
        #expect(jobs.map(\.sources) == [["content/movies/a.md", "content/movies/b.md", "content/movies/c.md"]])
        #expect(
            warnings.map(\.description) == [
                "content/movies/b.md:1:1: warning: film \"id31!\" (2000) is stored as "
                    + "metadata/movies/search-id31-2000.json, as film \"id31\" (2000) of content/movies/a.md is: "
                    + "both reviews get the entry found for the latter"
            ])
        let summary = await fetcher.run(jobs, cached: cached) { _ in }
        #expect(summary.failed.isEmpty, "\(summary.failed)")
        #expect(fake.requests.count == 2)
        let enricher = MetadataEnricher(cache: MetadataCache(folder: cache.url))
        #expect(reviews.map { enricher.attach($0).review.metadata?.title } == ["Film 31", "Film 31", "Film 31"])
    }
}

/// How many racing threads are done, and what failed, behind a lock.
private final class Done: Sendable {
    private let state = Mutex((count: 0, failures: [String]()))

    func one() { state.withLock { $0.count += 1 } }
    func fail(_ message: String) { state.withLock { $0.failures.append(message) } }
    var count: Int { state.withLock { $0.count } }
    var failures: [String] { state.withLock { $0.failures } }
}
