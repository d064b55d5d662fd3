import Foundation
import Testing
import YAML

/// Aliases, anchors, merge keys, nesting and documents: what a small text must not be able to
/// turn into (a huge or endless value, or a second document nobody reads).
@Suite("YAML limits and structure")
struct YAMLLimitsTests {
    /// Nine levels of nine aliases each: 387 million values from 400 bytes.
    static let billionLaughs =
        "a: &a [x,x,x,x,x,x,x,x,x]\n"
        + zip("bcdefghi", "abcdefgh").map { name, previous in
            "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]\n"
        }.joined()

    @Test("\"billion laughs\" stops at the alias that makes the YAML expand past 100,000 values")
    func billionLaughs() {
        // b..e repeat 9·10 + 9·91 + 9·820 + 9·7,381 = 74,718 values; the first *e on line 6 adds 66,430 more.
        #expect(
            throws: YAMLError(
                message: "this YAML expands to more than 100,000 values through aliases",
                position: TextPosition(line: 6, column: 8))
        ) {
            try YAMLParser.parse(Self.billionLaughs)
        }
    }

    @Test("aliases may repeat up to 100,000 values; the next one is refused")
    func aliasLimitIsExact() throws {
        // 1 list + 999 items = 1,000 values; 100 aliases of it repeat exactly 100,000.
        let list = "l: &l [" + Array(repeating: "x", count: 999).joined(separator: ",") + "]\n"
        let uses = (0..<100).map { "u\($0): *l\n" }.joined()
        let root = try #require(try YAMLParser.parse(list + uses))
        guard case .mapping(let pairs, _) = root else {
            Issue.record("expected a mapping")
            return
        }
        #expect(pairs.count == 101)
        #expect(root["u99"] == root["l"])
        #expect(
            throws: YAMLError(
                message: "this YAML expands to more than 100,000 values through aliases",
                position: TextPosition(line: 102, column: 8))
        ) {
            try YAMLParser.parse(list + uses + "extra: *l\n")
        }
    }

    @Test("an alias repeats the value its anchor names, with the positions where it was written")
    func aliasesRepeatValues() throws {
        let root = try #require(
            try YAMLParser.parse("cast: &cast [Song Kang-ho, Lee Sun-kyun]\nagain: *cast\nname: &n Bong\nby: *n\n"))
        #expect(root["again"] == root["cast"])
        #expect(root["again"]?.position == TextPosition(line: 1, column: 7))
        #expect(root["by"] == .scalar("Bong", plain: true, at: TextPosition(line: 3, column: 7)))
    }

    @Test("an anchor defined again names the newer value from there on")
    func anchorRedefined() throws {
        let root = try #require(try YAMLParser.parse("a: &x first\nb: *x\nc: &x second\nd: *x\n"))
        #expect(root["b"]?.scalarText == "first")
        #expect(root["d"]?.scalarText == "second")
    }

    @Test(
        "an alias inside the value it names is refused at the alias, even when the name was used before",
        arguments: [
            ("a: &x [*x]\n", 1, 8),
            ("a: &x {k: [1, *x]}\n", 1, 15),
            ("a: &x 1\nb: &x\n  - *x\n", 3, 5),
        ])
    func recursiveAlias(yaml: String, line: Int, column: Int) {
        #expect(
            throws: YAMLError(
                message: "the alias \"*x\" is inside the value it names, so it would never end",
                position: TextPosition(line: line, column: column))
        ) {
            try YAMLParser.parse(yaml)
        }
    }

    @Test("lists and mappings nest up to 64 levels; the 65th is refused where it starts")
    func depthLimit() throws {
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        var node = try #require(try YAMLParser.parse(deepest))
        var depth = 1
        while case .sequence(let items, _) = node, let first = items.first {
            node = first
            depth += 1
        }
        #expect(depth == 64)
        #expect(
            throws: YAMLError(
                message: "lists and mappings nest deeper than 64 levels here",
                position: TextPosition(line: 1, column: 65))
        ) {
            try YAMLParser.parse(String(repeating: "[", count: 65) + String(repeating: "]", count: 65))
        }
        let blocks =
            (0..<65).map { String(repeating: " ", count: $0 * 2) + "k:\n" }.joined()
            + String(repeating: " ", count: 130) + "v\n"
        #expect(
            throws: YAMLError(
                message: "lists and mappings nest deeper than 64 levels here",
                position: TextPosition(line: 65, column: 129))
        ) {
            try YAMLParser.parse(blocks)
        }
    }

    @Test(
        "100,000 and 1,000,000 levels stop at the first depth error, at level 65",
        arguments: [("v: ", "[", "]", 67), ("v: ", "{a: ", "}", 256), ("", "- ", "", 129)])
    func deepNestingStopsEarly(prefix: String, open: String, close: String, column: Int) {
        for levels in [100_000, 1_000_000] {
            let yaml = prefix + String(repeating: open, count: levels) + "x" + String(repeating: close, count: levels)
            #expect(
                throws: YAMLError(
                    message: "lists and mappings nest deeper than 64 levels here",
                    position: TextPosition(line: 1, column: column))
            ) {
                try YAMLParser.parse(yaml)
            }
        }
    }

    @Test("an alias that would make the nesting deeper than 64 levels is refused at the alias")
    func depthThroughAliases() {
        let deep = "a: &a " + String(repeating: "[", count: 60) + String(repeating: "]", count: 60) + "\n"
        #expect(throws: Never.self) { try YAMLParser.parse(deep + "b: [[[*a]]]\n") }
        #expect(
            throws: YAMLError(
                message: "lists and mappings nest deeper than 64 levels through the alias \"*a\"",
                position: TextPosition(line: 2, column: 8))
        ) {
            try YAMLParser.parse(deep + "b: [[[[*a]]]]\n")
        }
    }

    @Test("merge keys: <<: *anchor and <<: [*a, *b] add the keys the mapping does not have")
    func mergeKeys() throws {
        let yaml = """
            base: &base {director: Bong Joon-ho, year: 2019, rating: 3}
            extra: &extra {year: 2000, country: KR}
            film:
              title: Parasite
              <<: [*base, *extra]
              rating: 4.5
            """
        let root = try #require(try YAMLParser.parse(yaml))
        let film = try #require(root["film"])
        guard case .mapping(let pairs, _) = film else {
            Issue.record("expected a mapping")
            return
        }
        #expect(pairs.map(\.key.scalarText) == ["title", "rating", "director", "year", "country"])
        #expect(film["rating"]?.scalarText == "4.5")
        #expect(film["year"] == .scalar("2019", plain: true, at: TextPosition(line: 1, column: 44)))
        #expect(film["country"]?.scalarText == "KR")
        let single = try #require(try YAMLParser.parse("d: &d {a: 1}\nm:\n  <<: *d\n  b: 2\n"))
        #expect(single["m"]?["a"]?.scalarText == "1")
        #expect(try YAMLParser.parse("m: {\"<<\": {a: 1}}\n")?["m"]?["<<"]?["a"]?.scalarText == "1")
    }

    @Test(
        "a merge key must name mappings; written twice it is a duplicate key",
        arguments: [
            (
                "m:\n  <<: 3\n",
                "\"<<\" merges a mapping (like <<: *defaults) or a list of mappings, not a single value", 2, 7
            ),
            (
                "m:\n  <<: [{a: 1}, [b]]\n",
                "\"<<\" merges a mapping (like <<: *defaults) or a list of mappings, not a list", 2, 16
            ),
            ("d: &d {a: 1}\nm:\n  <<: *d\n  <<: *d\n", "duplicate key \"<<\"", 4, 3),
        ])
    func badMergeKeys(yaml: String, message: String, line: Int, column: Int) {
        #expect(throws: YAMLError(message: message, position: TextPosition(line: line, column: column))) {
            try YAMLParser.parse(yaml)
        }
    }

    @Test(
        "a second document is an error where it starts; one document with --- and ... is fine",
        arguments: [
            ("title: A\n---\ntitle: B\n", 2, 1),
            ("---\ntitle: A\n---\n", 3, 1),
            ("title: A\n...\n---\ntitle: B\n", 3, 1),
            ("--- a\n--- b\n", 2, 1),
        ])
    func secondDocument(yaml: String, line: Int, column: Int) {
        #expect(
            throws: YAMLError(
                message: "a second YAML document starts here, but only one is read: "
                    + "remove this \"---\" line to make one document",
                position: TextPosition(line: line, column: column))
        ) {
            try YAMLParser.parse(yaml)
        }
    }

    @Test("one document, with or without its --- and ... markers, is read")
    func oneDocument() throws {
        for yaml in ["---\ntitle: A\n", "title: A\n...\n", "%YAML 1.1\n---\ntitle: A\n...\n# done\n"] {
            #expect(try YAMLParser.parse(yaml)?["title"]?.scalarText == "A", "\(yaml)")
        }
    }

    @Test(
        "a mapping with 200,000 keys is read, and a duplicate among them found (keys are hashed, not compared in pairs)"
    )
    func manyKeys() throws {
        let keys = (0..<200_000).map { "k\($0): \($0)\n" }.joined()
        let root = try #require(try YAMLParser.parse(keys))
        #expect(root["k199999"]?.scalarText == "199999")
        #expect(throws: YAMLError(message: "duplicate key \"k7\"", position: TextPosition(line: 200_001, column: 1))) {
            try YAMLParser.parse(keys + "k7: again\n")
        }
    }
}
