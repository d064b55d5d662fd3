import Foundation
import Testing

@testable import SiteGen

@Suite("Search index and stats pages")
struct SearchAndStatsTests {
    @Test("keys: lowercase, no accents, Hangul as jamo, initial consonants as choseong, cut at 24 scalars")
    func keys() {
        let text = "Élan VITAL, Søren's café! 기생충은 ㄱㅅㅊ a \(String(repeating: "x", count: 30)) 𝐀𝐁"
        // Compared scalar by scalar: Swift's String equality would not tell NFD from NFC.
        let keys = Set(SearchText.keys([text]).map { $0.text.unicodeScalars.map(\.value) })
        let scalars = { (text: String) in text.unicodeScalars.map(\.value) }
        #expect(keys.contains(scalars("elan")))
        #expect(keys.contains(scalars("vital")))
        #expect(keys.contains(scalars("soren")))
        #expect(keys.contains(scalars("cafe")))
        #expect(keys.contains(scalars("기생충은".decomposedStringWithCanonicalMapping)))
        #expect(!keys.contains(scalars("기생충은")))
        #expect(keys.contains(scalars("\u{1100}\u{1109}\u{110E}")))
        #expect(keys.count == 7, "\(keys)")
        #expect(keys.contains(scalars(String(repeating: "x", count: 24))))
        #expect(!keys.contains(scalars("a")), "single letters are not keys of text")
        #expect(!keys.contains(scalars("s")))
        #expect(HTMLText.plain("<p>R&amp;B &lt;3 &#49;&#x32; caf&eacute;</p>") == " R&B <3 12 caf&eacute; ")
    }

    @Test("ASCII keys: runs of letters and digits, lowercased, cut at 24, whatever the punctuation around them")
    func asciiKeys() {
        // Every printable ASCII character and a few runs longer than a key, against the rule
        // written out plainly.
        let pieces =
            (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) } + [
                "Ab", "ZZ9", String(repeating: "Q", count: 30), "@", "[", "`", "{", "/", ":",
            ]
        var generator = SplitMix(seed: 11)
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }
            .joined()
            let expected = Set(
                text.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
                    .map { String($0.lowercased().prefix(SearchText.maxLength)) }
                    .filter { $0.count > 1 }
                    .map(SearchKey.init))
            var found: Set<SearchKey> = []
            SearchText.keys(text, into: &found)
            #expect(found == expected, "\(text.debugDescription)")
            var fromHTML: Set<SearchKey> = []
            SearchText.keys(
                html: text.replacingOccurrences(of: "<", with: " ").replacingOccurrences(of: "&", with: " "),
                into: &fromHTML)
            #expect(fromHTML == expected, "\(text.debugDescription)")
        }
    }

    @Test("a run of ASCII letters and digits in eight bytes ends at the first byte of any other value")
    func letterOrDigitRuns() {
        let isLetterOrDigit = { (byte: UInt8) in
            byte < 0x80 && (Character(UnicodeScalar(byte)).isLetter || Character(UnicodeScalar(byte)).isNumber)
        }
        let fillers = Array("aZ09mQ".utf8)
        for byte in UInt8.min...UInt8.max {
            for place in 0..<8 {
                // Letters and digits, then `byte` at `place`, then bytes of every kind after it.
                var bytes = (0..<8).map { fillers[$0 % fillers.count] }
                bytes[place] = byte
                for after in place + 1..<8 { bytes[after] = UInt8(truncatingIfNeeded: Int(byte) &* 31 &+ after) }
                let chunk = bytes.withUnsafeBytes { ByteChunk.load($0.baseAddress!, at: 0) }
                let expected =
                    isLetterOrDigit(byte)
                    ? place + 1 + bytes[(place + 1)...].prefix(while: isLetterOrDigit).count : place
                #expect(ByteChunk.letterOrDigitRun(chunk) == expected, "\(byte) at \(place): \(bytes)")
            }
        }
        let whole = Array("abcdXYZ9".utf8).withUnsafeBytes { ByteChunk.load($0.baseAddress!, at: 0) }
        #expect(ByteChunk.letterOrDigitRun(whole) == 8)
    }

    @Test("keys read straight from HTML are the keys of its plain text, whatever the tags and references")
    func keysOfHTML() {
        let pieces = [
            "<p>", "</em>", "<a href=\"x&amp;y\">", "<", ">", "&amp;", "&lt;", "&nbsp;", "&#65;", "&#x1F600;",
            "&#xD800;",
            "&#769;", "&#xAC00;", "&bogus;", "&", ";", "&abcdefghijkl;", "Élan", "ss", "Straße", "기생충", "e\u{301}",
            "\u{2014}", "“", " ", "\n", "x", "42", "ø", "𝐀", "ㄱ", "Ⅻ",
        ]
        var generator = SplitMix(seed: 3)
        for _ in 0..<2_000 {
            let html = (0..<Int.random(in: 0...24, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }
            .joined()
            var direct: Set<SearchKey> = []
            SearchText.keys(html: html, into: &direct)
            #expect(direct == SearchText.keys([HTMLText.plain(html)]), "\(html.debugDescription)")
        }
    }

    @Test("plain text of HTML: unfinished tags and entities, bad numbers and long names stay as written")
    func plainText() {
        #expect(HTMLText.plain("a<b") == "a ")
        #expect(HTMLText.plain("<") == " ")
        #expect(HTMLText.plain("x &amp") == "x &amp")
        #expect(HTMLText.plain("&&amp;&") == "&&&")
        #expect(HTMLText.plain("&#x1F600; &#xD800; &#12345678901;") == "😀 &#xD800; &#12345678901;")
        #expect(HTMLText.plain("&abcdefghijk; &abcdefghijkl;") == "&abcdefghijk; &abcdefghijkl;")
        #expect(HTMLText.plain("&nbsp;기생충&quot;&apos;&gt;") == " 기생충\"'>")
        #expect(HTMLText.plain("<em>é</em>") == " é ")
    }

    @Test("the index files: a manifest, names and text with ranks (0 is the newest), display records")
    func files() throws {
        let site = try present([
            "content/movies/parasite.md": reviewFile(
                "title: Parasite\ndate: 2024-03-01\nrating: 4.5\noriginal_title: 기생충\ndirector: Bong Joon-ho\ntags: [Class]",
                body: "A film about *stairs* and élan."),
            "content/books/stoner.md": reviewFile(
                "title: Stoner\ndate: 2024-05-01\nauthor: John Williams", body: "A quiet campus novel."),
            "content/movies/dekalog-2.md": reviewFile(
                "title: Dekalog 2\ndate: 2023-01-01\ndirector: Krzysztof Kieślowski\ntags: [X]",
                body: "Part 3 is next: a 밤 scene."),
        ])
        let manifest = try #require(
            JSONSerialization.jsonObject(with: Data(try site.text("search/index.json").utf8)) as? [String: Any])
        #expect(manifest["reviews"] as? Int == 3)
        #expect(manifest["docsPerFile"] as? Int == 16)
        #expect(manifest["names"] as? [[AnyHashable]] == [["", 0]])
        let names = try lines(site.text("search/names-0.txt"))
        let text = try lines(site.text("search/text-0.txt"))
        // Stoner is newer: rank 0. Parasite: rank 1.
        #expect(names["stoner"] == "0")
        #expect(names["parasite"] == "1")
        #expect(names["bong"] == "1")
        #expect(names["class"] == "1")
        #expect(names["2024"] == nil, "no year was given")
        #expect(names["기생충".decomposedStringWithCanonicalMapping] == "1")
        #expect(text["stairs"] == "1")
        #expect(text["elan"] == "1")
        #expect(text["campus"] == "0")
        #expect(text["novel"] == "0")
        #expect(text["stoner"] == nil, "the title is a name, not text")
        // A name's words of one scalar are keys ("Dekalog 2" is found by its title as written);
        // the text's are not, as every review has an "a".
        #expect(names["dekalog"] == "2")
        #expect(names["2"] == "2")
        #expect(names["x"] == "2", "a tag of one letter")
        #expect(names["kieslowski"] == "2")
        #expect(text["3"] == nil)
        #expect(text["a"] == nil)
        #expect(text["part"] == "2")
        #expect(text["밤".decomposedStringWithCanonicalMapping] == "2", "a syllable is two or three jamo")
        let docs = try #require(
            JSONSerialization.jsonObject(with: Data(try site.text("search/docs-0.json").utf8)) as? [[Any]])
        #expect(docs.count == 3)
        #expect(docs[0][0] as? String == "/books/stoner/")
        #expect(docs[1][1] as? String == "Parasite")
        #expect(docs[1][6] as? String == "★★★★½")
        #expect(docs[1][7] as? String == "4.5 out of 5 stars")
        let page = try site.text("search/index.html", template: true)
        #expect(page == "search")
    }

    @Test("postings: base-36 differences, or a bitmap when that is shorter")
    func postings() {
        #expect(SearchPresenter.postings([3, 13, 14], of: 100) == "3,a,1")
        let dense = SearchPresenter.postings(Array(0..<100).map(Int32.init), of: 100)
        #expect(dense.hasPrefix("*"))
        let bytes = Data(base64Encoded: String(dense.dropFirst()))
        #expect(bytes?.count == 13)
        #expect(bytes?.first == 0xFF)
        #expect(bytes?.last == 0xF0)
    }

    @Test("postings written as bytes equal the definition: deltas in base 36, or the bitmap when shorter")
    func postingsMatchDefinition() {
        func definition(_ ranks: [Int32], of count: Int) -> String {
            var previous: Int32 = 0
            let deltas = ranks.map { rank in
                defer { previous = rank }
                return String(rank - previous, radix: 36)
            }
            let length = deltas.reduce(0) { $0 + $1.count + 1 }
            guard ((count + 7) / 8 + 2) / 3 * 4 + 1 < length else { return deltas.joined(separator: ",") }
            var bytes = [UInt8](repeating: 0, count: (count + 7) / 8)
            for rank in ranks { bytes[Int(rank) / 8] |= 0x80 >> UInt8(rank % 8) }
            return "*" + Data(bytes).base64EncodedString()
        }
        var random = SplitMix(seed: 36)
        for _ in 0..<2_000 {
            let count = Int.random(in: 1...5_000, using: &random)
            let density = Double.random(in: 0...0.3, using: &random)
            let ranks = (0..<Int32(count)).filter { _ in Double.random(in: 0..<1, using: &random) < density }
            #expect(SearchPresenter.postings(ranks, of: count) == definition(ranks, of: count))
        }
        #expect(SearchPresenter.postings([0, 36, 36 * 37], of: 2_000) == "0,10,100")
    }

    @Test(
        "with many reviews, one edit of a review's text changes a few index files, never adds one, and equals a full build"
    )
    func incrementalAtScale() throws {
        let folder = try ScratchFolder()
        var random = SplitMix(seed: 11)
        let syllables = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "ve", "zu", "go", "ha"]
        let word = { (random: inout SplitMix) in
            (0..<3).map { _ in syllables[Int(random.next() % UInt64(syllables.count))] }.joined()
        }
        try folder.write("site.yml", "title: T\nbase_url: https://example.org/\n")
        var bodies: [String] = []
        var titles: [String] = []
        for number in 0..<440 {
            let body = (0..<40).map { _ in word(&random) }.joined(separator: " ")
            bodies.append(body)
            titles.append("\(word(&random)) \(number)")
            let date = String(format: "2020-%02d-%02d", 1 + number % 12, 1 + number % 28)
            try folder.write(
                "content/movies/r\(number).md",
                reviewFile("title: \(titles[number])\ndate: \(date)", body: body))
        }
        let builder = SiteBuilder(
            options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")))
        let site = try LiveSite.build(builder)
        let searchFiles = { (files: [String: Data]) in Set(files.keys.filter { $0.hasPrefix("search/") }) }
        #expect(searchFiles(site.files).filter { $0.hasPrefix("search/text-") }.count == 11)
        #expect(searchFiles(site.files).filter { $0.hasPrefix("search/names-") }.count == 2)
        // A word other reviews have: only the key file that holds it (the manifest names the
        // same first keys, and the display records show no text).
        let known = try #require(bodies[8].split(separator: " ").first { !bodies[7].contains($0) })
        try folder.write(
            "content/movies/r7.md", reviewFile("title: \(titles[7])\ndate: 2020-08-08", body: bodies[7] + " \(known)"))
        let edited = try site.updating(["content/movies/r7.md"])
        let changed = edited.lastUpdate.changedFiles.filter { $0.hasPrefix("search/") }
        #expect(changed.count == 1 && changed.allSatisfy { $0.hasPrefix("search/text-") }, "\(changed)")
        // A word no review had: maybe new chunk boundaries; never a file more or less.
        try folder.write(
            "content/movies/r7.md",
            reviewFile("title: \(titles[7])\ndate: 2020-08-08", body: bodies[7] + " brandnewword"))
        let added = try edited.updating(["content/movies/r7.md"])
        #expect(searchFiles(added.files) == searchFiles(site.files))
        let full = try LiveSite.build(builder)
        #expect(Set(added.files.keys) == Set(full.files.keys))
        #expect(added.files.keys.filter { added.files[$0] != full.files[$0] }.isEmpty)
    }

    @Test("a review moved by date changes hands only for the ranks it passed: those files, not every file, can differ")
    func movedByDate() throws {
        var random = SplitMix(seed: 12)
        let syllables = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "ve", "zu", "go", "ha"]
        var files: [String: String] = [:]
        let bodies = (0..<600).map { _ in
            (0..<4).map { _ in
                (0..<3).map { _ in syllables[Int(random.next() % UInt64(syllables.count))] }.joined()
            }.joined(separator: " ")
        }
        let review = { (number: Int, day: Int) in
            reviewFile(
                "title: R\(number)\ndate: \(2000 + day / 336)-\(String(format: "%02d-%02d", 1 + day % 336 / 28, 1 + day % 28))",
                body: bodies[number])
        }
        for number in 0..<600 { files["content/movies/r\(number).md"] = review(number, number) }
        let before = try InMemorySite(files).load()
        let presentation = SiteBuilder.present(before, isPreview: true, tracksDependents: true)
        // r100 moves three days on, past three reviews (its words stay: a new word could move
        // the chunks' boundaries, and then every file counts as changed).
        files["content/movies/r100.md"] = review(100, 103)
        let after = try InMemorySite(files).load()
        var index = presentation.index
        let moved = after.reviews.first { $0.source == "content/movies/r100.md" }
        let change = index.update([("content/movies/r100.md", moved)], context: presentation.context)
        #expect(!change.search.everything)
        let fresh = SiteBuilder.present(after, isPreview: true, tracksDependents: true)
        let presenter = SearchPresenter()
        let text = { (key: PageKey, site: Presentation) in
            (presenter.job(key, site).model as? SearchFileModel)?.content
        }
        let updated = Presentation(context: presentation.context, index: index)
        let keys = presenter.keys(fresh).filter { $0 != .search }
        #expect(presenter.keys(updated).filter { $0 != .search } == keys)
        var differing: Set<SearchFile> = []
        for key in keys {
            guard case .searchFile(let file) = key else { continue }
            #expect(text(key, updated) == text(key, fresh), "\(file.path)")
            if text(key, presentation) != text(key, fresh) { differing.insert(file) }
        }
        // Every file that differs is named; far fewer than all are.
        #expect(differing.isSubset(of: change.search.files), "\(differing.subtracting(change.search.files))")
        #expect(!differing.isEmpty)
        #expect(change.search.files.count < keys.count / 2, "\(change.search.files.count) of \(keys.count)")
    }

    @Test("stats: counts per year and month, ratings in halves, top directors, average by decade; a year's page")
    func stats() throws {
        let site = try present([
            "content/movies/a.md": reviewFile("title: A\ndate: 2023-02-01\nrating: 4\nyear: 1994\ndirector: Wong"),
            "content/movies/b.md": reviewFile("title: B\ndate: 2024-02-03\nrating: 3.5\nyear: 1999\ndirector: Wong"),
            "content/movies/c.md": reviewFile("title: C\ndate: 2024-07-03\nrating: 5\nyear: 2019\ndirector: Bong"),
            "content/books/d.md": reviewFile("title: D\ndate: 2024-07-09\nyear: 1965\nauthor: Williams"),
        ])
        let all = try site.model("stats/index.html", as: StatsPageModel.self)
        #expect(all.figures.map(\.value) == ["4", "3", "1", "4.2", "2"])
        let chart = { (model: StatsPageModel, id: String) in try #require(model.charts.first { $0.id == id }) }
        #expect(try chart(all, "per-year").rows.map { [$0.heading] + $0.values } == [["2023", "1"], ["2024", "3"]])
        #expect(
            try chart(all, "per-month").rows.first?.values == [
                "0", "1", "0", "0", "0", "0", "2", "0", "0", "0", "0", "0",
            ])
        let ratings = try chart(all, "ratings").rows.map { [$0.heading] + $0.values }
        #expect(ratings.first == ["5 stars", "1"])
        #expect(ratings.contains(["3.5 stars", "1"]))
        #expect(ratings.last == ["Not rated", "1"])
        #expect(try chart(all, "directors").rows.map { [$0.heading] + $0.values } == [["Wong", "2"], ["Bong", "1"]])
        #expect(
            try chart(all, "decades").rows.map { [$0.heading] + $0.values } == [
                ["1990s", "3.8", "2"], ["2010s", "5.0", "1"],
            ])
        #expect(try chart(all, "per-year").svg.hasPrefix("<svg class=\"chart-svg\""))
        #expect(try chart(all, "per-year").svg.contains("aria-hidden=\"true\""))
        #expect(all.years.map(\.label) == ["All time", "2024", "2023"])
        let year = try site.model("stats/2024/index.html", as: StatsPageModel.self)
        #expect(year.heading == "2024 in review")
        #expect(year.figures.first?.value == "3")
        #expect(
            try chart(year, "per-month").rows.map(\.values) == [
                ["0"], ["1"], ["0"], ["0"], ["0"], ["0"], ["2"], ["0"], ["0"], ["0"], ["0"], ["0"],
            ])
        #expect(year.topRated.map(\.title) == ["C", "B"])
        #expect(site.outputs.contains("stats/2023/index.html"))
        #expect(!site.outputs.contains("stats/2022/index.html"))
    }

    @Test("stats and search in Korean for any Korean tag (ko-KR); the decade in the site's own words")
    func statsWords() throws {
        let files = ["content/movies/a.md": reviewFile("title: A\ndate: 2023-02-01\nrating: 4\nyear: 1994")]
        let korean = try present(files, config: InMemorySite.defaultConfig + "language: ko-KR\n")
        let stats = try korean.model("stats/index.html", as: StatsPageModel.self)
        #expect(stats.heading == "통계")
        #expect(stats.charts.first { $0.id == "decades" }?.rows.first?.heading == "1990년대")
        #expect(try korean.model("search/index.html", as: SearchPageModel.self).search.heading == "검색")
        let own = try present(
            files, config: InMemorySite.defaultConfig + "labels:\n  decadeHeading: \"Decade {decade}\"\n")
        let decades = try own.model("stats/index.html", as: StatsPageModel.self).charts.first { $0.id == "decades" }
        #expect(decades?.rows.first?.heading == "Decade 1990")
    }

    @Test("stats: series are counted as series, not books, and their creators apart from authors")
    func statsSeries() throws {
        let site = try present([
            "content/movies/a.md": reviewFile("title: A\ndate: 2024-02-01\nrating: 4\ndirector: Wong"),
            "content/books/b.md": reviewFile("title: B\ndate: 2024-02-03\nauthor: Williams"),
            "content/shows/_index.md": "---\ntitle: Shows\nkind: tv\n---\n",
            "content/shows/c.md": reviewFile("title: C\ndate: 2024-07-03\nrating: 5\ncreator: Simon"),
            "content/shows/d.md": reviewFile("title: D\ndate: 2024-07-04\ncreator: Simon"),
        ])
        let all = try site.model("stats/index.html", as: StatsPageModel.self)
        #expect(all.figures.map(\.label) == ["Reviews", "Films", "Books", "Series", "Average rating", "Years"])
        #expect(all.figures.map(\.value) == ["4", "1", "1", "2", "4.5", "1"])
        let rows = { (id: String) in all.charts.first { $0.id == id }?.rows.map { [$0.heading] + $0.values } }
        #expect(rows("authors") == [["Williams", "1"]])
        #expect(rows("creators") == [["Simon", "2"]])
        // None of them has a year of release: no decade.
        #expect(rows("decades") == [])
        // A year's page without series still shows the figure, as 0, on a site that has them.
        let shows = try present([
            "content/movies/a.md": reviewFile("title: A\ndate: 2024-02-01\ndirector: Wong"),
            "content/shows/_index.md": "---\ntitle: Shows\nkind: tv\n---\n",
            "content/shows/c.md": reviewFile("title: C\ndate: 2023-07-03\ncreator: Simon"),
        ])
        let year = try shows.model("stats/2024/index.html", as: StatsPageModel.self)
        #expect(year.figures.map(\.label).prefix(4) == ["Reviews", "Films", "Books", "Series"])
        #expect(year.figures.map(\.value).prefix(4) == ["1", "1", "0", "0"])
        #expect(all.charts.first { $0.id == "creators" }?.title == "Top series creators")
        // A site without series shows no figure for them.
        let films = try present(["content/movies/a.md": reviewFile("title: A\ndate: 2024-02-01\ndirector: Wong")])
        let filmStats = try films.model("stats/index.html", as: StatsPageModel.self)
        #expect(!filmStats.figures.map(\.label).contains("Series"))
        #expect(!filmStats.charts.contains { $0.id == "creators" })
    }

    @Test("decades in time order, before the common era counted back from 1 BCE: 5 BCE and 5 CE are not one")
    func decades() {
        let years = [-751, -750, -19, -10, -9, -5, -1, 1, 5, 9, 10, 1994, 1999, 2000]
        let keys = years.map(StatsTally.decade(of:))
        #expect(keys == [-751, -751, -11, -11, -1, -1, -1, 0, 0, 0, 10, 1990, 1990, 2000])
        #expect(keys == keys.sorted())
        #expect(Set(keys).sorted().map { StatsTally.decadeStart($0).year } == [750, 10, 0, 0, 10, 1990, 2000])
        #expect(
            Set(keys).sorted().map { StatsTally.decadeStart($0).isBCE } == [
                true, true, true, false, false, false, false,
            ])
    }

    @Test("top names: the highest counts, ties in collation order, the same as sorting them all")
    func topNames() {
        let collation = Collation(language: .english)
        var counts: [String: Int] = ["émile": 2, "Zed": 9, "apple": 2, "Bob": 2, "bob": 2, "Ann": 2, "Part 10": 1]
        #expect(
            StatsCharts.top(4, of: counts, collation: collation).map { "\($0.key) \($0.value)" } == [
                "Zed 9", "Ann 2", "apple 2", "Bob 2",
            ])
        #expect(StatsCharts.top(0, of: counts, collation: collation).isEmpty)
        #expect(StatsCharts.top(3, of: [:], collation: collation).isEmpty)
        // At random: the same as collating every name.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            counts = [:]
            for _ in 0..<Int.random(in: 0...60, using: &generator) {
                let name = String((0..<3).map { _ in "aAbBéc 1".randomElement(using: &generator)! })
                counts[name] = Int.random(in: 1...4, using: &generator)
            }
            let all = counts.sorted { lhs, rhs in
                if lhs.value != rhs.value { return lhs.value > rhs.value }
                let order = collation.ordered(lhs.key, rhs.key)
                return order == .orderedSame ? lhs.key < rhs.key : order == .orderedAscending
            }
            let limit = Int.random(in: 1...12, using: &generator)
            #expect(StatsCharts.top(limit, of: counts, collation: collation).map(\.key) == all.prefix(limit).map(\.key))
        }
    }

    @Test("the home page never shows a review twice: a section's recent reviews leave out the newest band's")
    func homeShowsEachReviewOnce() throws {
        var files: [String: String] = [:]
        for day in 1...12 {
            files["content/movies/m\(day).md"] = reviewFile(
                "title: M\(day)\ndate: 2024-01-\(String(format: "%02d", day))")
        }
        let site = try present(files)
        let home = try site.model("index.html", as: HomePageModel.self)
        #expect(home.recent.map(\.title) == ["M12", "M11", "M10", "M9", "M8", "M7", "M6", "M5"])
        #expect(home.sections.first?.recent.map(\.title) == ["M4", "M3", "M2", "M1"])
    }

    @Test("column charts: values across when they fit, upright when not, none on hairline columns; text stays inside")
    func columnText() throws {
        let items = { (count: Int, value: Int) in
            (0..<count).map {
                StatsChart.Item(label: String(2000 + $0), value: Double(value + $0), text: String(value + $0))
            }
        }
        let texts = { (svg: String) in
            svg.matches(
                of:
                    /<text class="([a-z-]+)" x="([0-9.-]+)" y="[0-9.-]+" text-anchor="([a-z]+)"( transform="[^"]*")?>([^<]*)</
            )
            .map {
                (
                    kind: String($0.output.1), x: Double($0.output.2)!, anchor: String($0.output.3),
                    turned: $0.output.4 != nil, text: String($0.output.5)
                )
            }
        }
        // Ten columns 40 units wide: "503" (about 22 units) fits across each.
        let ten = texts(StatsChart.columns(items(10, 503)))
        #expect(ten.filter { $0.kind == "chart-value" }.map(\.text) == (503..<513).map(String.init))
        #expect(ten.allSatisfy { !$0.turned })
        // Twenty columns 20 units wide: the values would touch, so each reads upwards.
        let twenty = texts(StatsChart.columns(items(20, 503)))
        let values = twenty.filter { $0.kind == "chart-value" }
        #expect(values.count == 20 && values.allSatisfy { $0.turned && $0.anchor == "start" })
        // Forty columns 10 units wide: no room for a line of text.
        #expect(!texts(StatsChart.columns(items(40, 503))).contains { $0.kind == "chart-value" })
        // Every label and every value written across lies inside the 400 units, the first and last too.
        for chart in [ten, twenty] {
            for text in chart where !text.turned {
                let half = StatsChart.textWidth(text.text, size: 12) / 2
                #expect(text.x - half >= 0 && text.x + half <= StatsChart.width, "\(text)")
            }
        }
        #expect(twenty.first { $0.kind == "chart-label" }?.text == "2000")
        // Labels are thinned by their width: every second year of twenty, every one of twelve months.
        #expect(
            twenty.filter { $0.kind == "chart-label" }.map(\.text)
                == stride(from: 2000, to: 2020, by: 2).map(String.init))
        let months = ["J", "F", "M", "A", "M", "J", "J", "A", "S", "O", "N", "D"]
        let monthly = StatsChart.columns(months.map { StatsChart.Item(label: $0, value: 40, text: "40") })
        #expect(texts(monthly).filter { $0.kind == "chart-label" }.map(\.text) == months)
    }
}

private func present(_ files: [String: String], config: String = InMemorySite.defaultConfig) throws -> Presented {
    let content = try InMemorySite(files, config: config).load()
    return Presented(pages: SitePresenter.jobs(SiteBuilder.present(content, isPreview: false)))
}

private struct Presented {
    let pages: [PageJob]

    var outputs: [String] { pages.map(\.output) }

    func model<Model>(_ output: String, as type: Model.Type) throws -> Model {
        let job = try #require(pages.first { $0.output == output }, "no page \(output)")
        return try #require(job.model as? Model, "\(output) has a \(Swift.type(of: job.model))")
    }

    /// A document's text, or (`template: true`) a page's template name.
    func text(_ output: String, template: Bool = false) throws -> String {
        let job = try #require(pages.first { $0.output == output }, "no page \(output)")
        if template { return job.template }
        return try #require(job.model as? DocumentModel).text()
    }
}

/// `key<TAB>postings` lines as a dictionary.
private func lines(_ text: String) -> [String: String] {
    var result: [String: String] = [:]
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: "\t", maxSplits: 1)
        if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
    }
    return result
}
