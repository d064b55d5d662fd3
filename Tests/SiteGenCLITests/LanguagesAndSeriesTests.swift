import Foundation
import Testing

/// Sites in any language, books from before the common era and TV series, end to end
/// through `sitegen build` and `sitegen fetch` (the release binary under `Scripts/test`).
@Suite("Languages, old books and TV series")
struct LanguagesAndSeriesTests {
    @Test(
        "a German site: dates, numbers and <html lang> follow it; fixed words fall back to English; labels: replaces any"
    )
    func germanSite() async throws {
        var files = [
            "site.yml": "title: Kino\nbase_url: https://example.org/\nlanguage: de\n",
            "content/movies/m.md": page("title: M\ndate: 2026-03-14\nrating: 4.5"),
            "content/movies/nosferatu.md": page("title: Nosferatu\ndate: 2025-11-02"),
        ]
        let plain = try TemporaryFolder(files)
        #expect(await TestConsole().run(["build"], in: plain.url) == 0)
        let page = try read(plain, "public/movies/m/index.html")
        #expect(page.contains(#"<html lang="de">"#))
        #expect(page.contains(#"<time datetime="2026-03-14">14. März 2026</time>"#))
        #expect(page.contains(#"aria-label="4,5 out of 5 stars""#))
        #expect(try headings(read(plain, "public/movies/by-rating/index.html")) == ["4,5 stars", "Not rated"])
        #expect(try read(plain, "public/movies/index.html").contains("2 reviews"))

        files["site.yml"]! += """
            labels:
              notRated: Nicht bewertet
              reviewCount: "{count} Rezensionen"
              reviewCountOne: "{count} Rezension"
              ratingLabel: "{rating} von 5 Sternen"
              ratingHeading: "{rating} Sterne"

            """
        let labelled = try TemporaryFolder(files)
        let console = TestConsole()
        #expect(await console.run(["build"], in: labelled.url) == 0)
        #expect(console.err == "")
        #expect(try read(labelled, "public/movies/m/index.html").contains(#"aria-label="4,5 von 5 Sternen""#))
        #expect(try headings(read(labelled, "public/movies/by-rating/index.html")) == ["4,5 Sterne", "Nicht bewertet"])
        #expect(try read(labelled, "public/movies/index.html").contains("2 Rezensionen"))
    }

    @Test("a bad language tag, an unknown label name or a placeholder a phrase does not have is an error at its place")
    func languageErrors() async throws {
        let site = try TemporaryFolder([
            "site.yml": """
            title: T
            base_url: https://example.org/
            language: pt_BR
            labels:
              notRatd: Não avaliado
              reviewCount: "{cnt} críticas"
              colour: red

            """,
            "content/movies/x.md": page("title: X\ndate: 2024-01-01"),
        ])
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 1)
        #expect(
            console.err == """
                site.yml:3:11: "language" must be a language tag such as en, de, pt-BR or zh-Hant, not "pt_BR" (write pt-BR)
                site.yml:5:3: "notRatd" is not a label; did you mean "notRated"?
                site.yml:6:16: "reviewCount" has no placeholder {cnt}: it takes {count}
                site.yml:7:3: "colour" is not a label (the README lists them under Labels)
                loading the site failed: 4 errors

                """)
        try site.write("site.yml", "title: T\nbase_url: https://example.org/\nlanguage: pt-br\n")
        try site.write("content/movies/x.md", page("title: X\ndate: 2024-01-01\nlanguage: xx"))
        let review = TestConsole()
        #expect(await review.run(["build"], in: site.url) == 1)
        #expect(
            review.err == """
                content/movies/x.md:4:11: "language" must be a language tag such as en, de, pt-BR or zh-Hant: "xx" is not a language ICU knows
                loading the site failed: 1 error

                """)
        try site.write("content/movies/x.md", page("title: X\ndate: 2024-01-01\nlanguage: zh-hant"))
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let page = try read(site, "public/movies/x/index.html")
        #expect(page.contains(#"<html lang="zh-Hant">"#))
        #expect(try read(site, "public/index.html").contains(#"<html lang="pt-BR">"#))
    }

    @Test("by-title groups: Japanese kana by the row of the syllabary, Han by character, Latin by folded letter")
    func japaneseTitles() async throws {
        let site = try TemporaryFolder([
            "site.yml": "title: 映画\nbase_url: https://example.org/\nlanguage: ja\n",
            "content/movies/a.md": page("title: さくら\ndate: 2024-01-01"),
            "content/movies/b.md": page("title: カメラを止めるな!\ndate: 2024-01-02"),
            "content/movies/c.md": page("title: がっこうの怪談\ndate: 2024-01-03"),
            "content/movies/d.md": page("title: 東京物語\ndate: 2024-01-04"),
            "content/movies/e.md": page("title: Élan\ndate: 2024-01-05"),
            "content/movies/f.md": page("title: ﾊﾟﾌﾟﾘｶ\ndate: 2024-01-06"),
        ])
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let list = try read(site, "public/movies/by-title/index.html")
        #expect(headings(list) == ["E", "か", "さ", "は", "東"])
        #expect(list.contains(#"<time datetime="2024-01-06">2024年1月6日</time>"#))
    }

    @Test("by-title groups follow the language's alphabet: Å is its own letter in Swedish, an A in English")
    func swedishTitles() async throws {
        var files = [
            "site.yml": "title: Film\nbase_url: https://example.org/\nlanguage: sv\n",
            "content/movies/a.md": page("title: Änglagård\ndate: 2024-01-01"),
            "content/movies/b.md": page("title: Åsa-Nisse\ndate: 2024-01-02"),
            "content/movies/c.md": page("title: Apflickorna\ndate: 2024-01-03"),
            "content/movies/d.md": page("title: Zero\ndate: 2024-01-04"),
        ]
        let swedish = try TemporaryFolder(files)
        #expect(await TestConsole().run(["build"], in: swedish.url) == 0)
        #expect(try headings(read(swedish, "public/movies/by-title/index.html")) == ["A", "Z", "Å", "Ä"])
        files["site.yml"] = "title: Film\nbase_url: https://example.org/\n"
        let english = try TemporaryFolder(files)
        #expect(await TestConsole().run(["build"], in: english.url) == 0)
        #expect(try headings(read(english, "public/movies/by-title/index.html")) == ["A", "Z"])
    }

    @Test("a book's year may be before the common era: shown as BCE, sorted last in by-year lists; there is no year 0")
    func negativeYears() async throws {
        var files = [
            "site.yml": "title: Shelf\nbase_url: https://example.org/\n",
            "content/books/odyssey.md": page("title: The Odyssey\ndate: 2024-01-01\nyear: -700"),
            "content/books/stoner.md": page("title: Stoner\ndate: 2024-01-02\nyear: 1965"),
            "content/books/aeneid.md": page("title: The Aeneid\ndate: 2024-01-03\nyear: -19"),
        ]
        let english = try TemporaryFolder(files)
        #expect(await TestConsole().run(["build"], in: english.url) == 0)
        let list = try read(english, "public/books/by-year/index.html")
        #expect(headings(list) == ["1965", "19 BCE", "700 BCE"])
        #expect(list.contains(#"<span>700 BCE</span>"#))
        #expect(try read(english, "public/books/odyssey/index.html").contains("<dd lang=\"en\">700 BCE</dd>"))

        files["site.yml"] = "title: 서가\nbase_url: https://example.org/\nlanguage: ko\n"
        let korean = try TemporaryFolder(files)
        #expect(await TestConsole().run(["build"], in: korean.url) == 0)
        #expect(try headings(read(korean, "public/books/by-year/index.html")) == ["1965년", "기원전 19년", "기원전 700년"])

        files["content/books/odyssey.md"] = page("title: The Odyssey\ndate: 2024-01-01\nyear: 0")
        files["content/movies/old.md"] = page("title: Old\ndate: 2024-01-01\nyear: -5")
        let wrong = try TemporaryFolder(files)
        let console = TestConsole()
        #expect(await console.run(["build"], in: wrong.url) == 1)
        #expect(
            console.err == """
                content/books/odyssey.md:4:7: "year" must be a whole number from -9999 to 9999 other than 0 (-700 is 700 BCE), not "0"
                content/movies/old.md:4:7: "year" must be a whole number from 1 to 9999, not "-5"
                loading the site failed: 2 errors

                """)
    }

    @Test(
        "kind: tv sections: fetch reads TMDB's /tv/{id} and /search/tv; pages show creators, networks, air dates and seasons; JSON-LD says TVSeries"
    )
    func series() async throws {
        let fake = try FakeProviders()
        fake.route("/3/tv/1396", .json(Self.breakingBad))
        fake.route(
            "/3/search/tv", .json(#"{"page": 1, "results": [{"id": 1438, "name": "The Wire"}], "total_results": 1}"#))
        fake.route("/3/tv/1438", .json(Self.theWire))
        for width in [342, 780] {
            fake.route(
                "/t/p/w\(width)/bb.jpg",
                .bytes(ProviderFixtures.jpeg(width: width, height: width * 3 / 2), contentType: "image/jpeg"))
        }
        let site = try TemporaryFolder([
            "site.yml": "title: Telly\nbase_url: https://example.org/\n",
            "content/tv/breaking-bad.md": page("title: Breaking Bad\ndate: 2025-05-01\nrating: 5\ntmdb: 1396"),
            "content/shows/_index.md": page("title: Shows\nkind: tv"),
            "content/shows/the-wire.md": page("title: The Wire\ndate: 2025-06-01\nyear: 2002\ncreator: David Simon"),
        ])
        let fetch = TestConsole()
        let variables = fake.environment.merging(["TMDB_API_KEY": "k3y"]) { $1 }
        #expect(await fetch.run(["fetch"], in: site.url, variables: variables) == 0)
        #expect(fetch.err == "")
        let search = try #require(fake.requests.first { $0.path == "/3/search/tv" })
        #expect(search.parameters["query"] == "The Wire")
        #expect(search.parameters["first_air_date_year"] == "2002")
        let series = try #require(fake.requests.first { $0.path == "/3/tv/1396" })
        #expect(series.parameters["append_to_response"] == "credits")
        #expect(series.parameters["language"] == "en-US")
        let cache = try FileManager.default.subpathsOfDirectory(
            atPath: site.url.appendingPathComponent("metadata").path)
        #expect(
            Set(cache).isSuperset(of: [
                "tv/tmdb-tv-1396.json", "tv/search-tv-the-wire-2002.json", "images/tmdb-tv-1396-w342.jpg",
                "images/tmdb-tv-1396-w780.jpg",
            ]))

        let build = TestConsole()
        #expect(await build.run(["build"], in: site.url) == 0)
        #expect(build.err == "")
        let page = try read(site, "public/tv/breaking-bad/index.html").replacing(/>\n\s*</, with: "><")
        for row in [
            ("Created by", "Vince Gilligan"), ("Networks", "AMC"), ("First aired", "January 20, 2008"),
            ("Last aired", "September 29, 2013"), ("Seasons", "5 seasons, 62 episodes"),
            ("Cast", "Bryan Cranston (Walter White), Aaron Paul (Jesse Pinkman)"),
        ] {
            #expect(page.contains("<dt>\(row.0)</dt><dd lang=\"en\">\(row.1)</dd>"), "\(row)")
        }
        #expect(page.contains(#"alt="Poster of Breaking Bad""#))
        #expect(
            page.contains(
                #"{"@type":"TVSeries","name":"Breaking Bad","creator":[{"@type":"Person","name":"Vince Gilligan"}],"#
                    + #""startDate":"2008-01-20","numberOfSeasons":5,"image":"https://example.org/images/tmdb-tv-1396-w780.jpg","#
                    + #""sameAs":"https://www.themoviedb.org/tv/1396"}"#))
        let wire = try read(site, "public/shows/the-wire/index.html").replacing(/>\n\s*</, with: "><")
        #expect(wire.contains("<dt>Created by</dt><dd lang=\"en\">David Simon</dd>"))
        #expect(wire.contains("<dt>Seasons</dt><dd lang=\"en\">1 season</dd>"))
        #expect(wire.contains(#""sameAs":"https://www.themoviedb.org/tv/1438""#))
    }

    @Test("Korean labels for a TV series")
    func koreanSeries() async throws {
        let site = try TemporaryFolder([
            "site.yml": "title: 드라마\nbase_url: https://example.org/\nlanguage: ko\n",
            "content/tv/wire.md": page("title: 더 와이어\ndate: 2025-06-01\ntmdb: 1438"),
            "metadata/tv/tmdb-tv-1438.json": """
            {"kind": "tv", "source": "tmdb", "id": "1438", "title": "더 와이어", "release_date": "2002-06-02",
             "series": {"creators": ["David Simon"], "networks": ["HBO"], "seasons": 5, "episodes": 60}}
            """,
        ])
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let page = try read(site, "public/tv/wire/index.html").replacing(/>\n\s*</, with: "><")
        #expect(page.contains("<dt>제작</dt><dd lang=\"en\">David Simon</dd>"))
        #expect(page.contains("<dt>방송사</dt><dd lang=\"en\">HBO</dd>"))
        #expect(page.contains("<dt>첫 방송</dt><dd lang=\"ko\">2002년 6월 2일</dd>"))
        #expect(page.contains("<dt>시즌</dt><dd lang=\"ko\">시즌 5개, 에피소드 60편</dd>"))
    }

    /// `GET /3/tv/1396?append_to_response=credits`, shaped like TMDB's (with fields sitegen ignores).
    static let breakingBad = """
        {
          "backdrop_path": "/tsRy63Mu5cu8etL1X7ZLyf7UP1M.jpg",
          "created_by": [{"id": 66633, "credit_id": "52542286760ee31328001a7b", "name": "Vince Gilligan", "gender": 2}],
          "episode_run_time": [45, 47],
          "first_air_date": "2008-01-20",
          "genres": [{"id": 18, "name": "Drama"}, {"id": 80, "name": "Crime"}],
          "id": 1396,
          "in_production": false,
          "last_air_date": "2013-09-29",
          "name": "Breaking Bad",
          "networks": [{"id": 174, "logo_path": "/alqLicR1ZMHMaZGP3xRQxn9sq7p.png", "name": "AMC", "origin_country": "US"}],
          "number_of_episodes": 62,
          "number_of_seasons": 5,
          "original_name": "Breaking Bad",
          "overview": "Walter White, a chemistry teacher, turns to making methamphetamine.",
          "poster_path": "/bb.jpg",
          "seasons": [{"season_number": 1, "episode_count": 7}],
          "status": "Ended",
          "credits": {
            "cast": [
              {"name": "Aaron Paul", "character": "Jesse Pinkman", "order": 1},
              {"name": "Bryan Cranston", "character": "Walter White", "order": 0}
            ],
            "crew": [{"name": "Vince Gilligan", "job": "Executive Producer"}]
          }
        }
        """

    /// A series with nothing optional: no poster, no networks, no credits, an empty last air date.
    static let theWire = """
        {"id": 1438, "name": "The Wire", "original_name": "The Wire", "first_air_date": "2002-06-02",
         "last_air_date": "", "number_of_seasons": 1, "poster_path": null, "created_by": [], "networks": []}
        """
}

/// A Markdown file with front matter and a body.
private func page(_ frontMatter: String, body: String = "Text.") -> String {
    "---\n\(frontMatter)\n---\n\(body)\n"
}

private func read(_ folder: borrowing TemporaryFolder, _ path: String) throws -> String {
    try String(contentsOf: folder.url.appendingPathComponent(path), encoding: .utf8)
}

/// The group headings of a list page, in order.
private func headings(_ page: String) -> [String] {
    page.matches(of: /class="group-heading" id="[^"]*" lang="[^"]*">([^<]*)<\/h2>/).map { String($0.output.1) }
}
