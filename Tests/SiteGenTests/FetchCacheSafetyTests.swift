import Foundation
import Mustache
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
                entry + #""year": 99999}"#, "1:1",
                "not a valid metadata file: \"year\" must be a year from -9999 to 9999 (there is no year 0), not 99999"
            ),
            (
                entry + #""images": [{"size": "w342", "file": "images/tmdb-7-w342.jpg", "width": 2, "height": 3}]}"#,
                "1:1", "the image images/tmdb-7-w342.jpg it names is missing: run sitegen fetch --refresh --only "
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
        let (jobs, cached) = fetcher.jobs(for: reviews)
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
        let built = try #require(MetadataEnricher(cache: MetadataCache(folder: cache.url)).attach(reviews[0]).problems.first)
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
}
