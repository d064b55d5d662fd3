import Foundation

@testable import SiteGen

/// Runs `MetadataFetcher` with the real HTTP client against ``FakeProviders``, with short
/// back-offs and time-outs, for the tests of what a fetch stores and says.
enum FakeFetch {
    static let tmdbKey = ["TMDB_API_KEY": "k3y"]

    /// The fetcher for `cache`, pointed at `fake`.
    static func fetcher(
        _ fake: FakeProviders, cache: URL, credentials: [String: String] = tmdbKey, refresh: Bool = false
    ) throws -> MetadataFetcher {
        let sources = try MetadataSources.defaults.applying(environment: fake.environment.merging(credentials) { $1 })
        let policy = RetryPolicy(attempts: 1, baseDelay: 0.01, maxDelay: 0.05, timeout: 5)
        return MetadataFetcher(
            cache: MetadataCache(folder: cache), sources: sources, language: .english, client: CurlHTTPClient(),
            options: .init(refresh: refresh, policy: policy))
    }

    /// Fetches `lookups` into `cache`, each as the job of one review `content/<key>.md`.
    static func run(
        _ fake: FakeProviders, cache: URL, _ lookups: [Lookup], credentials: [String: String] = tmdbKey,
        refresh: Bool = false
    ) async throws -> MetadataFetcher.Summary {
        let fetcher = try fetcher(fake, cache: cache, credentials: credentials, refresh: refresh)
        let jobs = lookups.map { MetadataFetcher.Job(lookup: $0, sources: ["content/\($0.key).md"]) }
        return await fetcher.run(jobs, cached: 0) { _ in }
    }
}
