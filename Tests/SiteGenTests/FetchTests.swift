import Foundation
import Synchronization
import Testing

@testable import SiteGen

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `MetadataFetcher` with the real URLSession client against ``FakeProviders`` on the
/// loopback interface: requests, decoding, retries, time-outs, the in-flight bound and
/// the cache.
@Suite("Fetching metadata")
struct FetchTests {
    // MARK: TMDB

    @Test("a film by TMDB id: one request with credits, the poster in two sizes, pretty-printed JSON")
    func tmdbByID() async throws {
        let fake = try FakeProviders()
        routeParasite(fake)
        let cache = try ScratchFolder()
        let summary = await run(fake, cache, [.tmdb(496243)], credentials: ["TMDB_API_KEY": "k3y"])

        #expect(summary.failed.isEmpty, "\(summary.failed.map(\.1))")
        #expect(
            fake.targets == [
                "/3/movie/496243?append_to_response=credits&language=en-US&api_key=k3y",
                "/t/p/w342/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg", "/t/p/w780/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg",
            ])
        #expect(fake.requests.allSatisfy { $0.method == "GET" && $0.headers["authorization"] == nil })
        #expect(fake.requests[0].headers["accept"] == "application/json")
        let images = [
            CachedImage(size: "w342", file: "images/tmdb-496243-w342.jpg", width: 342, height: 513),
            CachedImage(size: "w780", file: "images/tmdb-496243-w780.jpg", width: 780, height: 1170),
        ]
        let expected = WorkMetadata(
            kind: "movie", source: "tmdb", id: "496243", title: "Parasite", originalTitle: "기생충",
            overview: "All unemployed, Ki-taek's family takes peculiar interest in the wealthy and glamorous Parks.",
            releaseDate: "2019-05-30", year: 2019, genres: ["Comedy", "Thriller", "Drama"], directors: ["Bong Joon-ho"],
            cast: [
                CastMember(name: "Song Kang-ho", character: "Kim Ki-taek"),
                CastMember(name: "Lee Sun-kyun", character: "Park Dong-ik"),
                CastMember(name: "Cho Yeo-jeong", character: "Choi Yeon-kyo"),
                CastMember(name: "Choi Woo-shik", character: "Kim Ki-woo"),
                CastMember(name: "Park So-dam", character: "Kim Ki-jung"),
            ], runtime: 133, images: images)
        #expect(summary.fetched.map(\.1) == [expected])
        #expect(try MetadataCache(folder: cache.url).entry(for: .tmdb(496243)) == expected)
        let files = try cache.contents()
        #expect(
            files.keys.sorted() == [
                "images/tmdb-496243-w342.jpg", "images/tmdb-496243-w780.jpg", "movies/tmdb-496243.json",
            ])
        #expect(
            try Data(contentsOf: cache.url.appendingPathComponent("images/tmdb-496243-w342.jpg")) == Data(poster342))
        #expect(
            try Data(contentsOf: cache.url.appendingPathComponent("images/tmdb-496243-w780.jpg")) == Data(poster780))
        #expect(files["movies/tmdb-496243.json"] == parasiteJSON)
    }

    @Test("an access token goes in an Authorization header; an API key, when both are set, in the query")
    func tmdbCredentials() async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/7", .json(ProviderFixtures.film(id: 7)))
        let bearer = try ScratchFolder()
        let withToken = await run(fake, bearer, [.tmdb(7)], credentials: ["TMDB_ACCESS_TOKEN": "eyJhbGciOi.t0ken"])
        #expect(withToken.failed.isEmpty)
        let both = try ScratchFolder()
        let withBoth = await run(
            fake, both, [.tmdb(7)], credentials: ["TMDB_ACCESS_TOKEN": "eyJhbGciOi.t0ken", "TMDB_API_KEY": "k3y"])
        #expect(withBoth.failed.isEmpty)

        let requests = fake.requests
        #expect(
            requests.map(\.target) == [
                "/3/movie/7?append_to_response=credits&language=en-US",
                "/3/movie/7?append_to_response=credits&language=en-US&api_key=k3y",
            ])
        #expect(requests[0].headers["authorization"] == "Bearer eyJhbGciOi.t0ken")
        #expect(requests[1].headers["authorization"] == nil)
    }

    @Test("without TMDB credentials every film fails clearly and nothing is requested")
    func tmdbWithoutCredentials() async throws {
        let fake = try FakeProviders()
        let cache = try ScratchFolder()
        let summary = await run(fake, cache, [.tmdb(496243), .movieSearch(title: "Burning", year: 2018)])
        let message = "TMDB needs TMDB_API_KEY or TMDB_ACCESS_TOKEN in the environment"
        #expect(summary.failed.map(\.1) == [.missingCredentials(message), .missingCredentials(message)])
        #expect(summary.failed.map(\.1.description) == [message, message])
        #expect(summary.fetched.isEmpty)
        #expect(fake.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: cache.url.path))
    }

    @Test("a film by title and year: a search in the site's language, then the first result with credits")
    func tmdbSearch() async throws {
        let fake = try FakeProviders()
        fake.route("/3/search/movie", .json(ProviderFixtures.search(ids: [496243, 1])))
        routeParasite(fake)
        let cache = try ScratchFolder()
        let lookup = Lookup.movieSearch(title: "기생충 & Co + 1", year: 2019)
        let summary = await run(fake, cache, [lookup], language: .korean, credentials: ["TMDB_API_KEY": "k3y"])

        #expect(summary.failed.isEmpty, "\(summary.failed.map(\.1))")
        #expect(
            fake.targets == [
                "/3/search/movie?query=%EA%B8%B0%EC%83%9D%EC%B6%A9%20%26%20Co%20%2B%201&language=ko-KR&year=2019"
                    + "&api_key=k3y",
                "/3/movie/496243?append_to_response=credits&language=ko-KR&api_key=k3y",
                "/t/p/w342/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg", "/t/p/w780/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg",
            ])
        #expect(fake.requests[0].parameters["query"] == "기생충 & Co + 1")
        #expect(lookup.key == "search-기생충-co-1-2019")
        let stored = try #require(try MetadataCache(folder: cache.url).entry(for: lookup))
        #expect(stored.id == "496243")
        #expect(
            stored.images.map(\.file) == [
                "images/search-기생충-co-1-2019-w342.jpg", "images/search-기생충-co-1-2019-w780.jpg",
            ])
    }

    @Test("a search without results is not found, and not retried")
    func tmdbSearchWithoutResults() async throws {
        let fake = try FakeProviders()
        fake.route("/3/search/movie", .json(ProviderFixtures.search(ids: [])))
        let summary = await run(
            fake, try ScratchFolder(), [.movieSearch(title: "Nothing", year: 1901)],
            credentials: ["TMDB_API_KEY": "k3y"])
        #expect(summary.failed.map(\.1) == [.notFound("film \"Nothing\" (1901) on TMDB")])
        #expect(summary.failed.map(\.1.description) == ["not found: film \"Nothing\" (1901) on TMDB"])
        #expect(fake.requests.count == 1)
    }

    @Test(
        "TMDB's gaps: a null poster, an empty release date, runtime 0 or null",
        arguments: ["0", "null"])
    func tmdbSparse(runtime: String) async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/1189", .json(ProviderFixtures.sparseFilm(id: 1189, runtime: runtime)))
        let cache = try ScratchFolder()
        let summary = await run(fake, cache, [.tmdb(1189)], credentials: ["TMDB_API_KEY": "k3y"])
        let expected = WorkMetadata(kind: "movie", source: "tmdb", id: "1189", title: "Untitled 1189")
        #expect(summary.fetched.map(\.1) == [expected])
        #expect(fake.requests.count == 1)
        #expect(try cache.contents().keys.sorted() == ["movies/tmdb-1189.json"])
        #expect(
            try cache.contents()["movies/tmdb-1189.json"] == """
                {
                  "authors" : [

                  ],
                  "cast" : [

                  ],
                  "directors" : [

                  ],
                  "genres" : [

                  ],
                  "id" : "1189",
                  "images" : [

                  ],
                  "kind" : "movie",
                  "source" : "tmdb",
                  "title" : "Untitled 1189"
                }

                """)
    }

    // MARK: Books

    @Test("a book on Naver: both client headers, the 13-digit ISBN of two, pubdate as a date, markup stripped")
    func naverByISBN() async throws {
        let fake = try FakeProviders()
        fake.route(
            "/v1/search/book_adv.json",
            .json(ProviderFixtures.naverAlmond(imageURL: fake.url + ProviderFixtures.naverCoverPath)))
        fake.route(ProviderFixtures.naverCoverPath, .bytes(cover120, contentType: "image/jpeg"))
        let cache = try ScratchFolder()
        let summary = await run(
            fake, cache, [.isbn("9788936433598")],
            credentials: ["NAVER_CLIENT_ID": "naver-id", "NAVER_CLIENT_SECRET": "naver-secret"])

        #expect(summary.failed.isEmpty, "\(summary.failed.map(\.1))")
        #expect(
            fake.targets == ["/v1/search/book_adv.json?d_isbn=9788936433598", ProviderFixtures.naverCoverPath])
        #expect(fake.requests[0].headers["x-naver-client-id"] == "naver-id")
        #expect(fake.requests[0].headers["x-naver-client-secret"] == "naver-secret")
        let expected = WorkMetadata(
            kind: "book", source: "naver", id: "9788936433598", title: "아몬드 (양장)",
            overview: "감정을 느끼지 못하는 소년 & 그의 \"괴물\" 친구. 두 소년의 성장.", releaseDate: "2017-03-31", year: 2017,
            authors: ["손원평", "김 지은"], publisher: "창비 & 친구들", isbn: "9788936433598",
            images: [
                CachedImage(size: "naver", file: "images/isbn-9788936433598-naver.jpg", width: 120, height: 174)
            ])
        #expect(summary.fetched.map(\.1) == [expected])
        #expect(try MetadataCache(folder: cache.url).entry(for: .isbn("9788936433598")) == expected)
        #expect(
            try Data(contentsOf: cache.url.appendingPathComponent("images/isbn-9788936433598-naver.jpg"))
                == Data(cover120))
    }

    @Test("a book search on Naver sends title and author as one query")
    func naverSearch() async throws {
        let fake = try FakeProviders()
        fake.route("/v1/search/book.json", .json(ProviderFixtures.naverAlmond(imageURL: "")))
        let summary = await run(
            fake, try ScratchFolder(), [.bookSearch(title: "아몬드", author: "손원평")],
            credentials: ["NAVER_CLIENT_ID": "naver-id", "NAVER_CLIENT_SECRET": "naver-secret"])
        #expect(summary.failed.isEmpty, "\(summary.failed.map(\.1))")
        #expect(
            fake.targets == [
                "/v1/search/book.json?query=%EC%95%84%EB%AA%AC%EB%93%9C%20%EC%86%90%EC%9B%90%ED%8F%89&display=5"
            ])
        #expect(fake.requests[0].parameters["query"] == "아몬드 손원평")
        #expect(summary.fetched.map(\.1.images) == [[]])
    }

    @Test("a book on Open Library: the ISBN redirect, work and author, the description object, the cover")
    func openLibraryByISBN() async throws {
        let fake = try FakeProviders()
        fake.route("/isbn/9781590171998.json", .redirect("/books/OL7928212M.json"))
        fake.route("/books/OL7928212M.json", .json(ProviderFixtures.stonerEdition))
        fake.route("/works/OL8000980W.json", .json(ProviderFixtures.stonerWork))
        fake.route("/authors/OL2625389A.json", .json(ProviderFixtures.johnWilliams))
        fake.route("/covers/b/id/8231856-M.jpg", .bytes(coverM, contentType: "image/jpeg"))
        fake.route("/covers/b/id/8231856-L.jpg", .bytes(coverL, contentType: "image/jpeg"))
        let cache = try ScratchFolder()
        // One Naver credential is not enough to use Naver.
        let summary = await run(fake, cache, [.isbn("9781590171998")], credentials: ["NAVER_CLIENT_ID": "naver-id"])

        #expect(summary.failed.isEmpty, "\(summary.failed.map(\.1))")
        #expect(
            fake.targets == [
                "/isbn/9781590171998.json", "/books/OL7928212M.json", "/works/OL8000980W.json",
                "/authors/OL2625389A.json", "/covers/b/id/8231856-M.jpg", "/covers/b/id/8231856-L.jpg",
            ])
        #expect(fake.requests.allSatisfy { $0.headers["x-naver-client-id"] == nil })
        let expected = WorkMetadata(
            kind: "book", source: "openlibrary", id: "9781590171998", title: "Stoner",
            overview: "William Stoner is born at the end of the nineteenth century.", releaseDate: "2006-03-01",
            year: 2006, genres: ["Fiction", "College teachers", "Campus life"], authors: ["John Williams"], pages: 278,
            publisher: "NYRB Classics", isbn: "9781590171998",
            images: [
                CachedImage(size: "M", file: "images/isbn-9781590171998-M.jpg", width: 180, height: 278),
                CachedImage(size: "L", file: "images/isbn-9781590171998-L.jpg", width: 400, height: 617),
            ])
        #expect(summary.fetched.map(\.1) == [expected])
        #expect(try MetadataCache(folder: cache.url).entry(for: .isbn("9781590171998")) == expected)
    }

    @Test("a book search on Open Library: title, limit and author, then the work's plain-string description")
    func openLibrarySearch() async throws {
        let fake = try FakeProviders()
        fake.route("/search.json", .json(ProviderFixtures.stonerSearch))
        fake.route("/works/OL8000980W.json", .json(ProviderFixtures.stonerWorkPlain))
        fake.route("/covers/b/id/8231856-M.jpg", .bytes(coverM, contentType: "image/jpeg"))
        fake.route("/covers/b/id/8231856-L.jpg", .bytes(coverL, contentType: "image/jpeg"))
        let summary = await run(fake, try ScratchFolder(), [.bookSearch(title: "Stoner", author: "John Williams")])

        #expect(summary.failed.isEmpty, "\(summary.failed.map(\.1))")
        #expect(
            fake.targets == [
                "/search.json?title=Stoner&limit=5&author=John%20Williams", "/works/OL8000980W.json",
                "/covers/b/id/8231856-M.jpg", "/covers/b/id/8231856-L.jpg",
            ])
        let expected = WorkMetadata(
            kind: "book", source: "openlibrary", id: "OL8000980W", title: "Stoner",
            overview: "A quiet life at a university.", releaseDate: "1965", year: 1965, authors: ["John Williams"],
            pages: 288, publisher: "Viking Press", isbn: "9781590171998",
            images: [
                CachedImage(size: "M", file: "images/book-search-stoner-john-williams-M.jpg", width: 180, height: 278),
                CachedImage(size: "L", file: "images/book-search-stoner-john-williams-L.jpg", width: 400, height: 617),
            ])
        #expect(summary.fetched.map(\.1) == [expected])
    }

    // MARK: Retries and time-outs

    @Test("429 with Retry-After: waits that long, then retries and succeeds")
    func retryAfter() async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/7", .status(429, retryAfter: "1"), .json(ProviderFixtures.film(id: 7)))
        let clock = ContinuousClock()
        let start = clock.now
        let summary = await run(fake, try ScratchFolder(), [.tmdb(7)], credentials: ["TMDB_API_KEY": "k3y"])
        let elapsed = clock.now - start
        #expect(summary.failed.isEmpty, "\(summary.failed.map(\.1))")
        #expect(summary.fetched.map(\.1.title) == ["Film 7"])
        #expect(fake.requests.map(\.path) == ["/3/movie/7", "/3/movie/7"])
        #expect(elapsed >= .milliseconds(950), "\(elapsed)")
    }

    /// Capped at 0.2 s: the 120 s asked for would outlast the time limit.
    @Test("a Retry-After longer than the policy allows is capped", .timeLimit(.minutes(1)))
    func retryAfterCapped() async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/7", .status(429, retryAfter: "120"), .json(ProviderFixtures.film(id: 7)))
        let clock = ContinuousClock()
        let start = clock.now
        var policy = fastPolicy
        policy.maxRetryAfter = 0.2
        let summary = await run(
            fake, try ScratchFolder(), [.tmdb(7)], credentials: ["TMDB_API_KEY": "k3y"], policy: policy)
        let elapsed = clock.now - start
        #expect(summary.failed.isEmpty, "\(summary.failed.map(\.1))")
        #expect(fake.requests.count == 2)
        #expect(elapsed >= .milliseconds(190), "\(elapsed)")
    }

    @Test("500 twice, then an answer: three tries and success")
    func serverErrorsThenSuccess() async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/7", .status(500), .status(503), .json(ProviderFixtures.film(id: 7)))
        let summary = await run(fake, try ScratchFolder(), [.tmdb(7)], credentials: ["TMDB_API_KEY": "k3y"])
        #expect(summary.failed.isEmpty, "\(summary.failed.map(\.1))")
        #expect(summary.fetched.map(\.1.title) == ["Film 7"])
        #expect(fake.requests.count == 3)
    }

    @Test("500 on every try fails with the status and the URL, without the API key")
    func serverErrorsExhausted() async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/7", .status(500))
        let cache = try ScratchFolder()
        let summary = await run(fake, cache, [.tmdb(7)], credentials: ["TMDB_API_KEY": "k3y"])
        let url = "\(fake.url)/3/movie/7?append_to_response=credits&language=en-US"
        #expect(summary.failed.map(\.1) == [.http(status: 500, url: url)])
        #expect(summary.failed.map(\.1.description) == ["HTTP 500 from \(url)"])
        #expect(summary.failed.map(\.0.lookup) == [.tmdb(7)])
        #expect(fake.requests.count == 3)
        #expect(!FileManager.default.fileExists(atPath: cache.url.path))
    }

    @Test("--tries 1 means one request, no retry")
    func singleTry() async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/7", .status(502), .json(ProviderFixtures.film(id: 7)))
        var policy = fastPolicy
        policy.attempts = 1
        let summary = await run(
            fake, try ScratchFolder(), [.tmdb(7)], credentials: ["TMDB_API_KEY": "k3y"], policy: policy)
        #expect(
            summary.failed.map(\.1.description) == [
                "HTTP 502 from \(fake.url)/3/movie/7?append_to_response=credits&language=en-US"
            ])
        #expect(fake.requests.count == 1)
    }

    @Test("a slow response times out, is retried, and fails as a time-out")
    func stalled() async throws {
        let fake = try FakeProviders()
        // It answers after 5 s, longer than the policy's time-out.
        fake.route("/3/movie/7", .delayed(5, .json(ProviderFixtures.film(id: 7))))
        var policy = fastPolicy
        policy.attempts = 2
        let clock = ContinuousClock()
        let start = clock.now
        let summary = await run(
            fake, try ScratchFolder(), [.tmdb(7)], credentials: ["TMDB_API_KEY": "k3y"], policy: policy)
        let elapsed = clock.now - start
        let url = "\(fake.url)/3/movie/7?append_to_response=credits&language=en-US"
        #expect(summary.failed.map(\.1) == [.timedOut(url: url)])
        #expect(summary.failed.map(\.1.description) == ["timed out: \(url)"])
        #expect(fake.requests.count == 2)
        #expect(elapsed >= .milliseconds(1900), "\(elapsed)")
    }

    @Test("a time-out under a second waits that long instead of failing at once")
    func fractionalTimeout() async throws {
        let fake = try FakeProviders()
        // 0.85 s to spare: on a loaded 2-core machine an answer 0.2 s late against a 0.6 s
        // time-out was once late enough to be asked again.
        fake.route("/3/movie/7", .delayed(0.1, .json(ProviderFixtures.film(id: 7))))
        var policy = fastPolicy
        policy.timeout = 0.95
        let summary = await run(
            fake, try ScratchFolder(), [.tmdb(7)], credentials: ["TMDB_API_KEY": "k3y"], policy: policy)
        #expect(summary.failed.isEmpty, "\(summary.failed.map(\.1))")
        #expect(fake.requests.count == 1)
    }

    @Test("a slow answer within the time-out is no failure")
    func slowAnswer() async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/7", .delayed(0.3, .json(ProviderFixtures.film(id: 7))))
        // 2.7 s to spare: with the whole suite running on a loaded 2-core machine, this 0.3 s
        // answer once came more than 1 s late and was asked again.
        var policy = fastPolicy
        policy.timeout = 3
        let summary = await run(
            fake, try ScratchFolder(), [.tmdb(7)], credentials: ["TMDB_API_KEY": "k3y"], policy: policy)
        #expect(summary.failed.isEmpty, "\(summary.failed.map(\.1))")
        #expect(fake.requests.count == 1)
    }

    @Test("malformed JSON fails at once, without retries, and leaves the cached entry as it was")
    func malformed() async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/7", .malformed)
        let cache = try ScratchFolder()
        try cache.write("movies/tmdb-7.json", oldEntry)
        let summary = await run(
            fake, cache, [.tmdb(7)], credentials: ["TMDB_API_KEY": "k3y"], refresh: true)
        let url = "\(fake.url)/3/movie/7?append_to_response=credits&language=en-US"
        #expect(summary.failed.map(\.1) == [.malformed("\(url): not valid JSON")])
        #expect(summary.failed.map(\.1.description) == ["unexpected response: \(url): not valid JSON"])
        #expect(fake.requests.count == 1)
        #expect(try cache.contents() == ["movies/tmdb-7.json": oldEntry])
    }

    @Test("JSON of the wrong shape names the field")
    func wrongShape() async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/7", .json(#"{"id": "seven", "title": "Film"}"#))
        let summary = await run(fake, try ScratchFolder(), [.tmdb(7)], credentials: ["TMDB_API_KEY": "k3y"])
        let url = "\(fake.url)/3/movie/7?append_to_response=credits&language=en-US"
        #expect(
            summary.failed.map(\.1)
                == [.malformed("\(url): id: Expected to decode Int but found a string instead.")])
        #expect(fake.requests.count == 1)
    }

    @Test("404 is not found at once, without retries")
    func notFound() async throws {
        let fake = try FakeProviders()
        let summary = await run(fake, try ScratchFolder(), [.isbn("9780000000002")])
        #expect(summary.failed.map(\.1) == [.notFound("\(fake.url)/isbn/9780000000002.json")])
        #expect(fake.requests.count == 1)
    }

    @Test("no server at all is a network error for that entry, after the tries")
    func noServer() async throws {
        let nowhere = "http://127.0.0.1:9"  // the discard port: nothing listens there
        let cache = try ScratchFolder()
        var sources = MetadataSources.defaults
        sources.openLibraryAPI = URL(string: nowhere)!
        let fetcher = MetadataFetcher(
            cache: MetadataCache(folder: cache.url), sources: sources, language: .english,
            client: CurlHTTPClient(), options: .init(policy: fastPolicy))
        let summary = await fetcher.run(
            [MetadataFetcher.Job(lookup: .isbn("9781590171998"), sources: ["content/books/stoner.md"])], cached: 0
        ) { _ in }
        let error = try #require(summary.failed.first?.1)
        guard case .network(let message) = error else {
            Issue.record("expected a network error, not \(error)")
            return
        }
        #expect(message.hasSuffix("(\(nowhere)/isbn/9781590171998.json)"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: cache.url.path))
    }

    // MARK: The cache

    @Test("a refresh that fails leaves the cached JSON and images byte for byte as they were")
    func failedRefreshKeepsCache() async throws {
        let fake = try FakeProviders()
        routeParasite(fake)
        let cache = try ScratchFolder()
        let first = await run(fake, cache, [.tmdb(496243)], credentials: ["TMDB_API_KEY": "k3y"])
        #expect(first.failed.isEmpty)
        let before = try cache.contents()
        let identities = try before.keys.sorted().map { try cache.identity(of: $0) }
        #expect(before.count == 3)

        // The film fails outright.
        fake.route("/3/movie/496243", .status(500))
        let failed = await run(fake, cache, [.tmdb(496243)], credentials: ["TMDB_API_KEY": "k3y"], refresh: true)
        #expect(failed.failed.count == 1)
        #expect(try cache.contents() == before)

        // The film arrives changed, but its second poster size does not.
        fake.route("/3/movie/496243", .json(ProviderFixtures.parasite.replacingOccurrences(of: "133", with: "132")))
        fake.route("/t/p/w342/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg", .bytes(poster780, contentType: "image/jpeg"))
        fake.route("/t/p/w780/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg", .status(503))
        let halfway = await run(fake, cache, [.tmdb(496243)], credentials: ["TMDB_API_KEY": "k3y"], refresh: true)
        #expect(
            halfway.failed.map(\.1) == [.http(status: 503, url: "\(fake.url)/t/p/w780/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg")]
        )
        #expect(try cache.contents() == before)
        #expect(try before.keys.sorted().map { try cache.identity(of: $0) } == identities)
        #expect(
            try cache.entries() == [
                "images", "images/tmdb-496243-w342.jpg", "images/tmdb-496243-w780.jpg", "movies",
                "movies/tmdb-496243.json",
            ])
    }

    @Test("control characters in an answer (a terminal's escape sequence in a title) are neither stored nor handed on")
    func controlCharactersInAnswers() async throws {
        let fake = try FakeProviders()
        routeParasite(fake)
        fake.route(
            "/3/movie/496243",
            .json(
                ProviderFixtures.parasite.replacingOccurrences(
                    of: #""title": "Parasite""#, with: #""title": "Para\u001b]0;pwned\u0007site\u0000""#)))
        let cache = try ScratchFolder()
        let summary = await run(fake, cache, [.tmdb(496243)], credentials: ["TMDB_API_KEY": "k3y"])
        #expect(summary.fetched.map(\.1.title) == ["Para]0;pwnedsite"])
        let stored = try #require(try cache.contents()["movies/tmdb-496243.json"])
        #expect(stored.contains(#""title" : "Para]0;pwnedsite""#), "\(stored)")
    }

    @Test("an answer that drips, one too large, or a poster that is no image fails in time; the cache stays as it was")
    func hostileAnswers() async throws {
        let fake = try FakeProviders()
        routeParasite(fake)
        let cache = try ScratchFolder()
        #expect(await run(fake, cache, [.tmdb(496243)], credentials: ["TMDB_API_KEY": "k3y"]).failed.isEmpty)
        let before = try cache.contents()
        let poster = "\(fake.url)/t/p/w780/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg"
        var policy = fastPolicy
        policy.attempts = 1
        let answers: [(FakeProviders.Answer, MetadataError)] = [
            // A byte every tenth of a second for 30 s: URLSession alone waited all of it.
            (.drip(seconds: 30), .timedOut(url: poster)),
            (
                .stream(bytes: 3 << 20),
                .malformed("the answer from \(poster) is larger than 2 MB, the most sitegen takes")
            ),
            (
                .bytes(Array("<html><script>alert(1)</script></html>".utf8), contentType: "image/jpeg"),
                .malformed(
                    "not a JPEG, PNG, GIF or WebP image of at most 65535 pixels a side and 50 million pixels: \(poster)"
                )
            ),
            (
                // A header claiming 30,000 × 30,000 pixels, and nothing after it.
                .bytes(
                    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
                        + [0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30, 8, 2, 0, 0, 0, 0, 0, 0, 0], contentType: "image/jpeg"),
                .malformed(
                    "not a JPEG, PNG, GIF or WebP image of at most 65535 pixels a side and 50 million pixels: \(poster)"
                )
            ),
            (
                // A good header and the first bytes of the picture only: cut short.
                .bytes(Array(ProviderFixtures.jpeg(width: 780, height: 1170).prefix(600)), contentType: "image/jpeg"),
                .malformed("the image is damaged or cut short, it cannot be decoded: \(poster)")
            ),
        ]
        for (answer, error) in answers {
            fake.route("/t/p/w780/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg", answer)
            let started = Date()
            let summary = await run(
                fake, cache, [.tmdb(496243)], credentials: ["TMDB_API_KEY": "k3y"], policy: policy, refresh: true,
                clientLimit: 2 << 20)
            #expect(summary.failed.map(\.1) == [error])
            #expect(Date().timeIntervalSince(started) < 10, "\(error)")
            #expect(try cache.contents() == before, "\(error)")
        }
        // An answer of JSON too large is named by its URL without the credential.
        fake.route("/3/movie/496243", .stream(bytes: 3 << 20))
        let summary = await run(
            fake, cache, [.tmdb(496243)], credentials: ["TMDB_API_KEY": "k3y"], policy: policy, refresh: true,
            clientLimit: 2 << 20)
        let message = "\(summary.failed.map(\.1))"
        #expect(message.contains("/3/movie/496243") && message.contains("is larger than 2 MB"), "\(message)")
        #expect(!message.contains("k3y"), "\(message)")
        #expect(try cache.contents() == before)
    }

    @Test("a refresh that succeeds replaces the entry and removes images it no longer names")
    func refreshReplaces() async throws {
        let fake = try FakeProviders()
        routeParasite(fake)
        let cache = try ScratchFolder()
        _ = await run(fake, cache, [.tmdb(496243)], credentials: ["TMDB_API_KEY": "k3y"])
        fake.route(
            "/3/movie/496243",
            .json(
                ProviderFixtures.parasite.replacingOccurrences(of: "\"/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg\"", with: "null")
            ))
        let summary = await run(fake, cache, [.tmdb(496243)], credentials: ["TMDB_API_KEY": "k3y"], refresh: true)
        #expect(summary.failed.isEmpty)
        #expect(try cache.entries() == ["images", "movies", "movies/tmdb-496243.json"])
        #expect(try MetadataCache(folder: cache.url).entry(for: .tmdb(496243))?.images == [])
    }

    @Test("jobs: one per film or book, cached ones left out unless refreshing, --only by path")
    func jobs() throws {
        let cache = try ScratchFolder()
        try cache.write("movies/tmdb-496243.json", oldEntry)
        let reviews = try InMemorySite([
            "content/movies/parasite.md": reviewFile("title: Parasite\ndate: 2024-01-01\ntmdb: 496243"),
            "content/movies/parasite-again.md": reviewFile("title: Parasite\ndate: 2025-01-01\ntmdb: 496243"),
            "content/movies/burning.md": reviewFile("title: Burning\ndate: 2024-02-01\nyear: 2018"),
            "content/movies/notes.md": reviewFile("title: Notes\ndate: 2024-03-01"),
            "content/books/stoner.md": reviewFile("title: Stoner\ndate: 2024-04-01\nisbn: 978-1-59017-199-8"),
            "content/books/almond.md": reviewFile("title: 아몬드\ndate: 2024-05-01\nauthor: 손원평"),
        ]).load().reviews
        let fetcher = { (options: MetadataFetcher.Options) in
            MetadataFetcher(
                cache: MetadataCache(folder: cache.url), sources: .defaults, language: .english,
                client: CurlHTTPClient(), options: options)
        }
        let describe = { (result: (jobs: [MetadataFetcher.Job], cached: Int, warnings: [Diagnostic])) in
            (result.jobs.map { "\($0.lookup.path) <- \($0.sources.joined(separator: ", "))" }, result.cached)
        }

        let all = describe(fetcher(.init()).jobs(for: reviews))
        #expect(
            all.0.sorted() == [
                "books/isbn-9781590171998.json <- content/books/stoner.md",
                "books/search-아몬드-손원평.json <- content/books/almond.md",
                "movies/search-burning-2018.json <- content/movies/burning.md",
            ])
        #expect(all.1 == 1)

        let refreshing = describe(fetcher(.init(refresh: true)).jobs(for: reviews))
        #expect(refreshing.0.count == 4)
        let parasite = try #require(
            fetcher(.init(refresh: true)).jobs(for: reviews).jobs.first { $0.lookup == .tmdb(496243) })
        #expect(parasite.sources.sorted() == ["content/movies/parasite-again.md", "content/movies/parasite.md"])
        #expect(refreshing.1 == 0)

        let books = describe(fetcher(.init(only: ["content/books/"])).jobs(for: reviews))
        #expect(
            books.0.sorted() == [
                "books/isbn-9781590171998.json <- content/books/stoner.md",
                "books/search-아몬드-손원평.json <- content/books/almond.md",
            ])
        let one = describe(
            fetcher(.init(only: ["content/books/stoner.md", "content/movies/burning.md"])).jobs(for: reviews))
        #expect(
            one.0.sorted() == [
                "books/isbn-9781590171998.json <- content/books/stoner.md",
                "movies/search-burning-2018.json <- content/movies/burning.md",
            ])
        #expect(describe(fetcher(.init(only: ["content/book"])).jobs(for: reviews)).0.isEmpty)
    }

    @Test("cached entries are skipped without a single request")
    func cachedSkipped() async throws {
        let fake = try FakeProviders()
        let cache = try ScratchFolder()
        try cache.write("movies/tmdb-7.json", oldEntry)
        let reviews = try InMemorySite([
            "content/movies/seven.md": reviewFile("title: Seven\ndate: 2024-01-01\ntmdb: 7")
        ]).load().reviews
        let fetcher = MetadataFetcher(
            cache: MetadataCache(folder: cache.url),
            sources: try MetadataSources.defaults.applying(
                environment: fake.environment.merging(["TMDB_API_KEY": "k"]) { $1 }),
            language: .english, client: CurlHTTPClient(), options: .init(policy: fastPolicy))
        let (jobs, cached, _) = fetcher.jobs(for: reviews)
        #expect(jobs.isEmpty)
        #expect(cached == 1)
        let summary = await fetcher.run(jobs, cached: cached) { _ in }
        #expect(summary.total == 1)
        #expect(summary.cached == 1)
        #expect(summary.fetched.isEmpty && summary.failed.isEmpty)
        #expect(fake.requests.isEmpty)
        #expect(try cache.contents() == ["movies/tmdb-7.json": oldEntry])
    }

    // MARK: Concurrency

    @Test("no more requests in flight than the bound, and more than one at a time")
    func inFlightBound() async throws {
        let fake = try FakeProviders(delay: 0.05)
        for id in 1...20 { fake.route("/3/movie/\(id)", .json(ProviderFixtures.film(id: id))) }
        let events = EventLog()
        let summary = await run(
            fake, try ScratchFolder(), (1...20).map { .tmdb($0) }, credentials: ["TMDB_API_KEY": "k3y"],
            maxInFlight: 3, events: events)
        #expect(summary.failed.isEmpty)
        #expect(summary.fetched.count == 20)
        #expect(summary.total == 20)
        #expect(fake.requests.count == 20)
        #expect(fake.maxInFlight <= 3)
        #expect(fake.maxInFlight > 1)
        #expect(events.count(of: "started") == 20)
        #expect(events.count(of: "fetched") == 20)
        // Sorted by cache key.
        #expect(summary.fetched.map(\.0.lookup.key) == (1...20).map { "tmdb-\($0)" }.sorted())
    }

    @Test("the defaults: 3 tries, 15 s per request, 8 in flight")
    func defaults() {
        let options = MetadataFetcher.Options()
        #expect(options.policy.attempts == 3)
        #expect(options.policy.timeout == 15)
        #expect(options.maxInFlight == 8)
        #expect(!options.refresh)
        #expect(options.only.isEmpty)
    }

    // MARK: Sources

    @Test("base URLs come from the environment, each checked")
    func environmentOverrides() throws {
        let sources = try MetadataSources.defaults.applying(environment: [
            "SITEGEN_TMDB_API": "http://127.0.0.1:9/tmdb/3", "SITEGEN_TMDB_IMAGES": "http://127.0.0.1:9/img",
            "SITEGEN_NAVER_API": "http://127.0.0.1:9/naver", "SITEGEN_OPENLIBRARY_API": "https://ol.test",
            "SITEGEN_OPENLIBRARY_COVERS": "", "TMDB_API_KEY": "", "NAVER_CLIENT_ID": "id", "NAVER_CLIENT_SECRET": "s",
        ])
        #expect(sources.tmdbAPI.absoluteString == "http://127.0.0.1:9/tmdb/3")
        #expect(sources.tmdbImages.absoluteString == "http://127.0.0.1:9/img")
        #expect(sources.naverAPI.absoluteString == "http://127.0.0.1:9/naver")
        #expect(sources.openLibraryAPI.absoluteString == "https://ol.test")
        #expect(sources.openLibraryCovers.absoluteString == "https://covers.openlibrary.org")
        #expect(sources.tmdbAPIKey == nil)
        #expect(sources.usesNaver)
        #expect(
            throws: MetadataError.badConfiguration("SITEGEN_NAVER_API must be an http or https URL, not \"ftp://x\"")
        ) {
            try MetadataSources.defaults.applying(environment: ["SITEGEN_NAVER_API": "ftp://x"])
        }
    }
}

// MARK: - Helpers

private extension FetchTests {
    /// Short back-offs and time-outs, so failures are quick.
    var fastPolicy: RetryPolicy { RetryPolicy(attempts: 3, baseDelay: 0.01, maxDelay: 0.05, timeout: 1) }

    /// Runs a fetcher with the real HTTP client, pointed at `fake`, for `lookups`.
    func run(
        _ fake: FakeProviders, _ cache: borrowing ScratchFolder, _ lookups: [Lookup], language: SiteLanguage = .english,
        credentials: [String: String] = [:], policy: RetryPolicy? = nil, refresh: Bool = false, maxInFlight: Int = 8,
        events: EventLog? = nil, clientLimit: Int = CurlHTTPClient.defaultLimit
    ) async -> MetadataFetcher.Summary {
        let sources: MetadataSources
        do {
            sources = try MetadataSources.defaults.applying(
                environment: fake.environment.merging(credentials) { $1 })
        } catch {
            Issue.record("\(error)")
            return MetadataFetcher.Summary()
        }
        let fetcher = MetadataFetcher(
            cache: MetadataCache(folder: cache.url), sources: sources, language: language,
            client: CurlHTTPClient(limit: clientLimit),
            options: .init(refresh: refresh, policy: policy ?? fastPolicy, maxInFlight: maxInFlight))
        let jobs = lookups.map { MetadataFetcher.Job(lookup: $0, sources: ["content/\($0.key).md"]) }
        return await fetcher.run(jobs, cached: 0) { events?.record($0) }
    }

    /// Parasite on the fake TMDB: its entry and its poster in both sizes.
    func routeParasite(_ fake: FakeProviders) {
        fake.route("/3/movie/496243", .json(ProviderFixtures.parasite))
        fake.route("/t/p/w342/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg", .bytes(poster342, contentType: "image/jpeg"))
        fake.route("/t/p/w780/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg", .bytes(poster780, contentType: "image/jpeg"))
    }

    var poster342: [UInt8] { ProviderFixtures.jpeg(width: 342, height: 513) }
    var poster780: [UInt8] { ProviderFixtures.jpeg(width: 780, height: 1170) }
    var cover120: [UInt8] { ProviderFixtures.jpeg(width: 120, height: 174) }
    var coverM: [UInt8] { ProviderFixtures.jpeg(width: 180, height: 278) }
    var coverL: [UInt8] { ProviderFixtures.jpeg(width: 400, height: 617) }

    /// A cache entry written by hand, as an earlier fetch would have.
    var oldEntry: String {
        #"{"kind": "movie", "source": "tmdb", "id": "7", "title": "Old Title", "year": 1999}"# + "\n"
    }

    /// The cache file `tmdbByID` writes.
    var parasiteJSON: String {
        """
        {
          "authors" : [

          ],
          "cast" : [
            {
              "character" : "Kim Ki-taek",
              "name" : "Song Kang-ho"
            },
            {
              "character" : "Park Dong-ik",
              "name" : "Lee Sun-kyun"
            },
            {
              "character" : "Choi Yeon-kyo",
              "name" : "Cho Yeo-jeong"
            },
            {
              "character" : "Kim Ki-woo",
              "name" : "Choi Woo-shik"
            },
            {
              "character" : "Kim Ki-jung",
              "name" : "Park So-dam"
            }
          ],
          "directors" : [
            "Bong Joon-ho"
          ],
          "genres" : [
            "Comedy",
            "Thriller",
            "Drama"
          ],
          "id" : "496243",
          "images" : [
            {
              "file" : "images/tmdb-496243-w342.jpg",
              "height" : 513,
              "size" : "w342",
              "width" : 342
            },
            {
              "file" : "images/tmdb-496243-w780.jpg",
              "height" : 1170,
              "size" : "w780",
              "width" : 780
            }
          ],
          "kind" : "movie",
          "original_title" : "기생충",
          "overview" : "All unemployed, Ki-taek's family takes peculiar interest in the wealthy and glamorous Parks.",
          "release_date" : "2019-05-30",
          "runtime" : 133,
          "source" : "tmdb",
          "title" : "Parasite",
          "year" : 2019
        }

        """
    }
}

/// The events a run reported, by kind.
private final class EventLog: Sendable {
    private let kinds = Mutex<[String]>([])

    func record(_ event: MetadataFetcher.Event) {
        let kind =
            switch event {
            case .started: "started"
            case .fetched: "fetched"
            case .failed: "failed"
            }
        kinds.withLock { $0.append(kind) }
    }

    func count(of kind: String) -> Int { kinds.withLock { $0.filter { $0 == kind }.count } }
}
