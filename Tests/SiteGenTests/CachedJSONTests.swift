import Foundation
import Mustache
import Testing

@testable import SiteGen

/// A metadata cache entry is read without `JSONDecoder` when it is plain JSON of the right
/// types; whatever that reading accepts must read exactly as `JSONDecoder` reads it, and
/// everything else still goes to `JSONDecoder` (same values, same errors).
@Suite("Metadata entries read without JSONDecoder")
struct CachedJSONTests {
    /// The bytes the cache writes for `entry` (`MetadataCache.store`'s encoder).
    static func written(_ entry: WorkMetadata) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(entry) + Data("\n".utf8))
    }

    static func decoded(_ bytes: [UInt8]) -> WorkMetadata? {
        try? JSONDecoder().decode(WorkMetadata.self, from: Data(bytes))
    }

    /// Text with what JSON must escape, non-ASCII letters and emoji.
    static func text(_ random: inout SplitMix) -> String {
        let pieces = ["Kim", "김지운", "é", "e\u{301}", "\"", "\\", "/", "\n", "\t", "\u{1}", "😀", " ", "Ünïcödé", ""]
        return (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }
            .joined()
    }

    static func entry(_ random: inout SplitMix) -> WorkMetadata {
        func maybe<T>(_ make: () -> T) -> T? { Bool.random(using: &random) ? make() : nil }
        func list(_ random: inout SplitMix) -> [String] {
            (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) }
        }
        let number = { (random: inout SplitMix) in
            [0, -1, 1973, Int.max, Int.min, 123_456_789_012].randomElement(using: &random)!
        }
        var entry = WorkMetadata(
            kind: text(&random), source: text(&random), id: text(&random), title: text(&random))
        entry.originalTitle = maybe { text(&random) }
        entry.overview = maybe { text(&random) }
        entry.releaseDate = maybe { text(&random) }
        entry.year = maybe { number(&random) }
        entry.genres = list(&random)
        entry.directors = list(&random)
        entry.authors = list(&random)
        entry.cast = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            CastMember(name: text(&random), character: maybe { text(&random) })
        }
        entry.runtime = maybe { number(&random) }
        entry.pages = maybe { number(&random) }
        entry.publisher = maybe { text(&random) }
        entry.isbn = maybe { text(&random) }
        entry.images = (0..<Int.random(in: 0...2, using: &random)).map { _ in
            CachedImage(size: text(&random), file: text(&random), width: number(&random), height: number(&random))
        }
        entry.series = maybe {
            SeriesFacts(
                creators: list(&random), networks: list(&random), seasons: maybe { number(&random) },
                episodes: maybe { number(&random) }, lastAirDate: maybe { text(&random) })
        }
        return entry
    }

    @Test("entries as the cache writes them read back as themselves, without JSONDecoder")
    func writtenEntriesReadBack() throws {
        var random = SplitMix(seed: 7)
        for _ in 0..<500 {
            let entry = Self.entry(&random)
            let bytes = try Self.written(entry)
            #expect(WorkMetadata(cachedJSON: bytes) == entry)
        }
    }

    @Test("whatever it reads of a damaged entry, JSONDecoder reads the same", arguments: 0..<4)
    func damagedEntries(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        // Bytes and pieces that change a value's type, break the syntax, repeat a key, or
        // write a number another way.
        let pieces =
            [
                "\"", "\\", ",", "}", "]", "{", "[", ":", "null", "1", "-", "0", ".5", "e3", "E-2", "true", "\u{0}",
                "\u{1}", "\\u0041", "\\ud800", "\"year\": 2000,", "\"title\": \"B\",", "\"year\": \"2000\",",
                "\"cast\": [{\"name\": null}],", "\"images\": [{\"size\": \"w\", \"file\": \"f\", \"width\": 1}],",
                "\u{FEFF}", "\"series\": 1,", "\"genres\": [1],", "\"runtime\": 1.0,", "\"pages\": 1e2,",
                "\"year\": 12345678901234567890e-2,", "\"year\": 99999999999999999999,", " ",
            ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xEF, 0xBB, 0xBF], [0xFE, 0xFF]]
        var accepted = 0
        var fellBack = 0
        for _ in 0..<1_500 {
            var bytes = try Self.written(Self.entry(&random))
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                // Half of the time right after the opening brace, where a member is still JSON.
                let at = Bool.random(using: &random) ? 1 : Int.random(in: 0...bytes.count, using: &random)
                let piece = pieces.randomElement(using: &random)!
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.insert(contentsOf: piece, at: at)
                case 1: bytes.replaceSubrange(at..<min(bytes.count, at + piece.count), with: piece)
                default: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...4, using: &random)))
                }
            }
            if let read = WorkMetadata(cachedJSON: bytes) {
                accepted += 1
                #expect(Self.decoded(bytes) == read, "\(String(decoding: bytes, as: UTF8.self))")
            } else {
                fellBack += 1
            }
        }
        // Both paths must be taken, or the comparison says nothing.
        #expect(accepted > 100)
        #expect(fellBack > 100)
    }

    @Test(
        "numbers out of their range are refused at the cache file, whichever reader read them",
        arguments: [
            (
                #""year": -9223372036854775808"#,
                #""year" must be a year from -9999 to 9999 (there is no year 0), not -9223372036854775808"#
            ),
            (#""year": 0"#, #""year" must be a year from -9999 to 9999 (there is no year 0), not 0"#),
            (#""year": 10000.0"#, #""year" must be a year from -9999 to 9999 (there is no year 0), not 10000"#),
            (#""runtime": -5"#, #""runtime" must be a whole number from 0 to 10000000, not -5"#),
            (
                #""images": [{"size": "w342", "file": "images/a.jpg", "width": -99999999999, "height": 5}]"#,
                "the image images/a.jpg must be 1 to 65535 pixels wide and high, not -99999999999×5"
            ),
        ])
    func outOfRange(field: String, message: String) throws {
        let scratch = try ScratchFolder()
        let cache = MetadataCache(folder: scratch.url)
        let lookup = Lookup.tmdb(1)
        let json = #"{"kind": "movie", "source": "tmdb", "id": "1", "title": "A", "# + field + "}"
        try scratch.write(lookup.path, json)
        // At the number out of range (the last negative one, or the year).
        let number = try #require(json.range(of: "-", options: .backwards) ?? json.range(of: ": ", options: .backwards))
        let column = json.utf8.distance(from: json.startIndex, to: number.lowerBound) + (json[number] == "-" ? 1 : 3)
        #expect(
            throws: Diagnostic(
                "not a valid metadata file: \(message)",
                at: SourceLocation(path: "metadata/\(lookup.path)", line: 1, column: column))
        ) {
            try cache.entry(for: lookup)
        }
    }

    @Test(
        "a date edited by hand must be a day, month or year of the calendar; the error is at the date",
        arguments: [
            (#""release_date": "2004-02-30""#, "release_date", "2004-02-30"),
            (#""release_date": "2004-13""#, "release_date", "2004-13"),
            (#""release_date": "0000""#, "release_date", "0000"),
            (#""release_date": "99999-01-01""#, "release_date", "99999-01-01"),
            (#""release_date": "2004-9-29""#, "release_date", "2004-9-29"),
            (#""series": {"last_air_date": "2023-02-29"}"#, "last_air_date", "2023-02-29"),
        ])
    func datesOutOfTheCalendar(field: String, name: String, date: String) throws {
        let scratch = try ScratchFolder()
        let cache = MetadataCache(folder: scratch.url)
        let lookup = Lookup.tmdb(1)
        let json = #"{"kind": "movie", "source": "tmdb", "id": "1", "title": "A", "# + field + "}"
        try scratch.write(lookup.path, json)
        let quote = try #require(json.range(of: "\"" + date))
        #expect(
            throws: Diagnostic(
                "not a valid metadata file: \"\(name)\" must be a date of the calendar written YYYY-MM-DD "
                    + "(or YYYY-MM, or YYYY), not \"\(date)\"",
                at: SourceLocation(
                    path: "metadata/\(lookup.path)", line: 1,
                    column: json.utf8.distance(from: json.startIndex, to: quote.lowerBound) + 1))
        ) {
            try cache.entry(for: lookup)
        }
        // Real ones are read as written.
        try scratch.write(lookup.path, json.replacingOccurrences(of: date, with: "2024-02-29"))
        #expect(try cache.entry(for: lookup) != nil)
    }

    @Test("control characters in an entry's text are removed when read; tab, line breaks and escaped backslashes stay")
    func controlCharacters() throws {
        let scratch = try ScratchFolder()
        let cache = MetadataCache(folder: scratch.url)
        let lookup = Lookup.tmdb(1)
        let json =
            #"{"kind": "movie", "source": "tmdb", "id": "1", "title": "A\u0001B\u001b[2J", "#
            + #""overview": "one\ttwo\nthree\b\f\u007F\u0085 C:\\bin", "cast": [{"name": "Kim\u0007"}]}"#
        try scratch.write(lookup.path, json)
        let entry = try #require(try cache.entry(for: lookup))
        #expect(entry.title == "AB[2J")
        #expect(entry.overview == "one\ttwo\nthree C:\\bin")
        #expect(entry.cast.map(\.name) == ["Kim"])
        #expect(WorkMetadata.mayHoldControlCharacters(Data(#"{"title": "C:\\bin \"q\" \/"}"#.utf8)) == false)
        #expect(WorkMetadata.mayHoldControlCharacters(Data(#"{"title": "\u00e9"}"#.utf8)))
    }

    @Test("raw DEL and C1 controls in an entry edited by hand, without a backslash, are removed when read")
    func rawControlCharacters() throws {
        let scratch = try ScratchFolder()
        let cache = MetadataCache(folder: scratch.url)
        let lookup = Lookup.tmdb(1)
        let json =
            "{\"kind\": \"movie\", \"source\": \"tmdb\", \"id\": \"1\", \"title\": \"A\u{7F}B\u{85}C\u{9B}31m\", "
            + "\"genres\": [\"Dra\u{80}ma\"], \"publisher\": \"caf\u{E9}\u{A0}\u{A9}\"}"
        try scratch.write(lookup.path, json)
        let entry = try #require(try cache.entry(for: lookup))
        #expect(entry.title == "ABC31m")
        #expect(entry.genres == ["Drama"])
        #expect(entry.publisher == "caf\u{E9}\u{A0}\u{A9}")
        for (text, holds) in [
            ("\u{7F}", true), ("\u{80}", true), ("\u{85}", true), ("\u{9F}", true), ("\u{1B}", true), ("\u{0}", true),
            ("\u{A0}", false), ("\u{E9}", false), ("\u{100}", false), ("\t\n\r ", false), ("\\\\u", false),
            ("\\\\\\u0001", true), ("\u{C2}", false),
        ] {
            #expect(
                WorkMetadata.mayHoldControlCharacters(Data("{\"t\": \"x\(text)\"}".utf8)) == holds,
                "\(text.debugDescription)")
        }
        // At every place in a longer entry, across the eight-byte runs it is read in.
        for before in 0..<24 {
            let head = String(repeating: "a", count: before)
            for (text, holds) in [
                ("\u{7F}", true), ("\u{1B}", true), ("\u{85}", true), ("\\b", true), ("\\\\b", false),
            ] {
                let json = Data("{\"t\": \"\(head)\(text)\(String(repeating: "z ", count: 10))\"}".utf8)
                #expect(WorkMetadata.mayHoldControlCharacters(json) == holds, "\(before) \(text.debugDescription)")
            }
        }
        // A lone C2 byte at the very end (not UTF-8) is looked at without reading past it.
        #expect(WorkMetadata.mayHoldControlCharacters(Data([0x22, 0xC2])) == false)
        #expect(WorkMetadata.mayHoldControlCharacters(Data([0x22, 0x5C])) == false)
    }

    @Test(
        "a cache file that is not JSON is an error at its line and column; one with a value of the wrong kind says so",
        arguments: [
            (
                "{\"kind\": \"movie\",\n\"title\": \"M\", \"year\": 19", 2, 25,
                "not valid JSON: expected \",\" or \"}\" after an object member, found the end of the file"
            ),
            (
                // At the value.
                "{\"kind\": \"movie\", \"source\": \"tmdb\", \"id\": \"1\", \"title\": \"A\", \"year\": 1927.5}", 1, 70,
                "\"year\" must be a whole number, not 1927.5"
            ),
            (
                "{\"kind\": \"movie\", \"source\": \"tmdb\", \"id\": \"1\", \"title\": \"A\",\n\"runtime\": 101.5}", 2,
                12,
                "\"runtime\" must be a whole number, not 101.5"
            ),
            (
                "{\"kind\": \"movie\", \"source\": \"tmdb\", \"id\": \"1\", \"title\": \"A\",\n\"runtime\": 100000000000000000000}",
                2, 12, "\"runtime\" is too large a number: 1e+20"
            ),
        ])
    func locatedErrors(json: String, line: Int, column: Int, message: String) throws {
        let scratch = try ScratchFolder()
        let cache = MetadataCache(folder: scratch.url)
        let lookup = Lookup.tmdb(1)
        try scratch.write(lookup.path, json)
        #expect(
            throws: Diagnostic(
                "not a valid metadata file: \(message)",
                at: SourceLocation(path: "metadata/\(lookup.path)", line: line, column: column))
        ) {
            try cache.entry(for: lookup)
        }
    }

    @Test("entries it leaves to JSONDecoder still read, or fail with JSONDecoder's message")
    func fallBack() throws {
        let scratch = try ScratchFolder()
        let cache = MetadataCache(folder: scratch.url)
        let lookup = Lookup.tmdb(1)
        let file = scratch.url.appendingPathComponent(lookup.path)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let cases: [(String, Int?)] = [
            ("{\"kind\": \"movie\", \"source\": \"tmdb\", \"id\": \"1\", \"title\": \"A\", \"year\": 1e3}", 1000),
            ("{\"kind\": \"movie\", \"source\": \"tmdb\", \"id\": \"1\", \"title\": \"A\", \"year\": 2000.0}", 2000),
        ]
        for (text, year) in cases {
            let bytes = Array(text.utf8)
            #expect(WorkMetadata(cachedJSON: bytes) == nil, "\(text)")
            try Data(bytes).write(to: file)
            let read = try cache.entry(for: lookup)
            #expect(read == Self.decoded(bytes))
            if let year { #expect(read?.year == year) }
        }
        // A key written twice is an error at the second (JSONDecoder took the first).
        try Data(
            "{\"kind\": \"movie\", \"source\": \"tmdb\", \"id\": \"1\", \"title\": \"A\", \"year\": 1, \"year\": 2}"
                .utf8
        ).write(to: file)
        #expect(
            throws: Diagnostic(
                "not a valid metadata file: duplicate key \"year\" (first at 1:62)",
                at: SourceLocation(path: "metadata/\(lookup.path)", line: 1, column: 73))
        ) { try cache.entry(for: lookup) }
        // A field of the wrong kind is an error at its value, saying what it must be and what it is.
        let kinds = [
            (#""id": 1"#, #""id" must be text in quotes, not a number"#),
            (#""id": "1", "year": "1927""#, #""year" must be a whole number, not text"#),
            (#""id": "1", "directors": 5"#, #""directors" must be a list in [ ], not a number"#),
            (#""id": "1", "cast": [{"name": true}]"#, #""cast[0].name" must be text in quotes, not true or false"#),
            (#""id": "1", "series": []"#, #""series" must be an object in { }, not a list"#),
            (
                #""id": "1", "overview": null, "runtime": null, "genres": [null]"#,
                #""genres[0]" must be text in quotes, not null"#
            ),
        ]
        for (fields, message) in kinds {
            let json = #"{"kind": "movie", "source": "tmdb", "title": "A", "# + fields + "}"
            try Data(json.utf8).write(to: file)
            let error = #expect(throws: Diagnostic.self) { try cache.entry(for: lookup) }
            #expect(error?.message == "not a valid metadata file: " + message, "\(json)")
        }
        try Data("{\"kind\": \"movie\", \"source\": \"tmdb\", \"id\": 1, \"title\": \"A\"}".utf8).write(to: file)
        #expect(
            throws: Diagnostic(
                #"not a valid metadata file: "id" must be text in quotes, not a number"#,
                at: SourceLocation(path: "metadata/\(lookup.path)", line: 1, column: 43))
        ) { try cache.entry(for: lookup) }
        // An array is no entry; an object without a title says so at the object.
        try Data("[1, 2]".utf8).write(to: file)
        #expect(
            throws: Diagnostic(
                "not a valid metadata file: it must hold one JSON object, the entry's fields",
                at: SourceLocation(path: "metadata/\(lookup.path)", line: 1, column: 1))
        ) { try cache.entry(for: lookup) }
        try Data("\n  {\"kind\": \"movie\", \"source\": \"tmdb\", \"id\": \"1\"}".utf8).write(to: file)
        #expect(
            throws: Diagnostic(
                "not a valid metadata file: missing \"title\"",
                at: SourceLocation(path: "metadata/\(lookup.path)", line: 2, column: 3))
        ) { try cache.entry(for: lookup) }
    }
}
