import Foundation
import Mustache
import Testing

@testable import SiteGen

@Suite("Presenters")
struct PresenterTests {
    @Test("titles sort with numbers compared as numbers and case ignored")
    func numericTitleOrder() throws {
        let presentation = try present([
            "content/movies/d10.md": reviewFile("title: Dekalog 10\ndate: 2024-01-01"),
            "content/movies/d2.md": reviewFile("title: Dekalog 2\ndate: 2024-01-02"),
            "content/movies/d1.md": reviewFile("title: dekalog 1\ndate: 2024-01-03"),
            "content/movies/alien.md": reviewFile("title: Alien\ndate: 2024-01-04"),
        ])
        let page = try presentation.model("movies/by-title/index.html", as: SectionPageModel.self)
        #expect(page.groups.flatMap(\.reviews).map(\.title) == ["Alien", "dekalog 1", "Dekalog 2", "Dekalog 10"])
        #expect(page.groups.map(\.heading) == ["A", "D"])
    }

    @Test("in a Korean site Hangul titles sort before Latin ones; in an English site after")
    func koreanCollation() throws {
        let files = [
            "content/movies/a.md": reviewFile("title: Zodiac\ndate: 2024-01-01"),
            "content/movies/b.md": reviewFile("title: 살인의 추억\ndate: 2024-01-02"),
            "content/movies/c.md": reviewFile("title: Alien\ndate: 2024-01-03"),
            "content/movies/d.md": reviewFile("title: 기생충\ndate: 2024-01-04"),
        ]
        let korean = try present(files, config: InMemorySite.defaultConfig + "language: ko\n")
        #expect(
            try korean.model("movies/by-title/index.html", as: SectionPageModel.self).groups.flatMap(\.reviews)
                .map(\.title) == ["기생충", "살인의 추억", "Alien", "Zodiac"])
        let english = try present(files)
        #expect(
            try english.model("movies/by-title/index.html", as: SectionPageModel.self).groups.flatMap(\.reviews)
                .map(\.title) == ["Alien", "Zodiac", "기생충", "살인의 추억"])
    }

    @Test("ties are broken by title, then slug, whatever the file order")
    func tieBreaks() throws {
        let files = [
            "content/movies/z-file.md": reviewFile("title: Alpha\ndate: 2024-05-01\nrating: 4"),
            "content/movies/a-file.md": reviewFile("title: Beta\ndate: 2024-05-01\nrating: 4"),
            "content/movies/hamlet-1996.md": reviewFile("title: Hamlet\ndate: 2024-05-01\nrating: 4"),
            "content/movies/hamlet-1948.md": reviewFile("title: Hamlet\ndate: 2024-05-01\nrating: 4"),
        ]
        let expected = ["movies/z-file/", "movies/a-file/", "movies/hamlet-1948/", "movies/hamlet-1996/"].map {
            "/" + $0
        }
        let presentation = try present(files)
        for output in ["movies/index.html", "movies/by-title/index.html", "movies/by-rating/index.html"] {
            let page = try presentation.model(output, as: SectionPageModel.self)
            #expect(page.groups.flatMap(\.reviews).map(\.url) == expected, "\(output)")
        }
    }

    @Test("the review order does not depend on the order the loader returned them in")
    func independentOfInputOrder() throws {
        let content = try InMemorySite([
            "content/movies/a.md": reviewFile("title: Same\ndate: 2024-05-01"),
            "content/movies/b.md": reviewFile("title: Same\ndate: 2024-05-01"),
            "content/movies/c.md": reviewFile("title: Other\ndate: 2024-05-01"),
        ]).load()
        let reversed = SiteContent(
            config: content.config, sections: content.sections, reviews: content.reviews.reversed(),
            pages: content.pages, theme: content.theme, staticFiles: content.staticFiles)
        let forward = SiteBuilder.present(content, isPreview: false).index
        let backward = SiteBuilder.present(reversed, isPreview: false).index
        for order in SortOrder.allCases {
            let key = ListKey(.section("movies"), order)
            let one = forward.list(key).map { forward[review: $0].slug }
            let two = backward.list(key).map { backward[review: $0].slug }
            #expect(one == ["c", "a", "b"])
            #expect(one == two)
        }
    }

    @Test("by title: grouped by initial, Latin letters without accents, digits together, others under #")
    func latinInitials() {
        let collation = Collation(language: .english)
        #expect(collation.initial(of: "Éclair") == "E")
        #expect(collation.initial(of: "ångström") == "A")
        #expect(collation.initial(of: "The Zone") == "T")
        #expect(collation.initial(of: "“Quoted”") == "Q")
        #expect(collation.initial(of: "2046") == "0–9")
        #expect(collation.initial(of: "…!") == "#")
        #expect(collation.initial(of: "") == "#")
    }

    @Test("by title: a title starting with quotes, brackets or dots sorts by its first letter, in its initial's group")
    func leadingPunctuation() throws {
        let titles = [
            "Apple", "“Quoted”", "Queen", "Zed", "(500) Days of Summer", "...And Justice for All",
            "2001: A Space Odyssey", "'Round Midnight", "Brazil", "…!",
        ]
        var files: [String: String] = [:]
        for (number, title) in titles.enumerated() {
            let quoted = title.replacingOccurrences(of: "'", with: "''")
            files["content/movies/r\(number).md"] = reviewFile("title: '\(quoted)'\ndate: 2024-01-0\(number % 9 + 1)")
        }
        let page = try present(files).model("movies/by-title/index.html", as: SectionPageModel.self)
        #expect(page.groups.map(\.heading) == ["#", "0–9", "A", "B", "Q", "R", "Z"])
        #expect(
            page.groups.map { $0.reviews.map(\.title) } == [
                ["…!"], ["(500) Days of Summer", "2001: A Space Odyssey"], ["...And Justice for All", "Apple"],
                ["Brazil"],
                ["Queen", "“Quoted”"], ["'Round Midnight"], ["Zed"],
            ])
        #expect(page.list.jumps.map(\.label) == ["#", "0–9", "A", "B", "Q", "R", "Z"])
        #expect(Collation.sortingText(of: "(500) Days") == "500) Days" && Collation.sortingText(of: "Heat") == "Heat")
    }

    @Test("by title: Hangul titles grouped by initial consonant, double consonants with their single one")
    func hangulInitials() throws {
        let collation = Collation(language: .korean)
        #expect(collation.initial(of: "기생충") == "ㄱ")
        #expect(collation.initial(of: "꽃잎") == "ㄱ")
        #expect(collation.initial(of: "나비") == "ㄴ")
        #expect(collation.initial(of: "따뜻한 색") == "ㄷ")
        #expect(collation.initial(of: "쌍화점") == "ㅅ")
        #expect(collation.initial(of: "힐링") == "ㅎ")
        #expect(collation.initial(of: "ㅃ") == "ㅂ")
        let presentation = try present(
            [
                "content/books/a.md": reviewFile("title: 나목\ndate: 2024-01-01"),
                "content/books/b.md": reviewFile("title: 꽃잎\ndate: 2024-01-02"),
                "content/books/c.md": reviewFile("title: 그 남자네 집\ndate: 2024-01-03"),
                "content/books/d.md": reviewFile("title: 따라지\ndate: 2024-01-04"),
                "content/books/e.md": reviewFile("title: Almond\ndate: 2024-01-05"),
            ], config: InMemorySite.defaultConfig + "language: ko\n")
        let page = try presentation.model("books/by-title/index.html", as: SectionPageModel.self)
        #expect(page.groups.map(\.heading) == ["ㄱ", "ㄴ", "ㄷ", "A"])
        #expect(page.groups.map { $0.reviews.map(\.title) } == [["그 남자네 집", "꽃잎"], ["나목"], ["따라지"], ["Almond"]])
        #expect(page.groups.map(\.id) == ["initial-ㄱ", "initial-ㄴ", "initial-ㄷ", "initial-A"])
    }

    @Test("by rating: highest first, grouped under a heading per rating, unrated last")
    func byRating() throws {
        let presentation = try present([
            "content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01"),
            "content/movies/b.md": reviewFile("title: B\ndate: 2024-01-02\nrating: 1"),
            "content/movies/c.md": reviewFile("title: C\ndate: 2024-01-03\nrating: 4.5"),
            "content/movies/d.md": reviewFile("title: D\ndate: 2024-01-04\nrating: 5"),
            "content/movies/e.md": reviewFile("title: E\ndate: 2024-01-05\nrating: 0"),
            "content/movies/f.md": reviewFile("title: F\ndate: 2024-01-06\nrating: 4.5"),
        ])
        let page = try presentation.model("movies/by-rating/index.html", as: SectionPageModel.self)
        #expect(page.groups.map(\.heading) == ["5 stars", "4.5 stars", "1 star", "0 stars", "Not rated"])
        #expect(page.groups.map { $0.reviews.map(\.title) } == [["D"], ["C", "F"], ["B"], ["E"], ["A"]])
        #expect(page.page.title == "Movies, by rating · Test Reviews")
        #expect(page.sorts.map(\.current) == [false, false, true, false])
    }

    @Test("by year: the front matter year, else the year of the review's date; newest first")
    func byYear() throws {
        let presentation = try present([
            "content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01\nyear: 1999"),
            "content/movies/b.md": reviewFile("title: B\ndate: 2021-06-01"),
            "content/movies/c.md": reviewFile("title: C\ndate: 2020-01-01\nyear: 2021"),
        ])
        let page = try presentation.model("movies/by-year/index.html", as: SectionPageModel.self)
        #expect(page.groups.map(\.heading) == ["2021", "1999"])
        #expect(page.groups.map { $0.reviews.map(\.title) } == [["B", "C"], ["A"]])
        let korean = try present(
            ["content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01\nyear: 1999")],
            config: InMemorySite.defaultConfig + "language: ko\n")
        #expect(
            try korean.model("movies/by-year/index.html", as: SectionPageModel.self).groups.map(\.heading) == ["1999년"])
    }

    @Test("by date (the default): newest first, grouped by month")
    func byDate() throws {
        let presentation = try present([
            "content/movies/a.md": reviewFile("title: A\ndate: 2026-03-01"),
            "content/movies/b.md": reviewFile("title: B\ndate: 2026-03-14"),
            "content/movies/c.md": reviewFile("title: C\ndate: 2025-12-31"),
        ])
        let page = try presentation.model("movies/index.html", as: SectionPageModel.self)
        #expect(page.groups.map(\.heading) == ["March 2026", "December 2025"])
        #expect(page.groups.map(\.id) == ["month-2026-03", "month-2025-12"])
        #expect(page.groups.map { $0.reviews.map(\.title) } == [["B", "A"], ["C"]])
        #expect(page.section.countLabel == "3 reviews")
        #expect(page.sorts.map(\.url) == ["/movies/", "/movies/by-title/", "/movies/by-rating/", "/movies/by-year/"])
        #expect(presentation.pages.contains { $0.output == "movies/by-date/index.html" } == false)
    }

    @Test("a section whose default order is by title gets a by-date page instead of a by-title one")
    func otherDefaultOrder() throws {
        let presentation = try present([
            "content/books/_index.md": reviewFile("title: Books\nsort: title"),
            "content/books/b.md": reviewFile("title: Beta\ndate: 2024-01-02"),
            "content/books/a.md": reviewFile("title: Alpha\ndate: 2024-01-01"),
        ])
        let outputs = Set(presentation.pages.map(\.output))
        #expect(outputs.contains("books/by-date/index.html"))
        #expect(!outputs.contains("books/by-title/index.html"))
        let main = try presentation.model("books/index.html", as: SectionPageModel.self)
        #expect(main.groups.flatMap(\.reviews).map(\.title) == ["Alpha", "Beta"])
        #expect(main.sorts.map(\.url) == ["/books/by-date/", "/books/", "/books/by-rating/", "/books/by-year/"])
        #expect(main.sorts.map(\.current) == [false, true, false, false])
        let byDate = try presentation.model("books/by-date/index.html", as: SectionPageModel.self)
        #expect(byDate.groups.flatMap(\.reviews).map(\.title) == ["Beta", "Alpha"])
        #expect(byDate.page.title == "Books, by newest · Test Reviews")
        // The search page's link for browsers without JavaScript: the section's index by
        // title, here its main page (there is no books/by-title/).
        let search = try presentation.model("search/index.html", as: SearchPageModel.self)
        #expect(search.browseURL == "/books/")
    }

    @Test(
        "the pager's window: first, last, two on each side, '…' for a gap of two pages or more, never for one",
        arguments: [
            (1, 16, [1, 2, 3, nil, 16]), (4, 16, [1, 2, 3, 4, 5, 6, nil, 16]), (5, 16, [1, 2, 3, 4, 5, 6, 7, nil, 16]),
            (6, 16, [1, nil, 4, 5, 6, 7, 8, nil, 16]), (8, 16, [1, nil, 6, 7, 8, 9, 10, nil, 16]),
            (12, 16, [1, nil, 10, 11, 12, 13, 14, 15, 16]), (16, 16, [1, nil, 14, 15, 16]),
            (4, 7, [1, 2, 3, 4, 5, 6, 7]), (1, 1, [1]), (4, 8, [1, 2, 3, 4, 5, 6, 7, 8]),
        ])
    func pagerWindow(current: Int, total: Int, expected: [Int?]) {
        #expect(ListPages.window(current, of: total) == expected)
        #expect(ListPages.window(current, of: total).count <= 9)
    }

    @Test("pagination: page_size 2 and 5 reviews make /movies/, /movies/page/2/ and /movies/page/3/")
    func pagination() throws {
        let files = Dictionary(
            uniqueKeysWithValues: (1...5).map { number in
                ("content/movies/m\(number).md", reviewFile("title: M\(number)\ndate: 2024-01-0\(number)"))
            })
        let presentation = try present(files, config: InMemorySite.defaultConfig + "page_size: 2\n")
        let outputs = presentation.pages.map(\.output).filter {
            $0.hasPrefix("movies/") && !$0.hasPrefix("movies/m") && $0.hasSuffix(".html")
        }
        #expect(
            outputs.sorted() == [
                "movies/by-rating/index.html", "movies/by-title/index.html", "movies/by-year/index.html",
                "movies/index.html", "movies/page/2/index.html", "movies/page/3/index.html",
            ])
        let first = try presentation.model("movies/index.html", as: SectionPageModel.self)
        let second = try presentation.model("movies/page/2/index.html", as: SectionPageModel.self)
        let third = try presentation.model("movies/page/3/index.html", as: SectionPageModel.self)
        #expect(first.groups.flatMap(\.reviews).map(\.title) == ["M5", "M4"])
        #expect(second.groups.flatMap(\.reviews).map(\.title) == ["M3", "M2"])
        #expect(third.groups.flatMap(\.reviews).map(\.title) == ["M1"])
        #expect(
            second.pagination
                == PaginationModel(
                    label: "Page 2 of 3", previous: StepLink(url: "/movies/", label: "Newer"),
                    next: StepLink(url: "/movies/page/3/", label: "Older"),
                    items: [
                        PageItem(number: "1", url: "/movies/", current: false, gap: false),
                        PageItem(number: "2", url: "/movies/page/2/", current: true, gap: false),
                        PageItem(number: "3", url: "/movies/page/3/", current: false, gap: false),
                    ]))
        #expect(first.pagination?.previous == nil)
        #expect(third.pagination?.next == nil)
        #expect(first.page.title == "Movies · Test Reviews")
        #expect(second.page.title == "Movies · Page 2 of 3 · Test Reviews")
        #expect(second.page.canonicalURL == "https://example.org/movies/page/2/")
        #expect(second.section.countLabel == "5 reviews")
        let byTitle = try presentation.model("movies/by-title/index.html", as: SectionPageModel.self)
        #expect(byTitle.pagination == nil)
        #expect(byTitle.groups.flatMap(\.reviews).count == 5)
    }

    @Test("a section that fits on one page has no pagination; an empty one still has its page")
    func singlePage() throws {
        let presentation = try present([
            "content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01"),
            "content/books/_index.md": reviewFile("title: Shelf"),
        ])
        #expect(try presentation.model("movies/index.html", as: SectionPageModel.self).pagination == nil)
        let books = try presentation.model("books/index.html", as: SectionPageModel.self)
        #expect(books.groups.isEmpty)
        #expect(books.section.countLabel == "0 reviews")
    }

    @Test(
        "ratings as stars with a label a screen reader can say",
        arguments: [
            (9, "★★★★½", "4.5 out of 5 stars", "별 5개 중 4.5개"),
            (10, "★★★★★", "5 out of 5 stars", "별 5개 중 5개"),
            (1, "½", "0.5 out of 5 stars", "별 5개 중 0.5개"),
            (0, "☆", "0 out of 5 stars", "별 5개 중 0개"),
            (6, "★★★", "3 out of 5 stars", "별 5개 중 3개"),
        ])
    func stars(halves: Int, stars: String, english: String, korean: String) throws {
        let rating = try #require(Rating(halves: halves))
        #expect(
            Formatter(language: .english).rating(rating)
                == RatingModel(stars: stars, label: english, value: english.components(separatedBy: " ")[0]))
        #expect(Formatter(language: .korean).rating(rating).label == korean)
        #expect(Formatter(language: .korean).rating(rating).stars == stars)
    }

    @Test("dates and months in the site's language")
    func dates() throws {
        let day = try #require(Day(year: 2026, month: 3, day: 14))
        #expect(Formatter(language: .english).date(day) == DateModel(iso: "2026-03-14", display: "March 14, 2026"))
        #expect(Formatter(language: .korean).date(day) == DateModel(iso: "2026-03-14", display: "2026년 3월 14일"))
        #expect(Formatter(language: .english).month(day) == "March 2026")
        #expect(Formatter(language: .korean).month(day) == "2026년 3월")
        let newYear = try #require(Day(year: 2025, month: 1, day: 1))
        #expect(Formatter(language: .english).date(newYear).display == "January 1, 2025")
    }

    @Test("counts and headings in both languages")
    func words() throws {
        let english = Formatter(language: .english)
        let korean = Formatter(language: .korean)
        #expect(english.reviewCount(1) == "1 review")
        #expect(english.reviewCount(12_345) == "12,345 reviews")
        #expect(korean.reviewCount(3) == "리뷰 3편")
        #expect(english.ratingHeading(try #require(Rating(halves: 2))) == "1 star")
        #expect(korean.ratingHeading(try #require(Rating(halves: 7))) == "별 3.5개")
        #expect(english.readingTime(words: 950) == "5 min read")
        #expect(korean.readingTime(words: 10) == "1분 분량")
        // Chinese and Japanese characters at 500 a minute, beside words at 200.
        #expect(english.readingTime(words: 0, characters: 1_000) == "2 min read")
        #expect(english.readingTime(words: 0, characters: 1) == "1 min read")
        #expect(english.readingTime(words: 300, characters: 1_250) == "4 min read")
        #expect(english.readingTime(words: 0, characters: 0) == "")
        #expect(english.excerpt("one two three", limit: 9) == "one two…")
    }

    @Test("an excerpt collapses whitespace and cuts at a word boundary, for any text and limit")
    func excerpts() {
        let format = Formatter(language: .english)
        #expect(format.excerpt("  one \n\t two  ", limit: 20) == "one two")
        #expect(format.excerpt("one two", limit: 7) == "one two")
        #expect(format.excerpt("one two three", limit: 7) == "one…")
        #expect(format.excerpt("one two three", limit: 8) == "one two…")
        #expect(format.excerpt("unbroken", limit: 4) == "unbr…")
        #expect(format.excerpt("", limit: 4) == "")
        // Against the plain definition: split on whitespace, join with spaces, cut.
        let pieces = ["a", "bb", "기생충", "é", "🇰🇷", " ", "  ", "\n", "\t", "\u{00A0}", "word", "e\u{301}"]
        var generator = SplitMix(seed: 7)
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...30, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }
            .joined()
            let limit = Int.random(in: 1...25, using: &generator)
            let collapsed = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            let expected: String
            if collapsed.count > limit {
                let cut = collapsed.prefix(limit)
                expected = String(cut[..<(cut.lastIndex(of: " ") ?? cut.endIndex)]) + "…"
            } else {
                expected = collapsed
            }
            #expect(format.excerpt(text, limit: limit) == expected, "\(text.debugDescription) limit \(limit)")
        }
    }

    @Test("a review page carries finished strings: formatted date, stars, label, details and tag links")
    func reviewPage() throws {
        let presentation = try present(
            [
                "content/movies/parasite.md": reviewFile(
                    "title: 기생충\ndate: 2026-03-14\nrating: 4.5\ntags: [Thriller, 가족]\ndirector: 봉준호\nyear: 2019\nmood: dark",
                    body: "First *paragraph* here.\n\nSecond.")
            ], config: InMemorySite.defaultConfig + "language: ko\n")
        let page = try presentation.model("movies/parasite/index.html", as: ReviewPageModel.self)
        let review = page.review
        #expect(review.date == DateModel(iso: "2026-03-14", display: "2026년 3월 14일"))
        #expect(review.rating == RatingModel(stars: "★★★★½", label: "별 5개 중 4.5개", value: "4.5"))
        #expect(review.summary == "First paragraph here.")
        #expect(
            review.details == [
                DetailRow(label: "감독", value: "봉준호", language: "ko"),
                DetailRow(label: "개봉", value: "2019", language: "ko"),
            ])
        #expect(
            review.tags == [
                TagLink(name: "Thriller", url: "/tags/thriller/", language: "en"),
                TagLink(name: "가족", url: "/tags/%EA%B0%80%EC%A1%B1/", language: "ko"),
            ])
        #expect(review.url == "/movies/parasite/")
        #expect(review.section == LinkModel(title: "Movies", url: "/movies/", language: "en"))
        #expect(review.titleLanguage == "ko")
        #expect(page.page.language == "ko")
        #expect(review.language == "ko")
        #expect(review.extra == .object(["mood": .string("dark")]))
        #expect(page.page.title == "기생충 · Test Reviews")
        #expect(page.page.canonicalURL == "https://example.org/movies/parasite/")
        #expect(page.labels.director == "감독")
    }

    @Test("related reviews share tags, most shared first, then nearest in date, never the review itself")
    func related() throws {
        let presentation = try present([
            "content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01\ntags: [noir, rain, seoul]"),
            "content/movies/b.md": reviewFile("title: B\ndate: 2024-01-02\ntags: [noir]"),
            "content/movies/c.md": reviewFile("title: C\ndate: 2024-01-03\ntags: [noir, rain]"),
            "content/books/d.md": reviewFile("title: D\ndate: 2024-01-04\ntags: [Seoul]"),
            "content/movies/e.md": reviewFile("title: E\ndate: 2024-01-05\ntags: [comedy]"),
            "content/movies/f.md": reviewFile("title: F\ndate: 2024-01-06"),
        ])
        let a = try presentation.model("movies/a/index.html", as: ReviewPageModel.self)
        // B and D share one tag each: B (a day from A) before D (three days).
        #expect(a.related.map(\.title) == ["C", "B", "D"])
        #expect(a.related.map(\.sectionTitle) == ["Movies", "Movies", "Books"])
        #expect(try presentation.model("movies/e/index.html", as: ReviewPageModel.self).related.isEmpty)
        #expect(try presentation.model("movies/f/index.html", as: ReviewPageModel.self).hasRelated == false)
    }

    @Test("among many reviews with the same tags, a review's related ones are those nearest in date, not the newest")
    func relatedNearInTime() throws {
        // 300 reviews a week apart, all tagged alike; review 100 sits in the middle.
        var files: [String: String] = [:]
        let start = try #require(Day(year: 2020, month: 1, day: 1))
        for number in 0..<300 {
            let day = Day(number: start.number + 7 * number)
            files["content/movies/m\(number).md"] = reviewFile("title: M\(number)\ndate: \(day)\ntags: [noir, rain]")
        }
        // One more, three days after review 100 and sharing one tag: fewer tags shared comes last.
        files["content/books/near.md"] = reviewFile(
            "title: Near\ndate: \(Day(number: start.number + 703))\ntags: [noir]")
        let presentation = try present(files)
        let middle = try presentation.model("movies/m100/index.html", as: ReviewPageModel.self)
        // A week either side is as near: the newer first.
        #expect(middle.related.map(\.title) == ["M101", "M99", "M102", "M98"])
        let oldest = try presentation.model("movies/m0/index.html", as: ReviewPageModel.self)
        #expect(oldest.related.map(\.title) == ["M1", "M2", "M3", "M4"])
        let newest = try presentation.model("movies/m299/index.html", as: ReviewPageModel.self)
        #expect(newest.related.map(\.title) == ["M298", "M297", "M296", "M295"])
        let near = try presentation.model("books/near/index.html", as: ReviewPageModel.self)
        #expect(near.related.map(\.title) == ["M100", "M101", "M99", "M102"])
    }

    @Test("a day's number counts days from 1970-01-01 across leap years and centuries")
    func dayNumbers() throws {
        let cases: [(Day?, Int)] = [
            (Day(year: 1970, month: 1, day: 1), 0), (Day(year: 2024, month: 1, day: 1), 19_723),
            (Day(year: 1969, month: 12, day: 31), -1), (Day(year: 1, month: 1, day: 1), -719_162),
            (Day(year: 2000, month: 3, day: 1), 11_017), (Day(year: 2000, month: 2, day: 28), 11_015),
            (Day(year: 1900, month: 3, day: 1), -25_508),
        ]
        for (day, number) in cases {
            let day = try #require(day)
            #expect(day.number == number, "\(day)")
            // The helper uses Foundation's calendar, which is Julian before 1582.
            if day.year > 1582 { #expect(Day(number: number) == day, "\(number)") }
        }
    }

    @Test("previous and next link the older and newer review of the same section")
    func neighbours() throws {
        let presentation = try present([
            "content/movies/old.md": reviewFile("title: Old\ndate: 2024-01-01"),
            "content/movies/mid.md": reviewFile("title: Mid\ndate: 2024-02-01"),
            "content/movies/new.md": reviewFile("title: New\ndate: 2024-03-01"),
            "content/books/book.md": reviewFile("title: Book\ndate: 2024-02-15"),
        ])
        let mid = try presentation.model("movies/mid/index.html", as: ReviewPageModel.self)
        #expect(mid.previous == LinkModel(title: "Old", url: "/movies/old/", language: "en"))
        #expect(mid.next == LinkModel(title: "New", url: "/movies/new/", language: "en"))
        let old = try presentation.model("movies/old/index.html", as: ReviewPageModel.self)
        #expect(old.previous == nil)
        #expect(old.next?.title == "Mid")
        #expect(try presentation.model("movies/new/index.html", as: ReviewPageModel.self).next == nil)
        let book = try presentation.model("books/book/index.html", as: ReviewPageModel.self)
        #expect(book.hasNeighbours == false)
    }

    @Test("tags: one page per tag slug (tags differing in case share it), listed in collation order")
    func tags() throws {
        let presentation = try present([
            "content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01\ntags: [thriller, Korea]"),
            "content/movies/b.md": reviewFile("title: B\ndate: 2024-01-02\ntags: [Thriller]"),
            "content/books/c.md": reviewFile("title: C\ndate: 2024-01-03\ntags: [Film Noir, 가족]"),
        ])
        let index = try presentation.model("tags/index.html", as: TagsPageModel.self)
        #expect(index.tags.map(\.name) == ["Film Noir", "Korea", "Thriller", "가족"])
        #expect(
            index.tags.map(\.url) == [
                "/tags/film-noir/", "/tags/korea/", "/tags/thriller/", "/tags/%EA%B0%80%EC%A1%B1/",
            ])
        #expect(index.tags.map(\.countLabel) == ["1 review", "1 review", "2 reviews", "1 review"])
        let thriller = try presentation.model("tags/thriller/index.html", as: TagPageModel.self)
        #expect(thriller.heading == "Reviews tagged “Thriller”")
        #expect(thriller.reviews.map(\.title) == ["B", "A"])
        #expect(presentation.pages.contains { $0.output == "tags/가족/index.html" })
    }

    @Test("a tag pasted with a ligature or typed full-width is the tag written plainly: one page")
    func compatibilityTags() throws {
        let presentation = try present([
            "content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01\ntags: [\"\u{FB01}nal cut\", ＳＦ]"),
            "content/movies/b.md": reviewFile("title: B\ndate: 2024-01-02\ntags: [final cut, SF]"),
            "content/movies/c.md": reviewFile("title: C\ndate: 2024-01-03\ntags: [final cut, ㄱㅅ]"),
        ])
        let index = try presentation.model("tags/index.html", as: TagsPageModel.self)
        #expect(index.tags.map(\.url) == ["/tags/final-cut/", "/tags/sf/", "/tags/%E3%84%B1%E3%85%85/"])
        #expect(index.tags.map(\.name) == ["final cut", "SF", "ㄱㅅ"])
        #expect(index.tags.map(\.countLabel) == ["3 reviews", "2 reviews", "1 review"])
        let sf = try presentation.model("tags/sf/index.html", as: TagPageModel.self)
        #expect(sf.reviews.map(\.title) == ["B", "A"])
    }

    @Test("a compact list's jump links: one per group, marked on the page where it starts")
    func jumpLinks() throws {
        let files = Dictionary(
            uniqueKeysWithValues: [("a", "2024-03-02"), ("b", "2024-03-01"), ("c", "2024-02-01"), ("d", "2023-12-01")]
                .map { ("content/movies/\($0.0).md", reviewFile("title: \($0.0)\ndate: \($0.1)\ntags: [noir]")) })
        let presentation = try present(files, config: InMemorySite.defaultConfig + "list_page_size: 2\n")
        let first = try presentation.model("tags/noir/index.html", as: TagPageModel.self).list.jumps
        #expect(first.map(\.label) == ["March 2024", "February 2024", "December 2023"])
        #expect(
            first.map(\.url) == [
                "/tags/noir/#month-2024-03", "/tags/noir/page/2/#month-2024-02", "/tags/noir/page/2/#month-2023-12",
            ])
        #expect(first.map(\.onThisPage) == [true, false, false])
        let second = try presentation.model("tags/noir/page/2/index.html", as: TagPageModel.self).list.jumps
        #expect(second.map(\.onThisPage) == [false, true, true])
    }

    @Test("more than 24 months or years: a list links to each year or decade, at its first group")
    func coarseJumpLinks() throws {
        // 26 months over three years, newest first: two in 2025, twelve in 2024 and in 2023.
        let months =
            [(2025, 2), (2025, 1)] + (1...12).reversed().map { (2024, $0) } + (1...12).reversed().map { (2023, $0) }
        var files: [String: String] = [:]
        for (number, (year, month)) in months.enumerated() {
            let day = "\(year)-\(month < 10 ? "0" : "")\(month)-01"
            files["content/movies/m\(number).md"] = reviewFile("title: M\(number)\ndate: \(day)\ntags: [noir]")
        }
        let config = InMemorySite.defaultConfig + "list_page_size: 10\n"
        let presentation = try present(files, config: config)
        let page2 = try presentation.model("tags/noir/page/2/index.html", as: TagPageModel.self).list
        #expect(page2.groups.count == 10)
        #expect(page2.jumps.map(\.label) == ["2025", "2024", "2023"])
        #expect(
            page2.jumps.map(\.url) == [
                "/tags/noir/#month-2025-02", "/tags/noir/#month-2024-12", "/tags/noir/page/2/#month-2023-12",
            ])
        #expect(page2.jumps.map(\.onThisPage) == [false, false, true])
        let korean = try present(files, config: config + "language: ko\n")
        #expect(
            try korean.model("tags/noir/index.html", as: TagPageModel.self).list.jumps.map(\.label) == [
                "2025년", "2024년", "2023년",
            ])

        // 25 release years from 2021 back to 700 BCE: decades, BCE ones by their magnitude.
        let years = [2021, 2020, 2019, 2009] + (1..<20).map { 1999 - $0 * 3 } + [-700, -709]
        var works: [String: String] = [:]
        for (number, year) in years.enumerated() {
            works["content/books/w\(number).md"] = reviewFile("title: W\(number)\ndate: 2024-01-01\nyear: \(year)")
        }
        let byYear = try present(works, config: config).model("books/by-year/index.html", as: SectionPageModel.self)
        #expect(
            byYear.list.jumps.map(\.label) == [
                "2020s", "2010s", "2000s", "1990s", "1980s", "1970s", "1960s", "1950s", "1940s", "700s BCE",
            ])
        #expect(byYear.list.jumps.first?.url == "/books/by-year/#year-2021")
        #expect(byYear.list.jumps.last?.url == "/books/by-year/page/3/#year--700")
        let koreanYears = try present(works, config: config + "language: ko\n")
            .model("books/by-year/index.html", as: SectionPageModel.self)
        #expect(koreanYears.list.jumps.map(\.label).suffix(2) == ["1940년대", "기원전 700년대"])
    }

    @Test("the tag index: one page of every tag; past ten times list_page_size, pages grouped by initial")
    func pagedTagIndex() throws {
        let names = (1...10).map { "apple \($0)" } + (1...6).map { "berry \($0)" } + ["가을", "나무", "12 angry", "cherry"]
        var files: [String: String] = [:]
        for (number, name) in names.enumerated() {
            files["content/movies/r\(number).md"] = reviewFile(
                "title: R\(number)\ndate: 2024-01-01\ntags: [\"\(name)\"]")
        }
        let one = try present(files).model("tags/index.html", as: TagsPageModel.self)
        #expect(one.tags.count == names.count && one.groups.isEmpty && one.jumps.isEmpty && one.pagination == nil)

        let paged = try present(files, config: InMemorySite.defaultConfig + "list_page_size: 1\n")
        #expect(paged.pages.filter { $0.output.hasPrefix("tags/page/") }.map(\.output) == ["tags/page/2/index.html"])
        let first = try paged.model("tags/index.html", as: TagsPageModel.self)
        let second = try paged.model("tags/page/2/index.html", as: TagsPageModel.self)
        #expect(first.tags.count == 10 && second.tags.count == 10)
        #expect(first.groups.map(\.heading) == ["0–9", "A"])
        #expect(first.groups.map { $0.tags.count } == [1, 9])
        // "apple 10" goes over to page 2: its group goes on there under its heading again.
        #expect(second.groups.map(\.heading) == ["A", "B", "C", "ㄱ", "ㄴ"])
        #expect(second.groups.map(\.id) == ["initial-A", "initial-B", "initial-C", "initial-ㄱ", "initial-ㄴ"])
        #expect(second.jumps.map(\.label) == ["0–9", "A", "B", "C", "ㄱ", "ㄴ"])
        #expect(
            second.jumps.map(\.url) == [
                "/tags/#initial-0–9", "/tags/#initial-A", "/tags/page/2/#initial-B", "/tags/page/2/#initial-C",
                "/tags/page/2/#initial-ㄱ", "/tags/page/2/#initial-ㄴ",
            ])
        #expect(second.jumps.map(\.onThisPage) == [false, false, true, true, true, true])
        #expect(second.pagination?.label == "Page 2 of 2")
        #expect(second.pagination?.previous?.url == "/tags/")
        #expect(second.page.title == "Tags · Page 2 of 2 · Test Reviews")
    }

    @Test("past 24 Han initials, a list by title and the tag index link to every k-th of them")
    func hanJumpLinks() throws {
        // 60 titles, each from its own Han character, after three Latin ones.
        let characters = (0..<60).map { String(Unicode.Scalar(0x4E00 + 7 * $0)!) }
        var files: [String: String] = [:]
        for (number, title) in (["Alpha", "Beta", "Gamma"] + characters.map { $0 + "の夏" }).enumerated() {
            files["content/movies/m\(number).md"] = reviewFile(
                "title: \"\(title)\"\ndate: 2024-01-01\ntags: [\"\(title)\"]")
        }
        let config = InMemorySite.defaultConfig + "list_page_size: 10\n"
        let presentation = try present(files, config: config)
        let pages = try (1...7).map { number in
            try presentation.model(
                "movies/by-title/\(number == 1 ? "" : "page/\(number)/")index.html", as: SectionPageModel.self
            ).list
        }
        // Every group keeps its heading: the Latin ones, then the 60 Han ones in the
        // collation's order.
        let headings = pages.flatMap { $0.groups.map(\.heading) }
        let han = Array(headings.dropFirst(3))
        #expect(headings.prefix(3) == ["A", "B", "G"] && Set(han) == Set(characters) && han.count == 60)
        // 60 Han initials: a link to every third, 20 links, after each Latin initial.
        let linked = stride(from: 0, to: 60, by: 3).map { han[$0] }
        #expect(pages[0].jumps.map(\.label) == ["A", "B", "G"] + linked)
        #expect(pages[0].jumps[3].url == "/movies/by-title/#initial-\(han[0])")
        #expect(pages[0].jumps.last?.url == "/movies/by-title/page/7/#initial-\(han[57])")
        #expect(pages[6].jumps.map(\.url) == pages[0].jumps.map(\.url))

        // 24 Han initials or fewer: each has its link.
        let few = files.filter { path, _ in
            Int(path.dropFirst("content/movies/m".count).dropLast(3)).map { $0 < 27 } ?? false
        }
        let all = try present(few, config: config).model("movies/by-title/index.html", as: SectionPageModel.self)
        #expect(all.list.jumps.count == 27 && Set(all.list.jumps.map(\.label).dropFirst(3)) == Set(characters[0..<24]))

        // The tag index (60 tags on a page, so 63 tags make two) links to the same initials.
        let tags = try present(files, config: InMemorySite.defaultConfig + "list_page_size: 6\n")
        let index = try tags.model("tags/page/2/index.html", as: TagsPageModel.self)
        #expect(index.jumps.map(\.label) == ["A", "B", "G"] + linked)
        #expect(index.jumps.last?.url == "/tags/page/2/#initial-\(han[57])")
        #expect(index.groups.map(\.heading) == Array(han[57..<60]))

        // Han initials: unified ideographs of every block, and compatibility ones.
        #expect(["\u{4E00}", "\u{3400}", "\u{20000}", "\u{F900}", "\u{2F800}"].allSatisfy(Collation.isHan))
        #expect(!["A", "Ø", "ㄱ", "か", "0–9", "#", "一二"].contains(where: Collation.isHan))
    }

    @Test("a site without tags has no tag pages and no Tags link; plain pages join the navigation")
    func navigation() throws {
        let presentation = try present([
            "content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01"),
            "content/about.md": reviewFile("title: About"),
        ])
        #expect(!presentation.pages.contains { $0.output.hasPrefix("tags/") })
        let home = try presentation.model("index.html", as: HomePageModel.self)
        #expect(home.site.nav.map(\.title) == ["Home", "Movies", "About"])
        #expect(home.site.nav.map(\.url) == ["/", "/movies/", "/about/"])
        #expect(home.site.nav.map(\.current) == [true, false, false])
        let about = try presentation.model("about/index.html", as: PlainPageModel.self)
        #expect(about.site.nav.map(\.current) == [false, false, true])
        #expect(home.site.copyrightYear == "2024")
        #expect(home.site.nav.map(\.ariaCurrent) == ["page", nil, nil])
        #expect(!home.site.isSearch)
    }

    @Test("the navigation's current link: the page itself, or a page within what it leads to")
    func currentLink() throws {
        let presentation = try present(
            [
                "content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01\ntags: [Noir]"),
                "content/movies/b.md": reviewFile("title: B\ndate: 2024-01-02"),
            ], config: InMemorySite.defaultConfig + "page_size: 1\n")
        func current(_ path: String) throws -> [String?] {
            let model = try #require(presentation.pages.first { $0.output == path }?.model)
            let site: Precomputed<SiteModel>? =
                switch model {
                case let model as SectionPageModel: model.site
                case let model as ReviewPageModel: model.site
                case let model as TagsPageModel: model.site
                case let model as TagPageModel: model.site
                case let model as SearchPageModel: model.site
                default: nil
                }
            return try #require(site).nav.map(\.ariaCurrent)
        }
        // Home, Movies, Tags.
        #expect(try current("movies/index.html") == [nil, "page", nil])
        #expect(try current("movies/page/2/index.html") == [nil, "true", nil])
        #expect(try current("movies/by-title/index.html") == [nil, "true", nil])
        #expect(try current("movies/a/index.html") == [nil, "true", nil])
        #expect(try current("tags/index.html") == [nil, nil, "page"])
        #expect(try current("tags/noir/index.html") == [nil, nil, "true"])
        #expect(try current("search/index.html") == [nil, nil, nil])
        let search = try presentation.model("search/index.html", as: SearchPageModel.self)
        #expect(search.site.isSearch)
        #expect(try presentation.model("movies/a/index.html", as: ReviewPageModel.self).site.isSearch == false)
    }

    @Test("the home page shows the newest reviews and each section's recent and top rated")
    func home() throws {
        let presentation = try present([
            "content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01\nrating: 5"),
            "content/movies/b.md": reviewFile("title: B\ndate: 2024-01-02\nrating: 3"),
            "content/movies/c.md": reviewFile("title: C\ndate: 2024-01-03"),
            "content/books/d.md": reviewFile("title: D\ndate: 2024-01-04\nrating: 4"),
            "content/tv/_index.md": "---\ntitle: Television\nkind: tv\n---\n",
        ])
        let home = try presentation.model("index.html", as: HomePageModel.self)
        #expect(home.recent.map(\.title) == ["D", "C", "B", "A"])
        // A section with no review yet has no band, only its link in the navigation.
        #expect(home.sections.map(\.title) == ["Books", "Movies"])
        #expect(home.site.nav.map(\.title).contains("Television"))
        let movies = try #require(home.sections.last)
        // The band of the newest reviews shows all four: no section shows one again.
        #expect(movies.recent.map(\.title) == [])
        #expect(movies.topRated.map(\.title) == ["A", "B"])
        #expect(movies.countLabel == "3 reviews")
        #expect(home.page.title == "Test Reviews")
    }

    @Test("the pages a sitemap lists, known from their keys, are exactly those written to a folder's index.html")
    func folderPagesFromKeys() throws {
        let content = try InMemorySite(
            [
                "content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01\ntags: [x, y]\nrating: 4"),
                "content/movies/b.md": reviewFile("title: B\ndate: 2023-03-01\ntags: [y]"),
                "content/books/c.md": reviewFile("title: C\ndate: 2022-05-01"),
                "content/about.md": reviewFile("title: About"),
            ], config: "title: T\nbase_url: https://example.org/r\n"
        ).load()
        let site = SiteBuilder.present(content, isPreview: false)
        let keys = SitePresenter.keys(site)
        for key in keys {
            #expect(key.isFolderPage == SitePresenter.output(key, site).hasSuffix("index.html"), "\(key)")
        }
        #expect(Set(keys.filter(\.isFolderPage).map { String(describing: $0).prefix(4) }).count >= 6)
    }

    @Test("a site over the sitemap limit gets a sitemap index naming parts that hold every address once")
    func sitemapIndex() throws {
        let content = try InMemorySite(
            [
                "content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01"),
                "content/movies/b.md": reviewFile("title: B\ndate: 2024-03-01"),
                "content/books/c.md": reviewFile("title: C\ndate: 2023-05-01"),
            ], config: "title: T\nbase_url: https://example.org/r\n"
        ).load()
        let site = SiteBuilder.present(content, isPreview: false)
        let whole = SitemapPresenter()
        let urls = try #require(whole.job(.sitemap, site).model as? SitemapModel).entries.map(\.url)
        #expect(whole.keys(site) == [.sitemap])
        #expect(urls.count > 8)
        let split = SitemapPresenter(limit: 4)
        let parts = (urls.count + 3) / 4
        #expect(split.keys(site) == [.sitemap] + (1...parts).map { .sitemapPart($0) })
        #expect(split.output(.sitemapPart(2), site) == "sitemap-2.xml")
        let index = try #require(split.job(.sitemap, site).model as? SitemapModel)
        #expect(index.parts?.map(\.url) == (1...parts).map { "https://example.org/r/sitemap-\($0).xml" })
        let text = index.text()
        #expect(text.contains(#"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#))
        #expect(text.contains("<sitemap><loc>https://example.org/r/sitemap-1.xml</loc>"))
        #expect(!text.contains("<url>"))
        var listed: [String] = []
        for number in 1...parts {
            let part = try #require(split.job(.sitemapPart(number), site).model as? SitemapModel)
            #expect(part.entries.count <= 4)
            #expect(part.text().contains("<urlset"))
            // Each part's date is the newest of its reviews'.
            #expect(index.parts?[number - 1].lastModified == part.entries.compactMap(\.lastModified).max())
            listed += part.entries.map(\.url)
        }
        #expect(listed == urls)
    }

    @Test("the feed and sitemap use absolute URLs under the base URL's path")
    func feedAndSitemap() throws {
        let presentation = try present(
            [
                "content/movies/a.md": reviewFile("title: A & B\ndate: 2024-01-01\ntags: [x]"),
                "content/movies/b.md": reviewFile("title: B\ndate: 2024-03-01\nsummary: Short."),
                "content/about.md": reviewFile("title: About"),
            ], config: "title: T\nbase_url: https://example.org/reviews\nauthor: Min\n")
        let feed = presentation.feed
        #expect(feed.selfURL == "https://example.org/reviews/feed.xml")
        #expect(feed.siteURL == "https://example.org/reviews/")
        #expect(feed.updated == "2024-03-01T00:00:00Z")
        #expect(
            feed.entries.map(\.url) == [
                "https://example.org/reviews/movies/b/", "https://example.org/reviews/movies/a/",
            ])
        #expect(feed.entries.map(\.summary) == ["Short.", "A review."])
        #expect(feed.entries.last?.categories == ["x"])
        let urls = presentation.sitemap.map(\.url)
        #expect(urls.allSatisfy { $0.hasPrefix("https://example.org/reviews/") })
        #expect(urls == urls.sorted())
        #expect(urls.contains("https://example.org/reviews/about/"))
        #expect(urls.contains("https://example.org/reviews/movies/by-title/"))
        #expect(!urls.contains { $0.hasSuffix("404.html") })
        #expect(presentation.sitemap.first { $0.url.hasSuffix("/movies/a/") }?.lastModified == "2024-01-01")
        #expect(presentation.sitemap.first { $0.url.hasSuffix("/about/") }?.lastModified == nil)
        let review = try presentation.model("movies/a/index.html", as: ReviewPageModel.self)
        #expect(review.site.rootURL == "/reviews/")
        #expect(review.site.stylesheetURL == "/reviews/assets/site.css")
        #expect(review.review.url == "/reviews/movies/a/")
    }

    @Test("an empty site still has a home page, a 404 page and an empty feed")
    func emptySite() throws {
        let presentation = try present([:])
        #expect(
            presentation.pages.map(\.output).sorted() == [
                "404.html", "feed.xml", "index.html", "robots.txt", "search/index.html", "search/index.json",
                "search/names-0.txt", "search/text-0.txt", "sitemap.xml", "stats/index.html",
            ])
        #expect(presentation.feed.entries.isEmpty)
        #expect(presentation.feed.updated == "1970-01-01T00:00:00Z")
    }

    @Test("a section without reviews yet has an empty feed dated by the site's latest change, not 1970")
    func emptySectionFeed() throws {
        let presentation = try present([
            "content/movies/a.md": reviewFile("title: A\ndate: 2024-03-01\nupdated: 2024-05-02"),
            "content/movies/b.md": reviewFile("title: B\ndate: 2024-04-01"),
            "content/books/_index.md": reviewFile("title: Books"),
        ])
        let books = try presentation.model("books/feed.xml", as: FeedModel.self)
        #expect(books.entries.isEmpty)
        #expect(books.updated == "2024-05-02T00:00:00Z")
        #expect(try presentation.model("movies/feed.xml", as: FeedModel.self).updated == "2024-05-02T00:00:00Z")
        #expect(presentation.feed.updated == "2024-05-02T00:00:00Z")
    }

    @Test("Korean slugs are percent-encoded in links")
    func koreanSlug() throws {
        let presentation = try present(["content/books/아몬드.md": reviewFile("title: 아몬드\ndate: 2024-01-01")])
        #expect(presentation.pages.contains { $0.output == "books/아몬드/index.html" })
        let home = try presentation.model("index.html", as: HomePageModel.self)
        #expect(home.recent.first?.url == "/books/%EC%95%84%EB%AA%AC%EB%93%9C/")
    }
}

private func present(_ files: [String: String], config: String = InMemorySite.defaultConfig) throws -> Presented {
    let content = try InMemorySite(files, config: config).load()
    return Presented(pages: SitePresenter.jobs(SiteBuilder.present(content, isPreview: false)))
}

/// Every page a site presents.
private struct Presented {
    let pages: [PageJob]

    /// The page model written to `output`, as the type its presenter made.
    func model<Model>(_ output: String, as type: Model.Type) throws -> Model {
        let job = try #require(pages.first { $0.output == output }, "no page \(output)")
        return try #require(job.model as? Model, "\(output) has a \(Swift.type(of: job.model))")
    }

    var feed: FeedModel { pages.first { $0.output == "feed.xml" }!.model as! FeedModel }
    var sitemap: [SitemapModel.Entry] { (pages.first { $0.output == "sitemap.xml" }!.model as! SitemapModel).entries }
}

private extension SectionPageModel {
    var groups: [ReviewGroup] { list.groups }
    var pagination: PaginationModel? { list.pagination }
}

private extension TagPageModel {
    var reviews: [ReviewCard] { list.groups.flatMap(\.reviews) }
}

private extension ReviewPageModel {
    var hasRelated: Bool { !related.isEmpty }
    var hasNeighbours: Bool { previous != nil || next != nil }
}

extension Day {
    /// The day `number` days after 1970-01-01 (for tests; Foundation's Gregorian calendar in UTC).
    init(number: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = Date(timeIntervalSince1970: TimeInterval(number) * 86_400)
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        self = Day(year: parts.year!, month: parts.month!, day: parts.day!)!
    }
}

@Suite("Fetched images on cards")
struct FetchedImageCardTests {
    @Test("srcset lists each width once: a w780 as narrow as the w342 (a narrow poster) is left out")
    func srcsetWidthsOnce() throws {
        let (read, problems) = FrontMatter.readReview(Data(reviewFile("title: Metropolis\ndate: 2024-01-01").utf8))
        #expect(problems.isEmpty)
        let urls = URLs(base: try #require(BaseURL("https://example.org/")))
        let format = Formatter(language: .english)
        let image = { (size: String, width: Int) in
            CachedImage(size: size, file: "images/tmdb-19-\(size).jpg", width: width, height: width * 3 / 2)
        }
        let metadata = { (images: [CachedImage]) in
            WorkMetadata(kind: "movie", source: "tmdb", id: "19", title: "Metropolis", images: images)
        }
        let review = try #require(read)
        let narrow = SiteIndex.image(
            for: review.with(metadata: metadata([image("w342", 300), image("w780", 300)])), format: format, urls: urls)
        #expect(narrow?.srcset == "")
        #expect(narrow?.url == "/images/tmdb-19-w342.jpg")
        let wide = SiteIndex.image(
            for: review.with(metadata: metadata([image("w342", 342), image("w780", 780)])), format: format, urls: urls)
        #expect(wide?.srcset == "/images/tmdb-19-w342.jpg 342w, /images/tmdb-19-w780.jpg 780w")
    }
}

@Suite("Details of fetched metadata")
struct FetchedDetailsTests {
    @Test("a count of 0 (runtime, pages, seasons, episodes) is shown as unknown, not as \"0 pages\"")
    func zeroCounts() throws {
        let content = try InMemorySite([
            "content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01"),
            "content/books/b.md": reviewFile("title: B\ndate: 2024-01-01"),
            "content/tv/_index.md": reviewFile("title: TV\nkind: tv"),
            "content/tv/c.md": reviewFile("title: C\ndate: 2024-01-01"),
        ]).load()
        let reviews = content.reviews.map { review in
            var metadata = WorkMetadata(
                kind: review.work.kind.rawValue, source: "tmdb", id: "1", title: review.title, runtime: 0, pages: 0)
            metadata.series = SeriesFacts(seasons: 0, episodes: 0)
            return review.with(metadata: metadata)
        }
        let enriched = SiteContent(
            config: content.config, sections: content.sections, reviews: reviews, pages: content.pages,
            theme: content.theme, staticFiles: content.staticFiles, warnings: content.warnings)
        let jobs = SitePresenter.jobs(SiteBuilder.present(enriched, isPreview: false))
        for path in ["movies/a/index.html", "books/b/index.html", "tv/c/index.html"] {
            let model = try #require(jobs.first { $0.output == path }?.model as? ReviewPageModel)
            #expect(
                model.review.details.allSatisfy { !$0.value.hasPrefix("0 ") && $0.value != "0" },
                "\(path): \(model.review.details)")
        }
    }
}

@Suite("Genres of a hand-edited entry")
struct GenreChipTests {
    @Test("genres that share a page are shown once, as first written")
    func oneChipPerPage() throws {
        let (read, _) = FrontMatter.readReview(Data(reviewFile("title: F\ndate: 2024-01-01").utf8))
        let metadata = WorkMetadata(
            kind: "movie", source: "tmdb", id: "7", title: "F", genres: ["Sci-Fi", "sci fi", "Drama", "drama"])
        #expect(try #require(read).with(metadata: metadata).genres == ["Sci-Fi", "Drama"])
    }
}
