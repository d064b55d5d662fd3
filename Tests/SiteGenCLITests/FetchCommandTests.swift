import Foundation
import SiteGenCLI
import Testing

/// `sitegen fetch` end to end through `SiteGenTool.run`, with the environment pointing
/// every provider at ``FakeProviders`` on the loopback interface, and `sitegen build`
/// afterwards reading the cache it left.
@Suite("sitegen fetch")
struct FetchCommandTests {
    @Test("fetch fills the cache; build then shows the overview, details, poster, genres and metadata years")
    func fetchThenBuild() async throws {
        let fake = try FakeProviders()
        routeSite(fake)
        let site = try TemporaryFolder(fetchSite)
        let fetch = TestConsole()
        #expect(await fetch.run(["fetch"], in: site.url, variables: environment(fake)) == 0)
        #expect(fetch.err == "")
        #expect(
            lines(fetch.out) == [
                "Fetched 3, 0 already cached, 0 failed.",
                "Fetching 3 of 3 films and books (0 already cached).",
                "fetched content/books/stoner.md: ISBN 9781590171998 “Stoner”",
                "fetched content/movies/burning.md: film \"Burning\" (2018) “Film 491584”",
                "fetched content/movies/parasite-again.md, content/movies/parasite.md: TMDB 496243 “Parasite”",
            ])
        #expect(fetch.out.hasPrefix("Fetching 3 of 3 films and books (0 already cached).\n"))
        #expect(fetch.out.hasSuffix("Fetched 3, 0 already cached, 0 failed.\n"))
        #expect(
            try files(in: site.url.appendingPathComponent("metadata")).keys.sorted() == [
                "books/isbn-9781590171998.json", "images/isbn-9781590171998-L.jpg", "images/isbn-9781590171998-M.jpg",
                "images/tmdb-496243-w342.jpg", "images/tmdb-496243-w780.jpg", "movies/search-burning-2018.json",
                "movies/tmdb-496243.json",
            ])
        #expect(Set(fake.requests.map(\.path)).count == fake.requests.count, "each URL once: \(fake.targets)")

        let build = TestConsole()
        #expect(await build.run(["build"], in: site.url) == 0)
        #expect(build.err == "")
        let output = try files(in: site.url.appendingPathComponent("public"))
        #expect(output["images/tmdb-496243-w342.jpg"] == Data(poster342))
        #expect(output["images/tmdb-496243-w780.jpg"] == Data(poster780))
        #expect(output["images/isbn-9781590171998-M.jpg"] == Data(coverM))
        #expect(output["images/isbn-9781590171998-L.jpg"] == Data(coverL))
        #expect(
            output.keys.filter { $0.hasPrefix("genres/") }.sorted() == [
                "genres/campus-life/index.html", "genres/college-teachers/index.html", "genres/comedy/index.html",
                "genres/drama/index.html", "genres/fiction/index.html", "genres/index.html",
                "genres/thriller/index.html",
            ])
        let parasite = try joined(text(output, "movies/parasite/index.html"))
        for snippet in [
            #"<img src="/images/tmdb-496243-w342.jpg" srcset="/images/tmdb-496243-w342.jpg 342w, "#
                + #"/images/tmdb-496243-w780.jpg 780w" sizes="(min-width: 48em) 15rem, 55vw" alt="Poster of Parasite" "#
                + #"width="342" height="513" fetchpriority="high">"#,
            #"<p class="original-title"><span class="original-title-label" lang="en">Original title</span> "#
                + #"<span lang="ko">기생충</span></p>"#,
            #"<p class="byline"><span lang="en">Bong Joon-ho</span><span>2019</span></p>"#,
            #"<h2 class="part-heading" id="overview-heading" lang="en">Overview</h2>"#,
            "<p class=\"overview\" lang=\"en\">All unemployed, Ki-taek&#39;s family takes peculiar interest in the wealthy and "
                + "glamorous Parks.</p>",
            #"<h2 class="part-heading" id="details-heading">Details</h2>"#,
            detail("Director", "Bong Joon-ho"), detail("Original title", "기생충", "ko"),
            detail("Released", "May 30, 2019"),
            detail("Runtime", "2 h 13 min"),
            detail(
                "Cast",
                // Non-breaking hyphens (U+2011): a name never breaks at its hyphen.
                ("Song Kang-ho (Kim Ki-taek), Lee Sun-kyun (Park Dong-ik), Cho Yeo-jeong (Choi Yeon-kyo), "
                    + "Choi Woo-shik (Kim Ki-woo), Park So-dam (Kim Ki-jung)").replacingOccurrences(
                        of: "-", with: "\u{2011}")),
            #"<li><a href="/genres/comedy/" lang="en">Comedy</a></li>"#,
            #"<li><a href="/genres/thriller/" lang="en">Thriller</a></li>"#,
            #"<li><a href="/genres/drama/" lang="en">Drama</a></li>"#,
        ] {
            #expect(parasite.contains(snippet), "\(snippet)")
        }
        let stoner = try joined(text(output, "books/stoner/index.html"))
        for snippet in [
            #"<img src="/images/isbn-9781590171998-M.jpg" srcset="/images/isbn-9781590171998-M.jpg 180w, "#
                + #"/images/isbn-9781590171998-L.jpg 400w" sizes="(min-width: 48em) 15rem, 55vw" alt="Cover of Stoner" "#
                + #"width="180" height="278" fetchpriority="high">"#,
            #"<p class="overview" lang="en">William Stoner is born at the end of the nineteenth century.</p>"#,
            // Front matter wins: its publisher, not Open Library's.
            detail("Author", "John Williams"), detail("Publisher", "Vintage"), detail("Published", "March 1, 2006"),
            detail("Pages", "278 pages"), #"<li><a href="/genres/campus-life/" lang="en">Campus life</a></li>"#,
        ] {
            #expect(stoner.contains(snippet), "\(snippet)")
        }
        #expect(!stoner.contains("NYRB Classics"))
        // By year: Stoner under the year its metadata gives; Burning under its front matter's 2018, not TMDB's 2001.
        #expect(try groups(text(output, "books/by-year/index.html")) == ["2006: Stoner"])
        #expect(
            try groups(text(output, "movies/by-year/index.html")) == [
                "2024: Notes", "2019: Parasite, Parasite Again", "2018: Burning",
            ])
        let drama = try text(output, "genres/drama/index.html")
        #expect(drama.contains(#"<a href="/movies/parasite/">Parasite</a>"#))
        #expect(drama.contains(#"<a href="/movies/parasite-again/">Parasite Again</a>"#))
        #expect(!drama.contains("/books/stoner/"))
        #expect(try text(output, "genres/index.html").contains(#"href="/genres/college-teachers/""#))
    }

    @Test(
        "build without a cache says how many reviews name a film or book with nothing cached (--verbose lists them), and still builds"
    )
    func buildWithoutCache() async throws {
        let site = try TemporaryFolder(fetchSite)
        let summary = TestConsole()
        #expect(await summary.run(["build"], in: site.url) == 0)
        #expect(
            summary.err == """
                warning: 4 reviews name a film or book with nothing in the metadata cache: run sitegen fetch (--verbose lists them)

                """)
        let build = TestConsole()
        #expect(await build.run(["build", "--verbose"], in: site.url) == 0)
        #expect(
            build.err == """
                content/books/stoner.md:1:1: warning: names ISBN 9781590171998 but the metadata cache has nothing for it: run sitegen fetch
                content/movies/burning.md:1:1: warning: names film "Burning" (2018) but the metadata cache has nothing for it: run sitegen fetch
                content/movies/parasite-again.md:1:1: warning: names TMDB 496243 but the metadata cache has nothing for it: run sitegen fetch
                content/movies/parasite.md:1:1: warning: names TMDB 496243 but the metadata cache has nothing for it: run sitegen fetch

                """)
        #expect(build.out.hasPrefix("Built "))
        let output = try files(in: site.url.appendingPathComponent("public"))
        #expect(!output.keys.contains { $0.hasPrefix("images/") || $0.hasPrefix("genres/") })
        let parasite = try text(output, "movies/parasite/index.html")
        #expect(!parasite.contains("Overview"))
        #expect(!parasite.contains("<img "))
        #expect(!parasite.contains("Details"))
        #expect(try groups(text(output, "books/by-year/index.html")) == ["2024: Stoner"])
    }

    @Test("fetch exits 1 and names each failing review, its film or book, and why; the rest is fetched")
    func failureSummary() async throws {
        let fake = try FakeProviders()
        routeSite(fake)
        fake.route("/3/movie/496243", .status(500))
        fake.route("/3/search/movie", .malformed)
        let site = try TemporaryFolder(fetchSite)
        let console = TestConsole()
        let status = await console.run(["fetch", "--tries", "2"], in: site.url, variables: environment(fake))
        #expect(status == 1)
        let film = "\(fake.url)/3/movie/496243?append_to_response=credits&language=en-US"
        let search = "\(fake.url)/3/search/movie?query=Burning&language=en-US&year=2018"
        #expect(
            lines(console.err) == [
                "content/movies/burning.md: film \"Burning\" (2018): unexpected response: \(search): not valid JSON",
                "content/movies/parasite-again.md, content/movies/parasite.md: TMDB 496243: HTTP 500 from \(film)",
                "failed content/movies/burning.md: unexpected response: \(search): not valid JSON",
                "failed content/movies/parasite-again.md, content/movies/parasite.md: HTTP 500 from \(film)",
            ])
        // The summary comes last, sorted by cache file.
        #expect(
            console.err.hasSuffix(
                "content/movies/burning.md: film \"Burning\" (2018): unexpected response: \(search): not valid JSON\n"
                    + "content/movies/parasite-again.md, content/movies/parasite.md: TMDB 496243: HTTP 500 from "
                    + "\(film)\n"))
        #expect(!console.err.contains("k3y"))
        #expect(console.out.hasSuffix("Fetched 1, 0 already cached, 2 failed.\n"))
        #expect(fake.requests.filter { $0.path == "/3/movie/496243" }.count == 2)
        #expect(fake.requests.filter { $0.path == "/3/search/movie" }.count == 1)
        #expect(
            try files(in: site.url.appendingPathComponent("metadata")).keys.sorted() == [
                "books/isbn-9781590171998.json", "images/isbn-9781590171998-L.jpg", "images/isbn-9781590171998-M.jpg",
            ])
    }

    @Test("without TMDB credentials the films fail with a clear message and the books are still fetched")
    func missingCredentials() async throws {
        let fake = try FakeProviders()
        routeSite(fake)
        let site = try TemporaryFolder(fetchSite)
        let console = TestConsole()
        #expect(await console.run(["fetch"], in: site.url, variables: environment(fake, [:])) == 1)
        let reason = "TMDB needs TMDB_API_KEY or TMDB_ACCESS_TOKEN in the environment"
        #expect(
            console.err.hasSuffix(
                "content/movies/burning.md: film \"Burning\" (2018): \(reason)\n"
                    + "content/movies/parasite-again.md, content/movies/parasite.md: TMDB 496243: \(reason)\n"))
        #expect(console.out.hasSuffix("Fetched 1, 0 already cached, 2 failed.\n"))
        #expect(fake.requests.allSatisfy { !$0.path.hasPrefix("/3/") })
    }

    @Test("a second fetch requests nothing; --refresh against a failing server leaves the cache byte for byte")
    func cachedAndRefresh() async throws {
        let fake = try FakeProviders()
        routeSite(fake)
        let site = try TemporaryFolder(fetchSite)
        #expect(await TestConsole().run(["fetch"], in: site.url, variables: environment(fake)) == 0)
        let metadata = site.url.appendingPathComponent("metadata")
        let cached = try files(in: metadata)
        #expect(cached.count == 7)
        let requested = fake.requests.count

        let again = TestConsole()
        #expect(await again.run(["fetch"], in: site.url, variables: environment(fake)) == 0)
        #expect(
            again.out == "Fetching 0 of 3 films and books (3 already cached).\nFetched 0, 3 already cached, 0 failed.\n"
        )
        #expect(again.err == "")
        #expect(fake.requests.count == requested)

        for path in ["/3/movie/496243", "/3/search/movie", "/isbn/9781590171998.json"] {
            fake.route(path, .status(503))
        }
        let refresh = TestConsole()
        let status = await refresh.run(
            ["fetch", "--refresh", "--tries", "1"], in: site.url, variables: environment(fake))
        #expect(status == 1)
        #expect(refresh.out.hasPrefix("Fetching 3 of 3 films and books (0 already cached).\n"))
        #expect(refresh.out.hasSuffix("Fetched 0, 0 already cached, 3 failed.\n"))
        #expect(fake.requests.count == requested + 3)
        #expect(try files(in: metadata) == cached)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: metadata.path).allSatisfy { !$0.contains("tmp") })

        // The build still has everything the cache had.
        let build = TestConsole()
        #expect(await build.run(["build"], in: site.url) == 0)
        #expect(build.err == "")
        let output = try files(in: site.url.appendingPathComponent("public"))
        #expect(output["images/tmdb-496243-w342.jpg"] == Data(poster342))
    }

    @Test("--only limits the fetch to reviews at or under a path")
    func only() async throws {
        let fake = try FakeProviders()
        routeSite(fake)
        let site = try TemporaryFolder(fetchSite)
        let books = TestConsole()
        #expect(await books.run(["fetch", "--only", "content/books"], in: site.url, variables: environment(fake)) == 0)
        #expect(books.out.hasPrefix("Fetching 1 of 1 films and books (0 already cached).\n"))
        #expect(fake.requests.allSatisfy { !$0.path.hasPrefix("/3/") })
        #expect(fake.requests.map(\.path).first == "/isbn/9781590171998.json")

        let one = TestConsole()
        let status = await one.run(
            ["fetch", "--only", "content/movies/burning.md", "--only", "content/books/"], in: site.url,
            variables: environment(fake))
        #expect(status == 0)
        #expect(one.out.hasPrefix("Fetching 1 of 2 films and books (1 already cached).\n"))
        #expect(
            fake.requests.filter { $0.path.hasPrefix("/3/") }.map(\.path) == ["/3/search/movie", "/3/movie/491584"])
        #expect(
            try files(in: site.url.appendingPathComponent("metadata")).keys.filter { $0.hasSuffix(".json") }.sorted()
                == [
                    "books/isbn-9781590171998.json", "movies/search-burning-2018.json",
                ])
    }

    @Test("--only with a path that names no review is an error, not an empty fetch")
    func onlyUnmatched() async throws {
        let fake = try FakeProviders()
        routeSite(fake)
        let site = try TemporaryFolder(fetchSite)
        let console = TestConsole()
        let status = await console.run(
            ["fetch", "--only", "./content/books/", "--only", "content/book"], in: site.url,
            variables: environment(fake))
        #expect(status == 1)
        #expect(
            console.err == "--only content/book: no review there (paths are relative to the site folder, "
                + "like content/movies or content/movies/parasite.md)\n")
        #expect(fake.requests.isEmpty)
    }

    @Test("--concurrency bounds the requests in flight")
    func concurrency() async throws {
        let fake = try FakeProviders(delay: 0.05)
        var site: [String: String] = ["site.yml": fetchSite["site.yml"]!]
        for id in 1...8 {
            site["content/movies/film-\(id).md"] = review("title: Film \(id)\ndate: 2024-01-0\(id)\ntmdb: \(id)")
            fake.route("/3/movie/\(id)", .json(ProviderFixtures.film(id: id)))
        }
        let folder = try TemporaryFolder(site)
        let console = TestConsole()
        let status = await console.run(["fetch", "--concurrency", "2"], in: folder.url, variables: environment(fake))
        #expect(status == 0, "\(console.err)")
        #expect(fake.requests.count == 8)
        #expect(fake.maxInFlight == 2)
    }

    @Test("a slow provider times out after --timeout, per try")
    func stalled() async throws {
        let fake = try FakeProviders()
        // It answers after 5 s: within the 15 s default, not within --timeout 1.
        fake.route("/3/movie/7", .delayed(5, .json(ProviderFixtures.film(id: 7))))
        let site = try TemporaryFolder([
            "site.yml": fetchSite["site.yml"]!,
            "content/movies/seven.md": review("title: Seven\ndate: 2024-01-01\ntmdb: 7"),
        ])
        let console = TestConsole()
        let clock = ContinuousClock()
        let start = clock.now
        let status = await console.run(
            ["fetch", "--timeout", "1", "--tries", "1"], in: site.url, variables: environment(fake))
        let elapsed = clock.now - start
        #expect(status == 1)
        #expect(
            console.err.hasSuffix(
                "content/movies/seven.md: TMDB 7: timed out: \(fake.url)/3/movie/7?append_to_response=credits&language=en-US\n"
            ))
        #expect(elapsed >= .milliseconds(950), "\(elapsed)")
        #expect(fake.requests.count == 1)
    }

    @Test("books go to Naver when both Naver credentials are set, in the site's language for films")
    func naverAndKorean() async throws {
        let fake = try FakeProviders()
        fake.route(
            "/v1/search/book_adv.json",
            .json(ProviderFixtures.naverAlmond(imageURL: fake.url + ProviderFixtures.naverCoverPath)))
        fake.route(ProviderFixtures.naverCoverPath, .bytes(coverM, contentType: "image/jpeg"))
        fake.route("/3/movie/7", .json(ProviderFixtures.film(id: 7)))
        let site = try TemporaryFolder([
            "site.yml": "title: 여백\nbase_url: https://example.org/\nlanguage: ko\n",
            "content/books/아몬드.md": review("title: 아몬드\ndate: 2024-01-01\nisbn: 9788936433598"),
            "content/movies/seven.md": review("title: Seven\ndate: 2024-01-01\ntmdb: 7"),
        ])
        let variables = environment(
            fake, ["TMDB_ACCESS_TOKEN": "t0ken", "NAVER_CLIENT_ID": "naver-id", "NAVER_CLIENT_SECRET": "naver-secret"])
        let console = TestConsole()
        #expect(await console.run(["fetch"], in: site.url, variables: variables) == 0, "\(console.err)")
        #expect(
            fake.targets.sorted() == [
                "/3/movie/7?append_to_response=credits&language=ko-KR", ProviderFixtures.naverCoverPath,
                "/v1/search/book_adv.json?d_isbn=9788936433598",
            ])
        let naver = try #require(fake.requests.first { $0.path == "/v1/search/book_adv.json" })
        #expect(naver.headers["x-naver-client-id"] == "naver-id")
        #expect(naver.headers["x-naver-client-secret"] == "naver-secret")
        #expect(fake.requests.first { $0.path == "/3/movie/7" }?.headers["authorization"] == "Bearer t0ken")

        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let page = try text(
            files(in: site.url.appendingPathComponent("public")), "books/아몬드/index.html")
        #expect(
            page.contains("<p class=\"overview\" lang=\"ko\">감정을 느끼지 못하는 소년 &amp; 그의 &quot;괴물&quot; 친구. 두 소년의 성장.</p>"))
        #expect(page.contains(#"<img src="/images/isbn-9788936433598-naver.jpg""#))
    }

    @Test("site.yml's metadata URLs are used; the environment overrides them")
    func siteConfiguration() async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/7", .json(ProviderFixtures.film(id: 7)))
        fake.route("/elsewhere/3/movie/7", .json(ProviderFixtures.film(id: 7)))
        let site = try TemporaryFolder([
            "site.yml": "title: T\nbase_url: https://example.org/\nmetadata:\n  tmdb_api: \(fake.url)/elsewhere/3\n",
            "content/movies/seven.md": review("title: Seven\ndate: 2024-01-01\ntmdb: 7"),
        ])
        #expect(await TestConsole().run(["fetch"], in: site.url, variables: ["TMDB_API_KEY": "k3y"]) == 0)
        #expect(await TestConsole().run(["fetch", "--refresh"], in: site.url, variables: environment(fake)) == 0)
        #expect(fake.requests.map(\.path) == ["/elsewhere/3/movie/7", "/3/movie/7"])
    }

    @Test(
        "bad settings are clear errors",
        arguments: [
            (
                ["fetch", "--timeout", "0"], 64,
                "sitegen fetch: --timeout must be a number of seconds above 0 and at most 600, not \"0\"\n"
            ),
            (
                ["fetch", "--timeout", "soon"], 64,
                "sitegen fetch: --timeout must be a number of seconds above 0 and at most 600, not \"soon\"\n"
            ),
            (["fetch", "--tries", "0"], 64, "sitegen fetch: --tries must be a whole number from 1 to 10, not \"0\"\n"),
            (
                ["fetch", "--concurrency", "65"], 64,
                "sitegen fetch: --concurrency must be a whole number from 1 to 64, not \"65\"\n"
            ),
        ])
    func usageErrors(arguments: [String], status: Int32, message: String) async throws {
        let site = try TemporaryFolder(fetchSite)
        let console = TestConsole()
        #expect(await console.run(arguments, in: site.url) == status)
        #expect(console.err.hasPrefix(message + "Usage: sitegen fetch"), "\(console.err)")
        #expect(console.out.isEmpty)
    }

    @Test("a base URL in the environment that is not http or https stops the fetch before any request")
    func badEnvironmentURL() async throws {
        let site = try TemporaryFolder(fetchSite)
        let console = TestConsole()
        let status = await console.run(
            ["fetch"], in: site.url, variables: ["SITEGEN_TMDB_API": "ftp://example.org/3", "TMDB_API_KEY": "k3y"])
        #expect(status == 1)
        #expect(console.err == "SITEGEN_TMDB_API must be an http or https URL, not \"ftp://example.org/3\"\n")
        #expect(console.out.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("metadata").path))
    }
}

// MARK: - Helpers

private extension FetchCommandTests {
    /// The environment for `sitegen fetch`: every provider at `fake`, and `variables`.
    func environment(_ fake: FakeProviders, _ variables: [String: String] = ["TMDB_API_KEY": "k3y"])
        -> [String: String]
    {
        fake.environment.merging(variables) { $1 }
    }

    /// Answers for every film and book of ``fetchSite``.
    func routeSite(_ fake: FakeProviders) {
        fake.route("/3/movie/496243", .json(ProviderFixtures.parasite))
        fake.route("/t/p/w342/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg", .bytes(poster342, contentType: "image/jpeg"))
        fake.route("/t/p/w780/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg", .bytes(poster780, contentType: "image/jpeg"))
        fake.route("/3/search/movie", .json(ProviderFixtures.search(ids: [491584])))
        fake.route("/3/movie/491584", .json(ProviderFixtures.film(id: 491584)))
        fake.route("/isbn/9781590171998.json", .redirect("/books/OL7928212M.json"))
        fake.route("/books/OL7928212M.json", .json(ProviderFixtures.stonerEdition))
        fake.route("/works/OL8000980W.json", .json(ProviderFixtures.stonerWork))
        fake.route("/authors/OL2625389A.json", .json(ProviderFixtures.johnWilliams))
        fake.route("/covers/b/id/8231856-M.jpg", .bytes(coverM, contentType: "image/jpeg"))
        fake.route("/covers/b/id/8231856-L.jpg", .bytes(coverL, contentType: "image/jpeg"))
    }

    var poster342: [UInt8] { ProviderFixtures.jpeg(width: 342, height: 513) }
    var poster780: [UInt8] { ProviderFixtures.jpeg(width: 780, height: 1170) }
    var coverM: [UInt8] { ProviderFixtures.jpeg(width: 180, height: 278) }
    var coverL: [UInt8] { ProviderFixtures.jpeg(width: 400, height: 617) }

    /// Output lines, sorted: fetches finish in any order.
    func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).sorted()
    }

    /// `page` without the line breaks and indentation between tags.
    func joined(_ page: String) -> String {
        page.replacing(/>\n\s*</, with: "><")
    }

    /// A "Details" row as the review page shows it, after ``joined(_:)``.
    func detail(_ label: String, _ value: String, _ language: String = "en") -> String {
        "<dt>\(label)</dt><dd lang=\"\(language)\">\(value)</dd>"
    }

    /// A by-year page's groups: "2019: Parasite, Parasite Again".
    func groups(_ page: String) -> [String] {
        page.components(separatedBy: #"<h2 class="group-heading""#).dropFirst().map { group in
            let year = group.firstMatch(of: /id="year-\d+" lang="[^"]*">(\d+)</)?.1 ?? "?"
            let titles = group.matches(of: /<h3 class="card-title" lang="[^"]*"><a href="[^"]*">([^<]*)</).map(\.1)
            return "\(year): \(titles.joined(separator: ", "))"
        }
    }

    func text(_ files: [String: Data], _ path: String) throws -> String {
        String(decoding: try #require(files[path], "\(path) is missing"), as: UTF8.self)
    }

    /// Every regular file under `folder`, by relative path.
    func files(in folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            let url = folder.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }
}

/// Films by TMDB id (twice) and by title and year, a book by ISBN, a film naming nothing.
private let fetchSite: [String: String] = [
    "site.yml": "title: Test Reviews\nbase_url: https://example.org/\nauthor: Tester\n",
    "content/movies/parasite.md": review("title: Parasite\ndate: 2026-03-14\nrating: 4.5\ntags: [korea]\ntmdb: 496243"),
    "content/movies/parasite-again.md": review("title: Parasite Again\ndate: 2026-04-01\ntmdb: 496243"),
    "content/movies/burning.md": review("title: Burning\ndate: 2025-01-01\nyear: 2018\ndirector: Lee Chang-dong"),
    "content/movies/notes.md": review("title: Notes\ndate: 2024-01-01"),
    "content/books/stoner.md": review("title: Stoner\ndate: 2024-11-02\nisbn: 978-1-59017-199-8\npublisher: Vintage"),
    "content/about.md": review("title: About", body: "Who writes here."),
]

/// A review file with front matter and a body.
private func review(_ frontMatter: String, body: String = "A review.") -> String {
    "---\n\(frontMatter)\n---\n\(body)\n"
}
