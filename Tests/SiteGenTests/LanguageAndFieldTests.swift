import CommonMark
import Foundation
import Testing

@testable import SiteGen

/// The pieces behind languages, labels, suggestions and future reviews, one at a time.
@Suite("Languages, labels, field suggestions and future dates")
struct LanguageAndFieldTests {
    @Test(
        "BCP 47 tags: well-formed, a language ICU knows, subtags in their usual case",
        arguments: [
            ("de", "de"), ("pt-br", "pt-BR"), ("ZH-hant", "zh-Hant"), ("zh-Hant-TW", "zh-Hant-TW"), ("ja", "ja"),
            ("sr-Latn-RS", "sr-Latn-RS"), ("en-US-x-twain", "en-US-x-twain"), ("es-419", "es-419"),
            ("de-CH-1996", "de-CH-1996"),
        ])
    func goodTags(tag: String, normalized: String) {
        #expect(SiteLanguage(tag)?.rawValue == normalized)
    }

    @Test(
        "tags that are not languages say why",
        arguments: [
            ("english", "a language tag such as en, de, pt-BR or zh-Hant, not \"english\""),
            ("en_US", "a language tag such as en, de, pt-BR or zh-Hant, not \"en_US\" (write en-US)"),
            ("xx", "a language tag such as en, de, pt-BR or zh-Hant: \"xx\" is not a language ICU knows"),
            ("en-", "a language tag such as en, de, pt-BR or zh-Hant, not \"en-\""),
            ("de-x", "a language tag such as en, de, pt-BR or zh-Hant, not \"de-x\""),
            ("", "a language tag such as en, de, pt-BR or zh-Hant, not \"\""),
        ])
    func badTags(tag: String, problem: String) {
        #expect(SiteLanguage(tag) == nil)
        #expect(SiteLanguage.problem(with: tag) == problem)
    }

    @Test("a tag longer than 64 characters is refused (ICU makes no locale of one of 272: the build crashed)")
    func longTags() throws {
        let long = "en" + String(repeating: "-abcdefgh", count: 30)
        #expect(SiteLanguage(long) == nil)
        #expect(
            SiteLanguage.problem(with: long)
                == "a language tag such as en, de, pt-BR or zh-Hant, of at most 64 characters (this one has 272)")
        let longest = "en-US-x-" + Array(repeating: "abcdefg", count: 7).joined(separator: "-")
        #expect(longest.count == 63)
        let language = try #require(SiteLanguage(longest))
        let collation = Collation(language: language)
        #expect(collation.ordered("Part 2", "part 10") == .orderedAscending)
    }

    @Test("the language TMDB is asked for")
    func tmdbLanguages() {
        let cases = [
            ("en", "en-US"), ("ko", "ko-KR"), ("pt-BR", "pt-BR"), ("zh-Hant", "zh-TW"), ("zh", "zh-CN"), ("de", "de"),
        ]
        for (tag, tmdb) in cases { #expect(SiteLanguage(tag)?.tmdbLanguage == tmdb, "\(tag)") }
    }

    @Test("a typo is a suggestion: any case, one edit for short names, two for longer ones, a swap counting one")
    func suggestions() {
        let known = ["title", "date", "rating", "tags", "summary", "slug", "language", "original_title"]
        #expect(FieldReader.suggestion(for: "ratng", among: known) == "rating")
        #expect(FieldReader.suggestion(for: "Title", among: known) == "title")
        #expect(FieldReader.suggestion(for: "tilte", among: known) == "title")
        #expect(FieldReader.suggestion(for: "tag", among: known) == "tags")
        #expect(FieldReader.suggestion(for: "orignal_tile", among: known) == "original_title")
        #expect(FieldReader.suggestion(for: "tgs", among: known) == "tags")
        #expect(FieldReader.suggestion(for: "tg", among: known) == nil)
        #expect(FieldReader.suggestion(for: "watched_with", among: known) == nil)
        #expect(FieldReader.suggestion(for: "mood", among: known) == nil)
        #expect(FieldReader.editDistance(Array("abcd"), Array("acbd")) == 1)
        #expect(FieldReader.editDistance(Array(""), Array("abc")) == 3)
    }

    @Test("phrases are filled in one pass: a value holding braces stays as it is")
    func phrases() {
        #expect(
            Phrases.fill("{title}: {count}, {order}", ["title": "{count} Films", "count": "3", "order": "x"])
                == "{count} Films: 3, x")
        #expect(Phrases.fill("Page {page} of {total} {nope}", ["page": "2", "total": "5"]) == "Page 2 of 5 {nope}")
        // A brace left open, an empty name, a name cut by another brace, and text around them
        // in other scripts (the pattern is read as UTF-8).
        #expect(Phrases.fill("{title 「{title}」{", ["title": "기생충"]) == "{title 「기생충」{")
        #expect(Phrases.fill("{}{{count}}", ["count": "3"]) == "{}{3}")
        #expect(Phrases.fill("별 {rating}개", ["rating": "4½"]) == "별 4½개")
        #expect(Phrases.fill("", ["rating": "4"]) == "")
        #expect(Phrases.placeholders["listDescription"] == ["title", "count", "order"])
        #expect(Labels.names.contains("notRated") && Labels.names.contains("createdBy"))
        #expect(Labels.names.isDisjoint(with: Phrases.names))
    }

    @Test("labels: a near miss of a placeholder ({{count}}, { count }) is an error at the label, not text shown")
    func placeholderNearMisses() {
        for (written, shown) in [
            ("{{count}} critiques", "{{count}}"), ("{ count } x", "{ count }"), ("{count } x", "{count }"),
        ] {
            let (_, problems) = SiteConfig.read(
                "title: T\nbase_url: https://example.org/\nlabels:\n  reviewCount: \"\(written)\"\n", path: "site.yml")
            #expect(
                problems.map(\.description) == [
                    "site.yml:4:16: \"reviewCount\" writes \"\(shown)\": a placeholder is its name in single braces, "
                        + "with no spaces: {count}"
                ], "\(written)")
        }
        #expect(
            SiteConfig.read(
                "title: T\nbase_url: https://example.org/\nlabels:\n  reviewCount: \"{count} x\"\n", path: "s"
            )
            .1.isEmpty)
    }

    @Test("labels: replaces the words and phrases it names and keeps the others")
    func overrides() {
        let german = SiteLanguage("de")!
        let labels = Labels.for(
            german, overrides: ["notRated": "Nicht bewertet", "reviewCount": "{count} Rezensionen"])
        #expect(labels.notRated == "Nicht bewertet")
        #expect(labels.home == "Home")
        let format = Formatter(
            language: german, phrases: Phrases.for(german, overrides: ["reviewCount": "{count} Rezensionen"]))
        #expect(format.reviewCount(12_345) == "12.345 Rezensionen")
        #expect(format.reviewCount(1) == "1 review")
        #expect(format.rating(Rating(4.5)!).label == "4,5 out of 5 stars")
        #expect(format.date(Day("2026-03-14")!).display == "14. März 2026")
        #expect(Formatter(language: .korean).year(-700) == "기원전 700년")
        #expect(Formatter(language: .english).workYear(-700) == "700 BCE")
        #expect(Formatter(language: .english).workYear(1965) == "1965")
        #expect(Formatter(language: .english).seasons(1, episodes: 8) == "1 season, 8 episodes")
        #expect(Formatter(language: .english).seasons(nil, episodes: nil) == nil)
        #expect(
            Formatter(language: .english).cast([
                CastMember(name: "Song Kang-ho", character: "Kim Ki-taek"), CastMember(name: "Jo Yeo-jeong"),
                CastMember(name: "-A--B-"), CastMember(name: "Cho"),
            ])
                == "Song Kang\u{2011}ho (Kim Ki\u{2011}taek), Jo Yeo\u{2011}jeong, "
                + "\u{2011}A\u{2011}\u{2011}B\u{2011}, Cho")
        #expect(Formatter(language: .english).cast([]) == nil)
    }

    @Test(
        "initials: kana by row (voiced, small, katakana and half-width alike), Han by character, letters as the language sorts them"
    )
    func initials() {
        let japanese = Collation(language: SiteLanguage("ja")!)
        let cases = [
            ("あめ", "あ"), ("ぁ", "あ"), ("オズ", "あ"), ("がっこう", "か"), ("ゴジラ", "か"), ("ｻﾑﾗｲ", "さ"),
            ("ぜん", "さ"), ("ちび", "た"), ("ヅラ", "た"), ("の", "な"), ("パプリカ", "は"), ("もののけ", "ま"),
            ("ゆめ", "や"), ("ロボ", "ら"), ("をとめ", "わ"), ("ん", "わ"), ("東京", "東"), ("Ａkira", "A"), ("1984", "0–9"),
            ("ヶ月", "か"), ("ゖ", "か"), ("ヷ", "わ"),
        ]
        for (title, initial) in cases { #expect(japanese.initial(of: title) == initial, "\(title)") }
        let swedish = Collation(language: SiteLanguage("sv")!)
        #expect(swedish.initial(of: "Åsa") == "Å")
        #expect(swedish.initial(of: "Élan") == "E")
        #expect(Collation(language: .english).initial(of: "Åsa") == "A")
        #expect(Collation(language: SiteLanguage("de")!).initial(of: "Öl") == "O")
        #expect(Collation(language: SiteLanguage("ru")!).initial(of: "ёлка") == "Е")
        #expect(Collation(language: SiteLanguage("th")!).initial(of: "เมือง") == "ม")
        #expect(Collation(language: .korean).initial(of: "ㅃ") == "ㅂ")
        #expect(Collation(language: .korean).initial(of: "…") == "#")
        // A letter with a stroke, or a ligature, under the letter the language sorts it with.
        #expect(Collation(language: .english).initial(of: "Øresund") == "O")
        #expect(Collation(language: SiteLanguage("da")!).initial(of: "Øresund") == "Ø")
        #expect(Collation(language: .english).initial(of: "Łódź") == "L")
        #expect(Collation(language: SiteLanguage("pl")!).initial(of: "Łódź") == "Ł")
        #expect(Collation(language: .english).initial(of: "ĳs") == "I")
        #expect(Collation(language: SiteLanguage("de")!).initial(of: "ßx") == "S")
        // Letters sorted as two, or as another letter of the language: under that letter's heading.
        #expect(["Æon Flux", "Œdipus", "Þe Ende"].map(Collation(language: .english).initial(of:)) == ["A", "O", "Þ"])
        #expect(["Ærø", "Aarhus", "Ǻ"].map(Collation(language: SiteLanguage("da")!).initial(of:)) == ["Æ", "Å", "Å"])
        #expect(Collation(language: SiteLanguage("is")!).initial(of: "Þingvellir") == "Þ")
        // Numbers written as digits sort, and come, among the digits; Roman numerals are letters.
        #expect(
            ["½ Moon", "① Piece", "2046", "Ⅻ Monkeys"].map(Collation(language: .english).initial(of:)) == [
                "0–9", "0–9", "0–9", "X",
            ])
        #expect(Collation(language: SiteLanguage("he")!).initial(of: "ךx") == "כ")
        #expect(Collation(language: SiteLanguage("fa")!).initial(of: "ئیس") == "ء")
        #expect(Collation(language: SiteLanguage("ar")!).initial(of: "ـوطن") == "و")
        // Arabic files hamza and the letters carrying it under alef, as it sorts them; the
        // root collation (English) sorts ؤ apart from both, under its own initial.
        let arabic = Collation(language: SiteLanguage("ar")!)
        #expect(["ؤلف", "ئيس", "ءمل", "أمل", "وطن"].map(arabic.initial(of:)) == ["ا", "ا", "ا", "ا", "و"])
        #expect(Collation(language: .english).initial(of: "ؤلف") == "ؤ")
        // Turkish has a dotted and a dotless I.
        let turkish = Collation(language: SiteLanguage("tr")!)
        #expect(["istanbul", "İzmir", "ılık", "Irmak", "íx"].map(turkish.initial(of:)) == ["İ", "İ", "I", "I", "İ"])
    }

    @Test("each initial's titles come together in the language's order, for every kana, jamo and Latin letter")
    func initialsStayTogether() {
        func ranges(_ ranges: ClosedRange<UInt32>...) -> [String] {
            ranges.flatMap { $0.compactMap { Unicode.Scalar($0).map { String($0) + "x" } } }
        }
        // Each letter also before "a" and before "z", so that a letter sorted as two ("Æ" as
        // "AE" in English) would come between two titles of the letter it is filed apart from.
        func spread(_ titles: [String]) -> [String] {
            titles.flatMap { [$0, String($0.dropLast()) + "a", String($0.dropLast()) + "z"] }
        }
        // Latin Extended Additional without the Middle Welsh letters after Vietnamese ones (Ỻ sorts
        // as LL): still their own initials.
        let cases: [(String, [String])] = [
            ("ja", ranges(0x3041...0x3096, 0x30A1...0x30FA, 0xFF66...0xFF9D, 0x41...0x5A, 0x30...0x39)),
            ("ko", ranges(0x3131...0x314E, 0xAC00...0xAC20, 0xB098...0xB0B0, 0xD55C...0xD7A3, 0x41...0x5A)),
            (
                "en",
                ranges(
                    0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0xB2...0xB3, 0xBC...0x24F, 0x1E00...0x1EF9, 0x2460...0x2473)
            ),
            ("sv", ranges(0x41...0x5A, 0xC0...0x24F)),
            ("de", ranges(0x41...0x5A, 0xC0...0x24F)),
            ("da", ranges(0x41...0x5A, 0xC0...0x24F)),
            ("pl", ranges(0x41...0x5A, 0xC0...0x24F)),
            // Languages with letters of two (Czech CH, Welsh LL, Hungarian DZS) or of their own.
            ("cs", ranges(0x41...0x5A, 0xC0...0x24F) + ["Chx", "Cha", "Chz", "CHx"]),
            (
                "cy",
                ranges(0x41...0x5A, 0xC0...0x24F) + ["Llx", "Lla", "Chx", "Ddx", "Ffx", "Ngx", "Phx", "Rhx", "Thx"]
            ),
            (
                "hu",
                ranges(0x41...0x5A, 0xC0...0x24F) + ["Dzsx", "Dza", "Csx", "Gyx", "Lyx", "Nyx", "Szx", "Tyx", "Zsx"]
            ),
            ("es", ranges(0x41...0x5A, 0xC0...0x24F)),
            ("is", ranges(0x41...0x5A, 0xC0...0x24F)),
            ("fi", ranges(0x41...0x5A, 0xC0...0x24F)),
            ("lt", ranges(0x41...0x5A, 0xC0...0x24F)),
            ("ro", ranges(0x41...0x5A, 0xC0...0x24F)),
            ("hr", ranges(0x41...0x5A, 0xC0...0x24F) + ["Džx", "Ljx", "Njx"]),
            ("tr", ranges(0x41...0x5A, 0xC0...0x24F)),
            ("vi", ranges(0x41...0x5A, 0xC0...0x24F, 0x1E00...0x1EF9)),
            ("ru", ranges(0x410...0x44F, 0x401...0x401, 0x451...0x451, 0x41...0x5A)),
            ("el", ranges(0x391...0x3A9, 0x3AC...0x3CE)),
            // Arabic, with ء and the letters carrying it (ؤ ئ), which its collation sorts with alef.
            ("ar", ranges(0x621...0x64A, 0x671...0x6D3, 0x41...0x5A)),
            ("fa", ranges(0x621...0x64A, 0x67E...0x6CC, 0x41...0x5A)),
            ("ur", ranges(0x621...0x64A, 0x679...0x6D2, 0x41...0x5A)),
            ("he", ranges(0x5D0...0x5EA, 0x41...0x5A)),
            (
                "th",
                ranges(0xE01...0xE2E, 0x41...0x5A)
                    + ranges(0xE40...0xE44).flatMap { vowel in ranges(0xE01...0xE2E).map { vowel + $0 } }
            ),
            ("hi", ranges(0x905...0x939, 0x958...0x95F, 0x41...0x5A)),
            ("uk", ranges(0x400...0x45F, 0x490...0x491)),
            ("zh", ranges(0x4E00...0x4FFF, 0x41...0x5A)),
        ]
        var misplaced: [String] = []
        for (language, titles) in cases {
            let collation = Collation(language: SiteLanguage(language)!)
            let sorted = spread(titles).map { ($0, collation.titleKey($0)) }.sorted {
                collation.ordered($0.1, $1.1) == .orderedAscending
            }
            var closed: Set<String> = []
            var previous: String?
            for (title, _) in sorted {
                let initial = collation.initial(of: title)
                if initial != previous {
                    if closed.contains(initial) {
                        misplaced.append("\(language) \(title) \(initial) after \(previous ?? "")")
                    }
                    if let previous { closed.insert(previous) }
                    previous = initial
                }
            }
        }
        #expect(misplaced == [])
    }

    @Test("where raw HTML is: the CommonMark adapter gives each piece's line and byte column")
    func rawHTMLPositions() {
        let rendered = Markdown.render("Café <b>x</b>\n\n<div>\nblock\n</div>\n", allowRawHTML: false)
        #expect(
            rendered.rawHTML == [
                .init(line: 1, byteColumn: 7), .init(line: 1, byteColumn: 11), .init(line: 3, byteColumn: 1),
            ])
        #expect(Markdown.render("No *HTML*.", allowRawHTML: true).rawHTML == [])
    }

    @Test("serve with a today: a review moved past it or back equals a full build, edit by edit")
    func futureWhileServing() throws {
        let folder = try ScratchFolder()
        try folder.write("site.yml", "title: T\nbase_url: https://example.org/\n")
        try folder.write("content/movies/a.md", "---\ntitle: A\ndate: 2026-03-01\ntags: [x]\n---\nA.\n")
        try folder.write("content/movies/b.md", "---\ntitle: B\ndate: 2026-03-02\ntags: [x]\n---\nB.\n")
        var options = SiteBuilder.Options(source: folder.url, output: folder.url.appendingPathComponent("public"))
        options.today = Day("2026-03-10")
        let builder = SiteBuilder(options: options)
        var site = try LiveSite.build(builder)
        #expect(site.files["movies/b/index.html"] != nil)
        for date in ["2026-04-01", "2026-03-10", "2026-03-11", "2026-01-01"] {
            try folder.write("content/movies/b.md", "---\ntitle: B\ndate: \(date)\ntags: [x]\n---\nB.\n")
            site = try site.updating(["content/movies/b.md"])
            let full = try LiveSite.build(builder)
            #expect(site.files == full.files, "\(date)")
            #expect((site.files["movies/b/index.html"] != nil) == (date <= "2026-03-10"), "\(date)")
        }
    }

    @Test("a text's language: Hangul is Korean, kana Japanese, letters the site's (English in a CJK site)")
    func textLanguage() {
        #expect(TextLanguage.of("기생충", otherwise: "en") == "ko")
        #expect(TextLanguage.of("となりのトトロ", otherwise: "en") == "ja")
        #expect(TextLanguage.of("霸王別姬", otherwise: "en") == "zh")
        #expect(TextLanguage.of("霸王別姬", otherwise: "ko") == "ko")
        #expect(TextLanguage.of("Parasite", otherwise: "ko") == "en")
        #expect(TextLanguage.of("Amélie", otherwise: "fr") == "fr")
        #expect(TextLanguage.of("Ωmega", otherwise: "ko") == "en")
        #expect(TextLanguage.of("2019", otherwise: "ko") == "ko")
        #expect(TextLanguage.of("0–9 · ★★½", otherwise: "ja") == "ja")
        // Right-to-left scripts: Arabic (the site's language when written in it), Hebrew.
        #expect(TextLanguage.of("مخرج", otherwise: "en") == "ar")
        #expect(TextLanguage.of("کارگردان", otherwise: "fa-IR") == "fa-IR")
        #expect(TextLanguage.of("שחור", otherwise: "en") == "he")
        #expect(TextLanguage.of("שחור", otherwise: "yi") == "yi")
        #expect(TextLanguage.rightToLeft.contains(TextLanguage.primary("fa-IR")))
        // The default theme lays out each of them right to left.
        let css = ThemeEjector.files.first { $0.path == "assets/site.css" }.map {
            String(decoding: $0.data, as: UTF8.self)
        }
        for tag in TextLanguage.rightToLeft.sorted() {
            #expect(css?.contains(":lang(\(tag))") == true, "\(tag)")
        }
        #expect(css?.contains("direction: rtl;") == true)
        // Every ASCII character alone: only letters count as text of a language.
        for value in 0..<128 {
            let scalar = Unicode.Scalar(UInt8(value))
            let expected = scalar.properties.isAlphabetic ? "en" : "ko"
            #expect(TextLanguage.of(String(scalar), otherwise: "ko") == expected, "\(value)")
        }
    }
}
