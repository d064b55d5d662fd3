import Foundation
import Mustache
import Testing

@testable import SiteGen

/// What a fetch says and stores of a server's text: control characters never reach a
/// terminal, a page or the cache.
@Suite("Cleaning what a fetch is given")
struct FetchCleaningTests {
    @Test("a path or key in an answer reaches an error with its control characters written as escapes")
    func controlCharactersInErrors() async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/7", .json(#"{"id": 7, "title": "Film", "poster_path": "/x\u001b]0;PWNED\u0007.png"}"#))
        fake.route(
            "/isbn/9780000000002.json",
            .json(#"{"title": "Book", "works": [{"key": "/works/OL1W\u001b]0;PWN\u0007"}]}"#))
        let cache = try ScratchFolder()
        let summary = try await FakeFetch.run(fake, cache: cache.url, [.tmdb(7), .isbn("9780000000002")])
        let messages = summary.failed.map(\.1.description)
        #expect(
            messages == [
                #"unexpected response: the answer names a path that is not one: "/works/OL1W\u{1B}]0;PWN\u{7}""#,
                #"unexpected response: the answer names a path that is not one: "w342/x\u{1B}]0;PWNED\u{7}.png""#,
            ])
        #expect(!messages.joined().utf8.contains { $0 < 0x20 || $0 == 0x7F })
        #expect(!FileManager.default.fileExists(atPath: cache.url.path))
    }

    @Test(
        "a TMDB date is stored only when it is a real one; control characters leave no text of an answer",
        arguments: [
            (#""2001\u001b[31m-01-01""#, nil), (#""<i>2001</i>""#, nil), (#""2001-02-29""#, nil),
            (#""0000-01-01""#, nil), (#""2001-1-1""#, nil), (#""2000-02-29""#, "2000-02-29"),
            (#""0010-12""#, "0010-12"), (#""""#, nil), ("null", nil),
        ] as [(String, String?)])
    func tmdbDates(written: String, stored: String?) async throws {
        let fake = try FakeProviders()
        fake.route(
            "/3/tv/7",
            .json(
                #"{"id": 7, "name": "Show", "first_air_date": \#(written), "last_air_date": \#(written), "#
                    + #""genres": [{"name": "Dra\u009bma"}], "networks": [{"name": "N\u007fet"}]}"#))
        let cache = try ScratchFolder()
        let summary = try await FakeFetch.run(fake, cache: cache.url, [.tmdbSeries(7)])
        let entry = try #require(summary.fetched.first?.1, "\(summary.failed)")
        #expect(entry.releaseDate == stored)
        #expect(entry.series?.lastAirDate == stored)
        #expect(entry.year == stored.flatMap(WorkMetadata.year(ofDate:)))
        #expect(entry.genres == ["Drama"])
        #expect(entry.series?.networks == ["Net"])
        #expect(try MetadataCache(folder: cache.url).entry(for: .tmdbSeries(7)) == entry)
        let json = try #require(try cache.contents()["tv/tmdb-tv-7.json"])
        #expect(!json.contains("\\u"), "\(json)")
    }

    @Test(
        "a Naver pubdate the calendar has not is left out; an ISBN, an id or a publisher loses its control characters")
    func naverDates() async throws {
        let fake = try FakeProviders()
        fake.route(
            "/v1/search/book_adv.json",
            .json(
                #"{"items": [{"title": "Book", "pubdate": "20071301", "isbn": "9780000000002\u0007", "#
                    + #""publisher": "Pub\u009blisher"}]}"#))
        let cache = try ScratchFolder()
        let summary = try await FakeFetch.run(
            fake, cache: cache.url, [.isbn("9780000000002")],
            credentials: ["NAVER_CLIENT_ID": "id", "NAVER_CLIENT_SECRET": "secret"])
        let entry = try #require(summary.fetched.first?.1, "\(summary.failed)")
        #expect(
            entry
                == WorkMetadata(
                    kind: "book", source: "naver", id: "9780000000002", title: "Book", publisher: "Publisher",
                    isbn: "9780000000002"))
        #expect(NaverBookSearch.Item.date(fromCompact: "20070229") == nil)
        #expect(NaverBookSearch.Item.date(fromCompact: "20040229") == "2004-02-29")
        #expect(NaverBookSearch.Item.date(fromCompact: "200712") == "2007-12")
        #expect(NaverBookSearch.Item.date(fromCompact: "200700") == nil)
    }

    @Test(
        "an Open Library date is read as written, and stored only when it is a real one",
        arguments: [
            ("March 1, 99999", nil), ("1 January 0010", "0010-01-01"), ("March 1, 2006", "2006-03-01"),
            ("February 30, 2006", nil), ("Mar 2006", "2006-03"), ("2006", "2006"), ("c. 1999", "1999"),
            ("30 Sep 1999", "1999-09-30"), ("2006-13-01", "2006"), ("Smarch 1, 2006", "2006"),
            ("1450", "1450"), ("2101", "2101"),
        ] as [(String, String?)])
    func openLibraryDates(written: String, stored: String?) async throws {
        let fake = try FakeProviders()
        fake.route("/isbn/9780000000002.json", .json(#"{"title": "Book", "publish_date": "\#(written)"}"#))
        let summary = try await FakeFetch.run(fake, cache: try ScratchFolder().url, [.isbn("9780000000002")])
        let entry = try #require(summary.fetched.first?.1, "\(summary.failed)")
        #expect(entry.releaseDate == stored)
        // The year is the stored date's, whatever it is (it was left out before 1500 and after 2099).
        #expect(entry.year == stored.flatMap { Int($0.prefix(4)) })
    }

    @Test("genres that can have no page are left out, and so are those that share a page; ten are kept")
    func genres() async throws {
        let fake = try FakeProviders()
        let kept = ["Drama", "C++", "..Noir"] + (1...7).map { "G\($0)" }
        let names =
            [
                "", " ", ".", "..", String(repeating: "x", count: 300), "Drama", "drama ", "C++", "DRAMA", "..Noir",
                "noir",
            ]
            + (1...200_000).map { "G\($0)" }
        let genres = names.map { #"{"name": "\#($0)"}"# }.joined(separator: ",")
        fake.route("/3/movie/7", .json(#"{"id": 7, "title": "Film", "genres": [\#(genres)]}"#))
        let cache = try ScratchFolder()
        let summary = try await FakeFetch.run(fake, cache: cache.url, [.tmdb(7)])
        #expect(summary.failed.isEmpty, "\(summary.failed)")
        #expect(summary.fetched.map(\.1.genres) == [kept])
        #expect(try MetadataCache(folder: cache.url).entry(for: .tmdb(7))?.genres == kept)
        #expect(WorkMetadata.genreLimit == 10)
    }

    @Test(
        "a genre edited into an entry that can have no page is an error at the entry",
        arguments: [
            ("", #"the genre "" has no letters or digits, so it can have no page"#),
            ("..", #"the genre ".." has no letters or digits, so it can have no page"#),
            (
                String(repeating: "x", count: 300),
                #"the genre "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…" is too long: its page name would be 300 bytes, "#
                    + "and at most 200 are allowed"
            ),
        ])
    func handEditedGenres(genre: String, message: String) throws {
        let scratch = try ScratchFolder()
        let lookup = Lookup.tmdb(1)
        try scratch.write(
            lookup.path,
            #"{"kind": "movie", "source": "tmdb", "id": "1", "title": "A", "genres": ["Drama", "\#(genre)"]}"#)
        #expect(
            throws: Diagnostic(
                "not a valid metadata file: \(message)",
                // At the genre.
                at: SourceLocation(path: "metadata/\(lookup.path)", line: 1, column: 82))
        ) {
            try MetadataCache(folder: scratch.url).entry(for: lookup)
        }
    }
}
