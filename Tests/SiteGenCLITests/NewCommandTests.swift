import Foundation
import Testing

/// `sitegen new` end to end, fetching from ``FakeProviders`` on the loopback interface.
@Suite("sitegen new")
struct NewCommandTests {
    static let site = [
        "site.yml": "title: T\nbase_url: https://example.org/\n",
        "content/films/_index.md": "---\ntitle: Films\nkind: movie\n---\n",
        "content/shelf/_index.md": "---\ntitle: Shelf\nkind: book\n---\n",
    ]
    static let today = ["SITEGEN_TODAY": "2026-11-30"]

    func text(_ folder: borrowing TemporaryFolder, _ path: String) throws -> String {
        try String(contentsOf: folder.url.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("a film searched on TMDB: the draft names its id, year, original title and director; the cache has it")
    func filmFetched() async throws {
        let fake = try FakeProviders()
        fake.route("/3/search/movie", .json(ProviderFixtures.search(ids: [496243])))
        fake.route("/3/movie/496243", .json(ProviderFixtures.parasite))
        fake.route(
            "/t/p/w342/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg",
            .bytes(ProviderFixtures.jpeg(width: 342, height: 513), contentType: "image/jpeg"))
        fake.route(
            "/t/p/w780/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg",
            .bytes(ProviderFixtures.jpeg(width: 780, height: 1170), contentType: "image/jpeg"))
        let folder = try TemporaryFolder(Self.site)
        let console = TestConsole()
        let variables = fake.environment.merging(Self.today) { $1 }.merging(["TMDB_API_KEY": "k3y"]) { $1 }
        #expect(await console.run(["new", "film", "Parasite"], in: folder.url, variables: variables) == 0)
        #expect(console.out == "content/films/parasite.md\n")
        #expect(console.err == "fetched film \"Parasite\" “Parasite” into metadata/movies/tmdb-496243.json\n")
        #expect(
            try text(folder, "content/films/parasite.md") == """
                ---
                title: "Parasite"
                date: 2026-11-30
                # Left out of the site until you set draft: false (sitegen build --drafts shows it).
                draft: true
                # rating: 3.5
                # tags: []
                # summary: "One sentence for lists and feeds."
                tmdb: 496243
                year: 2019
                original_title: "기생충"
                director: "Bong Joon-ho"
                ---


                """)
        #expect(fake.requests.map(\.path).contains("/3/search/movie"))
        #expect(fake.requests.first { $0.path == "/3/search/movie" }?.parameters["query"] == "Parasite")
        let cached = try files(in: folder.url.appendingPathComponent("metadata")).keys.sorted()
        #expect(cached == ["images/tmdb-496243-w342.jpg", "images/tmdb-496243-w780.jpg", "movies/tmdb-496243.json"])

        // The build finds what new fetched: no "nothing cached" warning, the poster shown.
        let build = TestConsole()
        #expect(await build.run(["build", "--drafts"], in: folder.url) == 0)
        #expect(build.err == "")
        let page = try text(folder, "public/films/parasite/index.html")
        #expect(page.contains(#"<img src="/images/tmdb-496243-w342.jpg""#))
    }

    @Test("a book searched on Open Library is stored under the ISBN the draft names")
    func bookFetched() async throws {
        let fake = try FakeProviders()
        fake.route("/search.json", .json(ProviderFixtures.stonerSearch))
        fake.route("/works/OL8000980W.json", .json(ProviderFixtures.stonerWork))
        fake.route(
            "/covers/b/id/8231856-M.jpg",
            .bytes(ProviderFixtures.jpeg(width: 180, height: 278), contentType: "image/jpeg"))
        fake.route(
            "/covers/b/id/8231856-L.jpg",
            .bytes(ProviderFixtures.jpeg(width: 400, height: 617), contentType: "image/jpeg"))
        let folder = try TemporaryFolder(Self.site)
        let console = TestConsole()
        let variables = fake.environment.merging(Self.today) { $1 }
        #expect(
            await console.run(
                ["new", "book", "Stoner", "--author", "John Williams"], in: folder.url, variables: variables)
                == 0)
        #expect(console.out == "content/shelf/stoner.md\n")
        #expect(
            console.err
                == "fetched book \"Stoner\" by John Williams “Stoner” into metadata/books/isbn-9781590171998.json\n")
        let review = try text(folder, "content/shelf/stoner.md")
        #expect(review.contains("\nisbn: \"9781590171998\"\nyear: 1965\nauthor: \"John Williams\"\n---\n"))
        #expect(
            try files(in: folder.url.appendingPathComponent("metadata")).keys.sorted() == [
                "books/isbn-9781590171998.json", "images/isbn-9781590171998-L.jpg", "images/isbn-9781590171998-M.jpg",
            ])
        let build = TestConsole()
        #expect(await build.run(["build", "--drafts"], in: folder.url) == 0)
        #expect(build.err == "")
    }

    @Test("a failed fetch still writes the review and says so; what is cached is used without fetching")
    func fetchFailsOrIsCached() async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/496243", .status(500))
        let folder = try TemporaryFolder(Self.site)
        let variables = fake.environment.merging(Self.today) { $1 }.merging(["TMDB_ACCESS_TOKEN": "t"]) { $1 }
        let failed = TestConsole()
        #expect(
            await failed.run(
                ["new", "movie", "Parasite", "--tmdb", "496243", "--year", "2019"], in: folder.url, variables: variables
            )
                == 0)
        #expect(failed.out == "content/films/parasite.md\n")
        #expect(
            failed.err
                == "warning: could not fetch TMDB 496243: HTTP 500 from \(fake.url)/3/movie/496243?append_to_response=credits"
                + "&language=en-US; the review was written without it, and sitegen fetch --only content/films/parasite.md "
                + "fetches it later\n")
        #expect(try text(folder, "content/films/parasite.md").contains("\ntmdb: 496243\nyear: 2019\n---\n"))
        #expect(fake.requests.count == 2, "two tries: \(fake.targets)")

        try folder.write(
            "metadata/movies/tmdb-496243.json",
            #"{"kind": "movie", "source": "tmdb", "id": "496243", "title": "Parasite", "original_title": "기생충", "#
                + #""year": 2019, "genres": [], "directors": ["Bong Joon-ho"], "authors": [], "cast": [], "images": []}"#
        )
        let cached = TestConsole()
        #expect(
            await cached.run(
                ["new", "movie", "Parasite again", "--tmdb", "496243"], in: folder.url, variables: variables)
                == 0)
        #expect(cached.err == "found TMDB 496243 “Parasite” in metadata/movies/tmdb-496243.json\n")
        #expect(fake.requests.count == 2)
        #expect(
            try text(folder, "content/films/parasite-again.md").contains(
                "\ntmdb: 496243\nyear: 2019\noriginal_title: \"기생충\"\ndirector: \"Bong Joon-ho\"\n---\n"))
    }

    @Test("an answer the build would refuse (a TMDB id of 0) is a failed fetch; a five-digit year is no year")
    func answersOutOfRange() async throws {
        let fake = try FakeProviders()
        let noPoster = ProviderFixtures.parasite.replacingOccurrences(
            of: #""poster_path": "/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg""#, with: #""poster_path": null"#)
        fake.route("/3/search/movie", .json(ProviderFixtures.search(ids: [7])))
        fake.route("/3/movie/7", .json(noPoster.replacingOccurrences(of: #""id": 496243"#, with: #""id": 0"#)))
        fake.route(
            "/3/movie/8",
            .json(
                noPoster.replacingOccurrences(of: #""id": 496243"#, with: #""id": 8"#)
                    .replacingOccurrences(of: #""release_date": "2019-05-30""#, with: #""release_date": "10000-01-01""#)
            ))
        let folder = try TemporaryFolder(Self.site)
        let variables = fake.environment.merging(Self.today) { $1 }.merging(["TMDB_API_KEY": "k3y"]) { $1 }
        let zero = TestConsole()
        #expect(await zero.run(["new", "film", "Parasite"], in: folder.url, variables: variables) == 0)
        #expect(zero.out == "content/films/parasite.md\n")
        #expect(
            zero.err
                == "warning: could not fetch film \"Parasite\": unexpected response: the answer for tmdb-0 is out of "
                + "range: a TMDB \"id\" must be a whole number from 1 to 2147483647, not \"0\"; the review was written "
                + "without it, and sitegen fetch --only content/films/parasite.md fetches it later\n")
        #expect(try !text(folder, "content/films/parasite.md").contains("tmdb:"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("metadata").path))

        let far = TestConsole()
        #expect(await far.run(["new", "film", "Far", "--tmdb", "8"], in: folder.url, variables: variables) == 0)
        #expect(try text(folder, "content/films/far.md").contains("\ntmdb: 8\noriginal_title: \"기생충\"\n"))
        #expect(try !text(folder, "content/films/far.md").contains("year:"))
        let build = TestConsole()
        #expect(await build.run(["build", "--drafts"], in: folder.url) == 0, "\(build.err)")
    }

    @Test(
        "a page bundle of the same name, or a review's slug:, is in the way as a file is; a fallback folder of another kind is refused"
    )
    func bundleAndFallbackInTheWay() async throws {
        let bundle = "---\ntitle: Heat\ndate: 2025-01-01\n---\nMine.\n"
        let folder = try TemporaryFolder(Self.site.merging(["content/films/heat/index.md": bundle]) { $1 })
        let console = TestConsole()
        #expect(await console.run(["new", "movie", "Heat", "--no-fetch"], in: folder.url, variables: Self.today) == 1)
        #expect(
            console.err
                == "sitegen new: content/films/heat/index.md already exists, a review at the address this one would "
                + "take: nothing was written (edit that file, or give another title and set slug: in the front matter)\n"
        )
        #expect(
            !FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("content/films/heat.md").path))

        // Another file that takes the address with slug:.
        try folder.write("content/films/the-thief.md", "---\ntitle: Thief\ndate: 2025-01-02\nslug: alien\n---\nMine.\n")
        let claimed = TestConsole()
        #expect(await claimed.run(["new", "movie", "Alien", "--no-fetch"], in: folder.url, variables: Self.today) == 1)
        #expect(
            claimed.err
                == "sitegen new: content/films/the-thief.md says slug: alien, the address this review would take: nothing "
                + "was written (edit that file, or give another title and set slug: in the front matter)\n")
        #expect(
            !FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("content/films/alien.md").path))

        // No film section, and content/movies (where films go then) holds books.
        let books = try TemporaryFolder([
            "site.yml": "title: T\nbase_url: https://example.org/\n",
            "content/movies/_index.md": "---\nkind: book\n---\n",
        ])
        let fallback = TestConsole()
        #expect(
            await fallback.run(["new", "movie", "Alien", "--no-fetch"], in: books.url, variables: Self.today) == 1)
        #expect(
            fallback.err
                == "sitegen new: no section holds film reviews, and content/movies holds book reviews: make a folder in "
                + "content/ with an _index.md saying kind: movie, and name it with --section\n")
        #expect(try files(in: books.url.appendingPathComponent("content")).keys.sorted() == ["movies/_index.md"])
        // A book still goes there.
        let book = TestConsole()
        #expect(await book.run(["new", "book", "Stoner", "--no-fetch"], in: books.url, variables: Self.today) == 0)
        #expect(book.out == "content/movies/stoner.md\n")
    }

    @Test("a book's --year may be before the common era (-700 is 700 BCE); a film's may not")
    func yearsBeforeTheCommonEra() async throws {
        let folder = try TemporaryFolder(Self.site)
        let odyssey = TestConsole()
        #expect(
            await odyssey.run(
                ["new", "book", "The Odyssey", "--year", "-700", "--author", "Homer", "--no-fetch"], in: folder.url,
                variables: Self.today) == 0)
        #expect(try text(folder, "content/shelf/the-odyssey.md").contains("\nyear: -700\n"))
        let build = TestConsole()
        #expect(await build.run(["build", "--drafts"], in: folder.url) == 0, "\(build.err)")
        for (kind, year, message) in [
            ("book", "0", "--year must be a whole number from -9999 to 9999 other than 0 (-700 is 700 BCE), not \"0\""),
            ("film", "-700", "--year must be a whole number from 1 to 9999, not \"-700\""),
        ] {
            let console = TestConsole()
            #expect(
                await console.run(
                    ["new", kind, "X", "--year", year, "--no-fetch"], in: folder.url, variables: Self.today)
                    == 64)
            #expect(console.err.hasPrefix("sitegen new: \(message)\n"), "\(console.err)")
        }
    }

    @Test("an existing file is never replaced; Korean titles keep readable file names")
    func neverOverwrites() async throws {
        let folder = try TemporaryFolder(Self.site.merging(["content/films/parasite.md": "mine\n"]) { $1 })
        let console = TestConsole()
        #expect(
            await console.run(["new", "movie", "Parasite", "--no-fetch"], in: folder.url, variables: Self.today) == 1)
        #expect(console.out == "")
        #expect(
            console.err
                == "sitegen new: content/films/parasite.md already exists: nothing was written (edit that file, or give "
                + "another title and set slug: in the front matter)\n")
        #expect(try text(folder, "content/films/parasite.md") == "mine\n")

        let korean = TestConsole()
        #expect(
            await korean.run(
                ["new", "movie", "살인의 추억", "--year", "2003", "--director", "봉준호"], in: folder.url, variables: Self.today
            )
                == 0)
        #expect(korean.out == "content/films/살인의-추억.md\n")
        #expect(
            korean.err
                == "not fetched: TMDB needs TMDB_API_KEY or TMDB_ACCESS_TOKEN in the environment; "
                + "sitegen fetch --only content/films/살인의-추억.md fetches it later\n")
        #expect(try text(folder, "content/films/살인의-추억.md").contains("title: \"살인의 추억\"\n"))
    }

    @Test("a title whose file name a section's own pages take (Page, By Title) gets -2, and the site builds")
    func reservedNames() async throws {
        let folder = try TemporaryFolder(Self.site)
        for (title, file) in [("Page", "page-2"), ("By Title", "by-title-2"), ("By Rating", "by-rating-2")] {
            let console = TestConsole()
            #expect(
                await console.run(["new", "movie", title, "--no-fetch"], in: folder.url, variables: Self.today) == 0)
            #expect(console.out == "content/films/\(file).md\n")
        }
        let build = TestConsole()
        #expect(await build.run(["build", "--drafts"], in: folder.url) == 0, "\(build.err)")
    }

    @Test("a title written with a combining accent makes the composed file name; either form finds the other's file")
    func composedNames() async throws {
        let decomposed = "Cafe\u{301}"
        let composed = "Caf\u{E9}"
        let folder = try TemporaryFolder(Self.site)
        let first = TestConsole()
        #expect(
            await first.run(["new", "movie", decomposed, "--no-fetch"], in: folder.url, variables: Self.today) == 0)
        let name = try FileManager.default.contentsOfDirectory(
            atPath: folder.url.appendingPathComponent("content/films").path
        )
        .filter { $0.hasPrefix("caf") }
        #expect(name.map { Array($0.utf8) } == [Array("caf\u{E9}.md".utf8)])
        let second = TestConsole()
        #expect(await second.run(["new", "movie", composed, "--no-fetch"], in: folder.url, variables: Self.today) == 1)
        #expect(second.err.contains("already exists: nothing was written"))
        // A file already named in the decomposed form is found too.
        let other = try TemporaryFolder(
            Self.site.merging(["content/films/cafe\u{301}.md": "---\ntitle: x\n---\n"]) { $1 })
        let third = TestConsole()
        #expect(await third.run(["new", "movie", composed, "--no-fetch"], in: other.url, variables: Self.today) == 1)
        #expect(third.err.contains("already exists: nothing was written"))
    }

    @Test(
        "the section: the first of the kind, or --section (which must hold the kind), or movies/ in a site without one")
    func sections() async throws {
        let folder = try TemporaryFolder(Self.site)
        let wrong = TestConsole()
        #expect(
            await wrong.run(
                ["new", "movie", "Alien", "--section", "shelf", "--no-fetch"], in: folder.url, variables: Self.today)
                == 1)
        #expect(wrong.err == "sitegen new: content/shelf holds book reviews, not film reviews\n")
        let missing = TestConsole()
        #expect(
            await missing.run(
                ["new", "book", "Alien", "--section", "novels", "--no-fetch"], in: folder.url, variables: Self.today)
                == 1)
        #expect(
            missing.err
                == "sitegen new: content/novels does not exist: make it, with an _index.md saying kind: book, "
                + "or leave out --section\n")

        // A name sitegen's own pages use is refused at once, not made into a section the build refuses.
        for name in ["tags", "search", "assets"] {
            let reserved = TestConsole()
            #expect(
                await reserved.run(
                    ["new", "movie", "Alien", "--section", name, "--no-fetch"], in: folder.url, variables: Self.today)
                    == 1)
            #expect(
                reserved.err
                    == "sitegen new: --section \"\(name)\" cannot be a section folder: sitegen uses that name\n")
            #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("content/\(name)").path))
        }

        let bare = try TemporaryFolder(["site.yml": Self.site["site.yml"]!])
        let console = TestConsole()
        #expect(
            await console.run(
                ["new", "book", "Stoner", "--no-fetch", "--source", "./"], in: bare.url, variables: Self.today) == 0)
        #expect(console.out == "content/books/stoner.md\n")
        #expect(await TestConsole().run(["build", "--drafts"], in: bare.url) == 0)
    }

    @Test("the command line: KIND, options for the other kind, a bad ISBN or year exit 64; no site exits 1")
    func usage() async throws {
        let folder = try TemporaryFolder()
        for (arguments, message) in [
            (["new", "album", "X"], "KIND must be movie (or film), book or tv, not \"album\""),
            (["new", "tv", "X", "--isbn", "9781590171998"], "--isbn is for books, not series"),
            (["new", "movie", "X", "--isbn", "9781590171998"], "--isbn is for books, not films"),
            (["new", "book", "X", "--director", "Y"], "--director is for films, not books"),
            (["new", "book", "X", "--isbn", "12-34"], "--isbn must be an ISBN of 10 or 13 digits, not \"12-34\""),
            (["new", "movie", "X", "--year", "20266"], "--year must be a whole number from 1 to 9999, not \"20266\""),
            (["new", "movie"], "missing argument"),
        ] {
            let console = TestConsole()
            #expect(await console.run(arguments, in: folder.url) == 64, "\(arguments)")
            #expect(console.err.hasPrefix("sitegen new: \(message)\nUsage: sitegen new KIND"), "\(console.err)")
        }
        let console = TestConsole()
        #expect(await console.run(["new", "movie", "X"], in: folder.url) == 1)
        #expect(
            console.err
                == "sitegen new: site.yml:1:1: no site.yml here: is \(folder.url.standardizedFileURL.path) a site folder?\n"
        )
    }
}
