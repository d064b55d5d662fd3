import Foundation
import Mustache
import Testing

@testable import SiteGen

@Suite("Loading reviews and site settings")
struct ReviewLoadingTests {
    @Test("a film review loads every field; unknown keys reach extra as typed values")
    func movieFields() throws {
        let site = InMemorySite([
            "content/movies/memories-of-murder.md": reviewFile(
                """
                title: Memories of Murder
                date: 2024-05-02
                rating: 4.5
                tags: [crime, korea]
                summary: Rain, and a field.
                language: ko
                year: 2003
                original_title: 살인의 추억
                director: Bong Joon-ho
                tmdb: 11423
                draft: false
                slug: memories
                watched_with: "my sister"
                viewings: 3
                cast: [Song Kang-ho, Kim Sang-kyung]
                """, body: "The *rain* never stops.\n\nSecond paragraph.")
        ])
        let content = try site.load()
        let review = try #require(content.reviews.first)
        #expect(content.reviews.count == 1)
        #expect(review.source == "content/movies/memories-of-murder.md")
        #expect(review.section == "movies")
        #expect(review.slug == "memories")
        #expect(review.path == "movies/memories/")
        #expect(review.title == "Memories of Murder")
        #expect(review.date == Day(year: 2024, month: 5, day: 2))
        #expect(review.rating == Rating(halves: 9))
        #expect(review.tags == ["crime", "korea"])
        #expect(review.draft == false)
        #expect(review.summary == "Rain, and a field.")
        #expect(review.language == "ko")
        #expect(
            review.work
                == Work(kind: .movie, year: 2003, originalTitle: "살인의 추억", creator: "Bong Joon-ho", tmdbID: 11423))
        #expect(
            review.extra == [
                "watched_with": .string("my sister"), "viewings": .int(3),
                "cast": .array([.string("Song Kang-ho"), .string("Kim Sang-kyung")]),
            ])
        #expect(review.body.html == "<p>The <em>rain</em> never stops.</p>\n<p>Second paragraph.</p>\n")
        #expect(review.body.firstParagraph == "The rain never stops.")
        #expect(review.body.wordCount == 6)
        #expect(content.sections == [ReviewSection(name: "movies", title: "Movies", kind: .movie)])
    }

    @Test("a day is written YYYY-MM-DD, zero-padded, and reads back the same")
    func dayText() {
        #expect(Day(year: 2024, month: 5, day: 2)?.description == "2024-05-02")
        #expect(Day(year: 999, month: 12, day: 31)?.description == "0999-12-31")
        #expect(Day(year: 2024, month: 11, day: 10)?.description == "2024-11-10")
        #expect(Day("0999-12-31").map(\.description) == "0999-12-31")
    }

    @Test("a book review reads author, publisher and a normalized ISBN; a single tag is a list of one")
    func bookFields() throws {
        let site = InMemorySite([
            "content/books/stoner.md": reviewFile(
                """
                title: Stoner
                date: 2023-11-20
                tags: campus novel
                year: 1965
                author: John Williams
                publisher: NYRB Classics
                isbn: 978-1-59017-199-7
                """)
        ])
        let review = try #require(try site.load().reviews.first)
        #expect(review.slug == "stoner")
        #expect(review.rating == nil)
        #expect(review.tags == ["campus novel"])
        #expect(
            review.work
                == Work(
                    kind: .book, year: 1965, creator: "John Williams", isbn: "9781590171997",
                    publisher: "NYRB Classics"))
        #expect(review.extra.isEmpty)
    }

    @Test("a title that YAML would read as a number stays the title as written")
    func numericTitle() throws {
        let site = InMemorySite(["content/movies/2046.md": reviewFile("title: 2046\ndate: 2024-02-29")])
        let review = try #require(try site.load().reviews.first)
        #expect(review.title == "2046")
        #expect(review.slug == "2046")
        #expect(review.date == Day(year: 2024, month: 2, day: 29))
    }

    @Test(
        "each bad field gives its own message at the value's line and column",
        arguments: [
            ("date: 2024-01-01", #"2:1: missing required field "title""#),
            ("title: X", #"2:1: missing required field "date""#),
            ("title: \"  \"\ndate: 2024-01-01", #"2:8: "title" is empty"#),
            ("title: \"\u{3000}\\t\u{00A0}\"\ndate: 2024-01-01", #"2:8: "title" is empty"#),
            ("title: X\ndate: 2024-13-01", #"3:7: "date" must be a date written YYYY-MM-DD, not "2024-13-01""#),
            ("title: X\ndate: 2023-02-29", #"3:7: "date" must be a date written YYYY-MM-DD, not "2023-02-29""#),
            ("title: X\ndate: next Tuesday", #"3:7: "date" must be a date written YYYY-MM-DD, not "next Tuesday""#),
            ("title: X\ndate: [2024]", #"3:7: "date" must be a date written YYYY-MM-DD, not a list"#),
            (
                "title: X\ndate: 2024-01-01\nrating: 7",
                #"4:9: "rating" must be a number from 0 to 5 in half steps (like 3.5), not "7""#
            ),
            (
                "title: X\ndate: 2024-01-01\nrating: 3.3",
                #"4:9: "rating" must be a number from 0 to 5 in half steps (like 3.5), not "3.3""#
            ),
            (
                "title: X\ndate: 2024-01-01\nrating: -0.5",
                #"4:9: "rating" must be a number from 0 to 5 in half steps (like 3.5), not "-0.5""#
            ),
            (
                "title: X\ndate: 2024-01-01\ntags:\n  genre: drama",
                #"5:3: "tags" must be a list like [a, b], not a mapping"#
            ),
            ("title: X\ndate: 2024-01-01\ntags: [a, [b]]", #"4:11: each of "tags" must be text, not a list"#),
            ("title: X\ndate: 2024-01-01\ntags: [a, \"\"]", #"4:11: each of "tags" must not be empty"#),
            (
                "title: X\ndate: 2024-01-01\ntags: [a, null]",
                #"4:11: each of "tags" must be text, not null: write "null" in quotes to mean those letters"#
            ),
            (
                "title: X\ndate: 2024-01-01\ntags:\n  - ~",
                #"5:5: each of "tags" must be text, not null: write "~" in quotes to mean those letters"#
            ),
            ("date: 2024-01-01\nrating: 3\ntitle: ~", #"4:8: "title" is empty"#),
            ("title: X\ndate:\nrating: 3", #"3:6: "date" is empty"#),
            (
                "title: X\ndate: 2024-01-01\ntags:\n" + (1...101).map { "  - t\($0)\n" }.joined(),
                #"105:5: a review has at most 100 tags, and this is tag 101 (every tag's feed holds the review with all its tags, so the site would grow with the square of them)"#
            ),
            ("title: X\ndate: 2024-01-01\ntags: [ok, \"!!\"]", #"4:12: tag "!!" has no letters or digits"#),
            (
                "title: X\ndate: 2024-01-01\nslug: a/b",
                #"4:7: "slug" must be one path segment (letters, digits, "-" or "_"), not "a/b""#
            ),
            (
                "title: X\ndate: 2024-01-01\nslug: ../up",
                #"4:7: "slug" must be one path segment (letters, digits, "-" or "_"), not "../up""#
            ),
            ("title: X\ndate: 2024-01-01\ndraft: maybe", #"4:8: "draft" must be true or false, not "maybe""#),
            ("title: X\ndate: 2024-01-01\nyear: 0", #"4:7: "year" must be a whole number from 1 to 9999, not "0""#),
            (
                "title: X\ndate: 2024-01-01\nyear: 10000",
                #"4:7: "year" must be a whole number from 1 to 9999, not "10000""#
            ),
            ("title: X\ndate: 2024-01-01\ndirector: [a, b]", #"4:11: "director" must be text, not a list"#),
            ("title: X\ndate: 2024-01-01\ntitle: Y", #"4:1: duplicate key "title""#),
            (
                "title: [X\ndate: 2024-01-01",
                #"2:8: did not find expected ',' or ']' while parsing a flow sequence: the "[" that starts here is never closed with "]""#
            ),
        ])
    func badField(frontMatter: String, expected: String) {
        let site = InMemorySite(["content/movies/x.md": reviewFile(frontMatter)])
        #expect(site.problems() == ["content/movies/x.md:\(expected)"])
    }

    @Test(
        "a book's isbn is read without its hyphens and spaces",
        arguments: [
            ("978-0-14-143947-1", "9780141439471"), ("0 14 044913 x", "014044913X"), ("9788936433598", "9788936433598"),
        ])
    func isbnRead(written: String, read: String) throws {
        let site = InMemorySite(["content/books/x.md": reviewFile("title: X\ndate: 2024-01-01\nisbn: \"\(written)\"")])
        let review = try #require(try site.load().reviews.first)
        #expect(review.work.isbn == read)
    }

    @Test(
        "an isbn that is not one is an error at its value",
        arguments: [
            ("abc", #""abc""#), ("97801414394", #""97801414394""#), ("97801414394710", #""97801414394710""#),
            ("X014044913", #""X014044913""#), ("978014143947X", #""978014143947X""#),
            ("ISBN 9780141439471", #""ISBN 9780141439471""#), ("٩٧٨٠١٤١٤٣٩٤٧١", #""٩٧٨٠١٤١٤٣٩٤٧١""#),
            ("[9780141439471]", "a list"),
        ])
    func badISBN(written: String, shown: String) {
        let site = InMemorySite(["content/books/x.md": reviewFile("title: X\ndate: 2024-01-01\nisbn: \(written)")])
        #expect(
            site.problems() == [
                #"content/books/x.md:4:7: "isbn" must be an ISBN of 10 or 13 digits (hyphens or spaces may part them), not "#
                    + shown
            ])
    }

    @Test("a file name with a control character is refused, and shown escaped so the message stays one line")
    func controlCharacterInFileName() {
        let site = InMemorySite(["content/movies/a\nb\u{1B}.md": reviewFile("title: X\ndate: 2024-01-01")])
        #expect(
            site.problems() == [
                #"content/movies/a\nb\u{1B}.md:1:1: a file name with a control character (such as a tab) is refused"#
            ])
    }

    @Test("control characters quoted in a message (an ESC from a file) are shown escaped; line breaks stay")
    func controlCharacterInMessage() {
        let located = Diagnostic(
            "the header has: Na\u{0}me, \u{1B}[2J, \u{9B}x", at: SourceLocation(path: "a.csv", line: 1, column: 2))
        #expect(located.description == #"a.csv:1:2: the header has: Na\u{0}me, \u{1B}[2J, \u{9B}x"#)
        #expect(
            Diagnostic("two\nlines\tand a bell \u{7}", severity: .error).description == "two\nlines\tand a bell \\u{7}")
    }

    @Test("front matter that is not a mapping says so")
    func notAMapping() {
        let site = InMemorySite(["content/movies/x.md": reviewFile("- title: X")])
        #expect(
            site.problems() == [
                #"content/movies/x.md:2:1: expected keys and values (like "title: …"), found a list"#,
                #"content/movies/x.md:2:1: missing required field "date""#,
                #"content/movies/x.md:2:1: missing required field "title""#,
            ])
    }

    @Test("whole-file problems are reported at 1:1; bad UTF-8 at its first bad byte")
    func fileProblems() throws {
        var site = InMemorySite([
            "content/movies/no-fence.md": "title: X\n",
            "content/movies/open.md": "---\ntitle: X\n",
        ])
        site.binary["content/movies/latin1.md"] = Data([0x2D, 0x2D, 0x2D, 0x0A, 0xE9, 0x0A])
        let error = try #require(throws: BuildError.self) { try site.load() }
        #expect(
            error.diagnostics.map(\.description) == [
                "content/movies/latin1.md:2:1: not valid UTF-8 text (byte 0xE9): save the file as UTF-8",
                #"content/movies/no-fence.md:1:1: no front matter: the file must start with a "---" line, then YAML, then "---""#,
                #"content/movies/open.md:1:1: front matter is not closed: add a "---" line after the YAML"#,
            ])
    }

    @Test("every problem in every file is reported at once, sorted by file, line and column")
    func allProblemsReported() throws {
        let site = InMemorySite([
            "content/movies/b.md": reviewFile("title: B\ndate: 2024-13-01\nrating: 7"),
            "content/movies/a.md": reviewFile("date: 2024-01-01\nrating: 3.3\ntags: {x: y}"),
            "content/books/c.md": reviewFile("title: C\ndate: 2024-01-01\nslug: c d"),
            "content/books/fine.md": reviewFile("title: Fine\ndate: 2024-01-01"),
        ])
        let error = try #require(throws: BuildError.self) { try site.load() }
        #expect(error.step == "loading the site")
        #expect(
            error.diagnostics.map(\.description) == [
                #"content/books/c.md:4:7: "slug" must be one path segment (letters, digits, "-" or "_"), not "c d""#,
                #"content/movies/a.md:2:1: missing required field "title""#,
                #"content/movies/a.md:3:9: "rating" must be a number from 0 to 5 in half steps (like 3.5), not "3.3""#,
                #"content/movies/a.md:4:7: "tags" must be a list like [a, b], not a mapping"#,
                #"content/movies/b.md:3:7: "date" must be a date written YYYY-MM-DD, not "2024-13-01""#,
                #"content/movies/b.md:4:9: "rating" must be a number from 0 to 5 in half steps (like 3.5), not "7""#,
            ])
        #expect(error.description.hasSuffix("\nloading the site failed: 6 errors"))
    }

    @Test("a key with a dot, which no template can read by name, is a warning that says so, listed or not")
    func dottedKey() throws {
        let (review, problems) = FrontMatter.readReview(
            Data(reviewFile("title: B\ndate: 2025-01-01\nwatched.with: my sister").utf8))
        #expect(review != nil)
        #expect(
            problems.map(\.description) == [
                "content/movies/fuzz.md:4:1: warning: \"watched.with\" is not a field sitegen knows, and templates "
                    + "cannot read it by name, as a \".\" separates names there (review.extra.watched.with reads "
                    + "watched and what is inside it): write it watched_with"
            ])
    }

    @Test("a tag written twice is kept once; two tags of two pages are both kept, whatever else repeats")
    func repeatedTags() throws {
        let (review, problems) = FrontMatter.readReview(
            Data(reviewFile("title: B\ndate: 2025-01-01\ntags: [Café, cafe, Noir, noir, CAFE]").utf8))
        #expect(problems.isEmpty)
        #expect(review?.tags == ["Café", "cafe", "Noir"])
    }

    @Test("two reviews with the same output path: the second file is reported, naming the first")
    func slugCollision() {
        let site = InMemorySite([
            "content/movies/parasite.md": reviewFile("title: Parasite\ndate: 2024-01-01"),
            "content/movies/gisaengchung.md": reviewFile("title: 기생충\ndate: 2024-01-02\nslug: parasite"),
        ])
        #expect(
            site.problems() == [
                "content/movies/parasite.md:1:1: /movies/parasite/ is also the output of content/movies/gisaengchung.md"
            ])
        // A slug written with a composed "é" and one with "e" and a combining accent: the
        // message says why two names that look the same are one address.
        let twins = InMemorySite([
            "content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01\nslug: caf\u{E9}"),
            "content/movies/b.md": reviewFile("title: B\ndate: 2024-01-02\nslug: cafe\u{301}"),
        ])
        #expect(
            twins.problems() == [
                "content/movies/b.md:4:7: /movies/cafe\u{301}/ is also the output of content/movies/a.md (the two "
                    + "addresses differ only in how accented letters are encoded, composed or decomposed, so they "
                    + "are one): rename one file or change its slug"
            ])
    }

    @Test("addresses that differ only in letter case are a warning at the later one, once per section")
    func letterCase() throws {
        let site = InMemorySite([
            "content/movies/heat.md": reviewFile("title: Heat\ndate: 2024-01-01"),
            "content/movies/x.md": reviewFile("title: X\ndate: 2024-01-02\nslug: Heat"),
            // A third spelling is compared with the first in path order, not with the second.
            "content/movies/z.md": reviewFile("title: Z\ndate: 2024-01-05\nslug: HEAT"),
            "content/About.md": reviewFile("title: About"),
            "content/about-me.md": reviewFile("title: About me\nslug: about"),
            "content/Books/_index.md": "---\nkind: book\n---\n",
            "content/Books/a.md": reviewFile("title: A\ndate: 2024-01-03"),
            "content/books/_index.md": "---\nkind: book\n---\n",
            "content/books/a.md": reviewFile("title: A\ndate: 2024-01-04"),
        ])
        let warning = { (path: String, other: String, source: String, at: String) in
            "\(at): warning: /\(path) differs from /\(other) (\(source)) only in letter case: on a case-insensitive "
                + "disk or host (macOS, Windows, some servers) one page would replace the other"
        }
        let found = try site.load().warnings.map(\.description)
        #expect(
            found == [
                warning("about/", "About/", "content/About.md", "content/about-me.md:3:7"),
                warning("books/", "Books/", "content/Books", "content/books:1:1"),
                warning("movies/Heat/", "movies/heat/", "content/movies/heat.md", "content/movies/x.md:4:7"),
                warning("movies/HEAT/", "movies/heat/", "content/movies/heat.md", "content/movies/z.md:4:7"),
            ], "\(found)")
    }

    @Test("a page or review cannot take a section's or sitegen's own path")
    func reservedPaths() {
        let site = InMemorySite([
            "content/movies.md": reviewFile("title: Films"),
            "content/tags.md": reviewFile("title: Tags"),
            "content/stats.md": reviewFile("title: My stats"),
            "content/mine.md": reviewFile("title: Mine\nslug: search"),
            "content/search/_index.md": "---\ntitle: Search\nkind: movie\n---\n",
            "content/about.md": reviewFile("title: About\nslug: feed.xml"),
            "content/movies/x.md": reviewFile("title: X\ndate: 2024-01-01"),
        ])
        #expect(
            site.problems() == [
                "content/about.md:3:7: \"slug\" must be one path segment (letters, digits, \"-\" or \"_\"), not \"feed.xml\"",
                // At the slug where one is written, else at the file (its name is the slug).
                "content/mine.md:3:7: /search/ is reserved for sitegen's own pages: choose another slug",
                "content/movies.md:1:1: /movies/ is also the output of content/movies",
                "content/search:1:1: the section folder name \"search\" cannot be used as a URL here",
                "content/stats.md:1:1: /stats/ is reserved for sitegen's own pages: choose another slug",
                "content/tags.md:1:1: /tags/ is reserved for sitegen's own pages: choose another slug",
            ])
    }

    @Test("two section folders whose names differ only in how an accent is encoded (NFC, NFD) are one address")
    func sectionsEncodedTwoWays() throws {
        // On disk: as strings the two names are equal, so an in-memory site could not hold both.
        let folder = try ScratchFolder()
        try folder.write("site.yml", "title: T\nbase_url: https://example.org/\n")
        try folder.write("content/caf\u{E9}/_index.md", "---\nkind: movie\n---\n")
        try folder.write("content/cafe\u{301}/_index.md", "---\nkind: book\n---\n")
        try folder.write("content/caf\u{E9}/x.md", reviewFile("title: X\ndate: 2024-01-01"))
        let names = try FileManager.default.contentsOfDirectory(
            atPath: folder.url.appendingPathComponent("content").path)
        #expect(names.count == 2)
        let error = #expect(throws: BuildError.self) { try SiteLoader(root: folder.url).load() }
        let scalars = { (text: String) in
            text.unicodeScalars.map { $0.value > 0x7F ? "<\($0.value)>" : String($0) }.joined()
        }
        #expect(
            error?.diagnostics.map { scalars($0.description) } == [
                "content/caf<233>:1:1: /caf<233>/ is also the address of the section content/cafe<769> (the "
                    + "names differ only in how their characters are encoded): rename one folder"
            ])
    }

    @Test(
        "a review cannot take the path of its section's sorted or paginated indexes",
        arguments: ["by-title", "by-rating", "by-year", "by-date", "page"])
    func sectionIndexPaths(slug: String) {
        let site = InMemorySite([
            "content/movies/x.md": reviewFile("title: X\ndate: 2024-01-01\nslug: \(slug)")
        ])
        #expect(
            site.problems() == [
                "content/movies/x.md:4:7: /movies/\(slug)/ is reserved for sitegen's own pages: choose another slug"
            ])
    }

    @Test("reserved paths are found as splitting the path into folders finds them")
    func reservedPathsMatchSplitting() {
        // Split at the slash bytes, as the file system does: a combining mark after a slash
        // does not hide it (splitting by characters did).
        func bySplitting(_ path: String) -> Bool {
            let second = path.utf8.split(separator: UInt8(ascii: "/")).dropFirst().first
            return SiteLoader.reservedNames.contains(String(path.dropLast())) || path.hasPrefix("page/")
                || SiteLoader.sectionIndexNames.contains(second.map { String(decoding: $0, as: UTF8.self) } ?? "")
        }
        let parts = [
            "", "/", "//", "tags", "page", "movies", "by-title", "by-rating", "feed.xml", "é", "x", "by-titles",
        ]
        var checked = 0
        for first in parts {
            for second in parts {
                for third in ["", "/", "x/", "\u{301}"] {
                    let path = first + "/" + second + "/" + third
                    #expect(SiteLoader.isReserved(path) == bySplitting(path), "\(path)")
                    #expect(SiteLoader.isReserved(first + third) == bySplitting(first + third), "\(first + third)")
                    checked += 1
                }
            }
        }
        #expect(SiteLoader.isReserved("movies/by-title/") && SiteLoader.isReserved("tags/"))
        #expect(!SiteLoader.isReserved("movies/by-titles/") && !SiteLoader.isReserved("movies/x/page/"))
        #expect(SiteLoader.isReserved("movies/by-title/\u{301}"))
        #expect(checked == 576)
    }

    @Test("a file name that cannot be a URL needs a slug")
    func badFileName() throws {
        let site = InMemorySite(["content/movies/my film.md": reviewFile("title: X\ndate: 2024-01-01")])
        #expect(
            site.problems() == [
                #"content/movies/my film.md:2:1: the file name "my film.md" cannot be a URL: rename it or set "slug""#
            ])
        let fixed = InMemorySite([
            "content/movies/my film.md": reviewFile("title: X\ndate: 2024-01-01\nslug: my-film")
        ])
        #expect(try fixed.load().reviews.map(\.path) == ["movies/my-film/"])
    }

    @Test("drafts are left out unless drafts are asked for")
    func drafts() throws {
        let site = InMemorySite([
            "content/movies/done.md": reviewFile("title: Done\ndate: 2024-01-01"),
            "content/movies/wip.md": reviewFile("title: WIP\ndate: 2024-01-02\ndraft: true"),
        ])
        #expect(try site.load().reviews.map(\.slug) == ["done"])
        #expect(try site.load(includeDrafts: true).reviews.map(\.slug) == ["done", "wip"])
        #expect(try site.load(includeDrafts: true).reviews.map(\.draft) == [false, true])
    }

    @Test("draft is true or false in YAML's spellings: true, True, TRUE, yes, Yes, YES and their opposites")
    func draftSpellings() throws {
        for (text, draft) in [
            ("true", true), ("True", true), ("TRUE", true), ("yes", true), ("Yes", true), ("YES", true),
            ("false", false), ("False", false), ("FALSE", false), ("no", false), ("No", false), ("NO", false),
        ] {
            let site = InMemorySite([
                "content/movies/x.md": reviewFile("title: X\ndate: 2024-01-02\ndraft: \(text)")
            ])
            #expect(try site.load(includeDrafts: true).reviews.map(\.draft) == [draft], "\(text)")
        }
    }

    @Test("a draft still has to be valid")
    func invalidDraft() {
        let site = InMemorySite(["content/movies/wip.md": reviewFile("title: WIP\ndate: soon\ndraft: true")])
        #expect(
            site.problems() == [#"content/movies/wip.md:3:7: "date" must be a date written YYYY-MM-DD, not "soon""#])
    }

    @Test("a section's title, when given, is not empty or blank (the menu showed an empty link)")
    func sectionTitle() throws {
        for (title, column) in [("''", 8), ("\"\\u200B \"", 8), ("\"  \"", 8)] {
            let site = InMemorySite([
                "content/movies/_index.md": reviewFile("title: \(title)"),
                "content/movies/x.md": reviewFile("title: X\ndate: 2024-01-01"),
            ])
            #expect(site.problems() == ["content/movies/_index.md:2:\(column): \"title\" is empty"], "\(title)")
        }
        let untitled = InMemorySite([
            "content/movies/_index.md": reviewFile("title: ~"),
            "content/movies/x.md": reviewFile("title: X\ndate: 2024-01-01"),
        ])
        #expect(untitled.problems() == [])
    }

    @Test("serve's reading of a review out of reach (its folder listed but not searched) fails as the build's does")
    func unsearchableSection() throws {
        var site = InMemorySite([
            "content/movies/x.md": reviewFile("title: X\ndate: 2024-01-01"),
            "content/movies/heat": "a file where a bundle's folder was",
        ])
        let content = try site.load()
        let reread = { (site: InMemorySite, source: String) in
            site.loader().reloadReview(
                source, section: content.sections[0], config: content.config, links: MarkdownLinks(basePath: "/"))
        }
        // Gone, or no folder to hold it any more: nothing to report.
        #expect(reread(site, "content/movies/gone.md").0 == nil)
        #expect(reread(site, "content/movies/gone.md").1.isEmpty)
        #expect(reread(site, "content/movies/heat/index.md").1.isEmpty)
        site.unsearchable = ["content/movies"]
        let expected = "content/movies/x.md:1:1: cannot read: Permission denied"
        #expect(site.problems() == [expected])
        let (review, problems, _) = reread(site, "content/movies/x.md")
        #expect(review == nil)
        #expect(problems.map(\.description) == [expected])

        // A page bundle out of reach is its review's error, not a folder ignored with a warning;
        // a folder without index.md is still ignored.
        var bundles = InMemorySite([
            "content/movies/2046/index.md": reviewFile("title: 2046\ndate: 2024-01-01"),
            "content/movies/stills/a.txt": "not a review",
        ])
        bundles.unsearchable = ["content/movies/2046"]
        #expect(bundles.problems() == ["content/movies/2046/index.md:1:1: cannot read: Permission denied"])
        bundles.unsearchable = []
        let loaded = try bundles.loader().load()
        #expect(loaded.reviews.map(\.title) == ["2046"])
        #expect(loaded.warnings.map(\.location.path) == ["content/movies/stills"])
    }

    @Test("an empty _index.md (nothing, blank lines, a byte-order mark) means the defaults, or asks for the kind")
    func emptySectionIndex() throws {
        for empty in ["", "\n\n", "\u{FEFF}", " \r\n\t"] {
            let movies = InMemorySite([
                "content/movies/_index.md": empty,
                "content/movies/x.md": reviewFile("title: X\ndate: 2024-01-01"),
            ])
            let content = try movies.load()
            #expect(content.sections == [ReviewSection(name: "movies", title: "Movies", kind: .movie)], "\(empty)")
            #expect(content.reviews.map(\.title) == ["X"])
            let shows = InMemorySite([
                "content/shows/_index.md": empty,
                "content/shows/x.md": reviewFile("title: X\ndate: 2024-01-01"),
            ])
            #expect(
                shows.problems() == [
                    #"content/shows/_index.md:1:1: empty: section "shows" needs front matter saying its kind ("kind: movie", "kind: book" or "kind: tv", between "---" lines)"#
                ])
        }
        // Text without front matter is not empty: it still asks for the front matter.
        let text = InMemorySite(["content/movies/_index.md": "Films I saw.\n"])
        #expect(text.problems().first?.hasPrefix("content/movies/_index.md:1:1: no front matter") == true)
    }

    @Test("an _index.md with errors does not hide its section's reviews' errors, when the section's kind is known")
    func sectionErrorsBesideReviews() throws {
        // Links to its reviews and to itself are not broken: only its intro is.
        let movies = InMemorySite([
            "content/movies/_index.md": reviewFile("weight: x"),
            "content/movies/x.md": reviewFile("title: X\ndate: someday"),
            "content/movies/y.md": reviewFile("title: Y\ndate: 2024-01-01"),
            "content/books/b.md": reviewFile("title: B\ndate: 2024-01-01", body: "[Y](../movies/y.md)"),
            "content/about.md": reviewFile("title: About", body: "[Films](movies/_index.md)"),
        ])
        #expect(
            movies.problems() == [
                #"content/movies/_index.md:2:9: "weight" must be a whole number from -1000 to 1000, not "x""#,
                #"content/movies/x.md:3:7: "date" must be a date written YYYY-MM-DD, not "someday""#,
            ])
        // The kind the file says, read though another field is wrong.
        let shows = InMemorySite([
            "content/shows/_index.md": reviewFile("kind: tv\nsort: sideways"),
            "content/shows/x.md": reviewFile("title: X\ndate: 2024-01-01\ntmdb: zero"),
        ])
        let problems = shows.problems()
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.first?.hasPrefix("content/shows/_index.md:3:7: \"sort\" must be one of") == true)
        #expect(problems.last?.hasPrefix("content/shows/x.md:4:7: \"tmdb\" must be") == true, "\(problems)")
        // No kind to check them as: the section's error alone.
        let unknown = InMemorySite([
            "content/shows/_index.md": reviewFile("kind: serial"),
            "content/shows/x.md": reviewFile("title: X\ndate: someday"),
        ])
        let kindError = #"content/shows/_index.md:2:7: "kind" must be one of "movie", "book", "tv", not "serial""#
        #expect(unknown.problems() == [kindError])
    }

    @Test("a section other than movies and books needs a kind in _index.md")
    func sectionKind() throws {
        let missing = InMemorySite(["content/shows/x.md": reviewFile("title: X\ndate: 2024-01-01")])
        #expect(
            missing.problems() == [
                #"content/shows:1:1: section "shows" needs a kind: add content/shows/_index.md with "kind: movie", "kind: book" or "kind: tv""#
            ])
        let noKind = InMemorySite([
            "content/shows/_index.md": reviewFile("title: Shows"),
            "content/shows/x.md": reviewFile("title: X\ndate: 2024-01-01"),
        ])
        #expect(
            noKind.problems() == [
                #"content/shows/_index.md:2:1: missing "kind": say "kind: movie", "kind: book" or "kind: tv""#
            ])
        let badIndex = InMemorySite([
            "content/shows/_index.md": reviewFile("title: Shows\nkind: serial\nsorting: title\nweight: x")
        ])
        #expect(
            badIndex.problems() == [
                #"content/shows/_index.md:3:7: "kind" must be one of "movie", "book", "tv", not "serial""#,
                #"content/shows/_index.md:4:1: "sorting" is not a field of _index.md (its fields are kind, sort, title, weight)"#,
                #"content/shows/_index.md:5:9: "weight" must be a whole number from -1000 to 1000, not "x""#,
            ])
        let good = InMemorySite([
            "content/shows/_index.md": reviewFile("title: Shelf\nkind: book\nsort: rating\nweight: -1", body: "Intro."),
            "content/shows/x.md": reviewFile("title: X\ndate: 2024-01-01\nauthor: A"),
            "content/movies/y.md": reviewFile("title: Y\ndate: 2024-01-01"),
        ])
        let content = try good.load()
        #expect(
            content.sections == [
                ReviewSection(
                    name: "shows", title: "Shelf", kind: .book, introHTML: "<p>Intro.</p>\n", defaultSort: .rating,
                    weight: -1),
                ReviewSection(name: "movies", title: "Movies", kind: .movie),
            ])
        #expect(content.reviews.first { $0.section == "shows" }?.work.creator == "A")
    }

    @Test("raw HTML in a section's _index.md follows raw_html like every other Markdown file")
    func sectionIntroRawHTML() throws {
        let files = ["content/movies/_index.md": reviewFile("title: Films", body: "<div class=\"intro\">Hi</div>")]
        let safe = try InMemorySite(files).load()
        #expect(safe.sections.first?.introHTML == "<!-- raw HTML omitted -->\n")
        let raw = try InMemorySite(files, config: InMemorySite.defaultConfig + "raw_html: true\n").load()
        #expect(raw.sections.first?.introHTML == "<div class=\"intro\">Hi</div>\n")
    }

    @Test("a section folder name that is reserved or not a URL segment is refused")
    func badSectionNames() {
        let site = InMemorySite([
            "content/tags/x.md": reviewFile("title: X\ndate: 2024-01-01"),
            "content/my films/x.md": reviewFile("title: X\ndate: 2024-01-01"),
        ])
        #expect(
            site.problems() == [
                #"content/my films:1:1: the section folder name "my films" cannot be used as a URL here"#,
                #"content/tags:1:1: the section folder name "tags" cannot be used as a URL here"#,
            ])
    }

    @Test("files other than .md in a section are warnings, not errors")
    func ignoredFiles() throws {
        let site = InMemorySite([
            "content/movies/x.md": reviewFile("title: X\ndate: 2024-01-01"),
            "content/movies/notes.txt": "scratch",
            "content/movies/.hidden.md": "not even front matter",
        ])
        let content = try site.load()
        #expect(content.reviews.map(\.slug) == ["x"])
        #expect(
            content.warnings.map(\.description) == [
                "content/movies/notes.txt:1:1: warning: ignored: only .md files belong in a section folder"
            ])
    }

    @Test("base_url: an internationalized host is written in its ASCII form, however it was given")
    func internationalizedHost() throws {
        for text in ["https://bücher.example/reviews", "https://xn--bcher-kva.example/reviews/"] {
            let url = try #require(BaseURL(text))
            #expect(url.absolute == "https://xn--bcher-kva.example/reviews/")
            #expect(url.path == "/reviews/")
        }
        #expect(BaseURL("http://127.0.0.1:1313/")?.absolute == "http://127.0.0.1:1313/")
        #expect(BaseURL("http://[::1]:8080/")?.absolute == "http://[::1]:8080/")
        #expect(BaseURL("https://e.org:0/") == nil)
        // As browsers show it: a host in lower case, the scheme's own port left out.
        #expect(BaseURL("https://EXAMPLE.ORG/Reviews/")?.absolute == "https://example.org/Reviews/")
        #expect(BaseURL("https://example.org:443/")?.absolute == "https://example.org/")
        #expect(BaseURL("HTTP://example.org:80/")?.absolute == "http://example.org/")
        #expect(BaseURL("http://example.org:443/")?.absolute == "http://example.org:443/")
        #expect(BaseURL("https://BÜCHER.example/")?.absolute == "https://xn--bcher-kva.example/")
    }

    @Test("site.yml: every setting read; defaults for the optional ones")
    func siteConfig() throws {
        let full = InMemorySite(
            config: """
                title: 여백
                base_url: https://example.org/reviews
                language: ko
                author: Min
                description: Notes
                page_size: 3
                raw_html: true
                """)
        #expect(
            try full.load().config
                == SiteConfig(
                    title: "여백", baseURL: BaseURL("https://example.org/reviews/")!, language: .korean, author: "Min",
                    description: "Notes", pageSize: 3, rawHTML: true))
        let minimal = try InMemorySite().load().config
        #expect(minimal.language == .english)
        #expect(minimal.pageSize == 10)
        #expect(minimal.rawHTML == false)
        #expect(minimal.baseURL.absolute == "https://example.org/")
        #expect(minimal.baseURL.path == "/")
    }

    @Test(
        "site.yml problems are reported with their line and column",
        arguments: [
            ("title: T\n", [#"site.yml:1:1: missing required field "base_url""#]),
            ("base_url: https://e.org/\n", [#"site.yml:1:1: missing required field "title""#]),
            (
                "title: T\nbase_url: https://e.org/\nlanguage: french\n",
                [#"site.yml:3:11: "language" must be a language tag such as en, de, pt-BR or zh-Hant, not "french""#]
            ),
            (
                "title: T\nbase_url: https://e.org/\ncolour: red\npagesize: 3\n",
                [
                    #"site.yml:3:1: "colour" is not a field of site.yml (its fields are author, base_url, description, extra_fields, image, labels, language, list_page_size, metadata, page_size, raw_html, title)"#,
                    #"site.yml:4:1: "pagesize" is not a field; did you mean "page_size"?"#,
                ]
            ),
            (
                "title: T\nbase_url: ftp://e.org/\n",
                [
                    #"site.yml:2:11: "base_url" must be an absolute http or https URL like https://example.org/, not "ftp://e.org/""#
                ]
            ),
            (
                "title: T\nbase_url: /reviews/\n",
                [
                    #"site.yml:2:11: "base_url" must be an absolute http or https URL like https://example.org/, not "/reviews/""#
                ]
            ),
            (
                // Not an http URL, though its "path" has an empty part.
                "title: T\nbase_url: javascript:alert(1)//\n",
                [
                    #"site.yml:2:11: "base_url" must be an absolute http or https URL like https://example.org/, not "javascript:alert(1)//""#
                ]
            ),
            (
                "title: T\nbase_url: https://e.org:99999/\n",
                [#"site.yml:2:11: "base_url" has the port 99999, but ports go from 1 to 65535"#]
            ),
            (
                // Past Int's range, where Foundation has no port at all (the default one was used).
                "title: T\nbase_url: https://e.org:99999999999999999999/\n",
                [#"site.yml:2:11: "base_url" has the port 99999999999999999999, but ports go from 1 to 65535"#]
            ),
            (
                "title: T\nbase_url: https://e.org:80x/\n",
                [
                    #"site.yml:2:11: "base_url" must be an absolute http or https URL like https://example.org/, not "https://e.org:80x/""#
                ]
            ),
            (
                "title: T\nbase_url: https://me:secret@e.org/\n",
                [
                    #"site.yml:2:11: "base_url" cannot hold a user name or password (the part before @ in "https://me:secret@e.org/"): every feed and sitemap would publish it"#
                ]
            ),
            (
                "title: T\nbase_url: https://example.org%40evil.com/\n",
                [
                    #"site.yml:2:11: "base_url" cannot have a percent-encoded host, as "https://example.org%40evil.com/" has: browsers refuse such an address"#
                ]
            ),
            (
                // Foundation's host is evil.com; a browser's is example.org.
                "title: T\nbase_url: https://example.org\\@evil.com/\n",
                [
                    #"site.yml:2:11: "base_url" cannot hold a backslash, as "https://example.org\@evil.com/" does: browsers read it as a slash, which makes another host or path of it"#
                ]
            ),
            (
                // Links would start with //assets/ (another host) or /../.
                "title: T\nbase_url: https://e.org//\n",
                [
                    #"site.yml:2:11: "base_url" cannot have an empty, "." or ".." part in its path, as "https://e.org//" has: every link of the site starts with that path, and //assets/ would be another host's, /../ another folder"#
                ]
            ),
            (
                "title: T\nbase_url: https://e.org//cdn.example.com/\n",
                [
                    #"site.yml:2:11: "base_url" cannot have an empty, "." or ".." part in its path, as "https://e.org//cdn.example.com/" has: every link of the site starts with that path, and //assets/ would be another host's, /../ another folder"#
                ]
            ),
            (
                "title: T\nbase_url: https://e.org/a/%2E%2e/b\n",
                [
                    #"site.yml:2:11: "base_url" cannot have an empty, "." or ".." part in its path, as "https://e.org/a/%2E%2e/b" has: every link of the site starts with that path, and //assets/ would be another host's, /../ another folder"#
                ]
            ),
            (
                "title: T\nbase_url: https://e.org/\npage_size: 0\nraw_html: sometimes\n",
                [
                    #"site.yml:3:12: "page_size" must be a whole number from 1 to 10000, not "0""#,
                    #"site.yml:4:11: "raw_html" must be true or false, not "sometimes""#,
                ]
            ),
            ("title: T\n  base_url: x\n", ["site.yml:2:11: mapping values are not allowed in this context"]),
        ])
    func siteConfigProblems(config: String, expected: [String]) {
        #expect(InMemorySite(config: config).problems() == expected)
    }

    @Test("a folder without site.yml is not a site")
    func noSiteFile() {
        var site = InMemorySite(["content/movies/x.md": reviewFile("title: X\ndate: 2024-01-01")])
        site.files["site.yml"] = nil
        #expect(site.problems() == ["site.yml:1:1: no site.yml here: is /in-memory-site a site folder?"])
    }

    @Test("plain pages: title, slug and description from the summary or the first paragraph")
    func plainPages() throws {
        let site = InMemorySite([
            "content/about.md": reviewFile("title: About\nmotto: slow", body: "I write *slowly*.\n\nMore."),
            "content/colophon.md": reviewFile("title: Colophon\nslug: how\nsummary: How it is made"),
        ])
        let pages = try site.load().pages
        #expect(
            pages == [
                Page(
                    source: "content/about.md", slug: "about", title: "About", description: "I write slowly.",
                    html: "<p>I write <em>slowly</em>.</p>\n<p>More.</p>\n", extra: ["motto": .string("slow")]),
                Page(
                    source: "content/colophon.md", slug: "how", title: "Colophon", description: "How it is made",
                    html: "<p>A review.</p>\n", extra: [:],
                    slugLocation: SourceLocation(path: "content/colophon.md", line: 3, column: 7)),
            ])
    }

    @Test("--base-url replaces site.yml's base_url")
    func baseURLOverride() throws {
        let loader = InMemorySite().loader(baseURL: BaseURL("http://localhost:8080/preview"))
        let base = try loader.load().config.baseURL
        #expect(base.absolute == "http://localhost:8080/preview/")
        #expect(base.path == "/preview/")
    }
}
