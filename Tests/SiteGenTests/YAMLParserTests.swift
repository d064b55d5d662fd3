import Mustache
import Testing

@testable import SiteGen

@Suite("YAML parser")
struct YAMLParserTests {
    @Test("keys, values and list items carry their line and column")
    func positions() throws {
        let yaml = """
            title: Past Lives
            tags:
              - drama
              - [a, b]
            nested:
                director: Celine Song
            """
        let root = try #require(try YAMLParser.parse(yaml))
        guard case .mapping(let pairs, let start) = root else {
            Issue.record("expected a mapping, got \(root)")
            return
        }
        #expect(start == TextPosition(line: 1, column: 1))
        #expect(pairs.map(\.key.scalarText) == ["title", "tags", "nested"])
        #expect(
            pairs.map(\.key.position) == [
                .init(line: 1, column: 1), .init(line: 2, column: 1), .init(line: 5, column: 1),
            ])
        #expect(pairs[0].value == .scalar("Past Lives", plain: true, at: .init(line: 1, column: 8)))
        guard case .sequence(let items, let listStart) = pairs[1].value else {
            Issue.record("expected a list")
            return
        }
        #expect(listStart == TextPosition(line: 3, column: 3))
        #expect(items[0] == .scalar("drama", plain: true, at: .init(line: 3, column: 5)))
        #expect(items[1].position == TextPosition(line: 4, column: 5))
        #expect(root["nested"]?["director"] == .scalar("Celine Song", plain: true, at: .init(line: 6, column: 15)))
    }

    @Test("columns count characters, not UTF-8 bytes")
    func columnsCountCharacters() throws {
        let root = try #require(try YAMLParser.parse("제목: 기생충\n감독: \"봉준호\"\n"))
        #expect(root["제목"] == .scalar("기생충", plain: true, at: .init(line: 1, column: 5)))
        #expect(root["감독"] == .scalar("봉준호", plain: false, at: .init(line: 2, column: 5)))
    }

    @Test("an empty text or one with only comments holds no document")
    func empty() throws {
        #expect(try YAMLParser.parse("") == nil)
        #expect(try YAMLParser.parse("# nothing here\n") == nil)
    }

    @Test(
        "syntax errors name the problem and where it is",
        arguments: [
            ("title: [a, b\n", "did not find expected ',' or ']' while parsing a flow sequence", 2, 1),
            ("title: x\n  bad: y\n", "mapping values are not allowed in this context", 2, 6),
            ("a: \"open\n", "found unexpected end of stream while scanning a quoted scalar", 2, 1),
            ("- a\nb: c\n", "did not find expected '-' indicator while parsing a block collection", 2, 1),
            ("a: *missing\n", "found undefined alias", 1, 4),
        ])
    func syntaxErrors(text: String, message: String, line: Int, column: Int) {
        #expect(throws: YAMLError(message: message, position: TextPosition(line: line, column: column))) {
            try YAMLParser.parse(text)
        }
    }

    @Test("a key written twice is an error at the second one")
    func duplicateKeys() {
        #expect(throws: YAMLError(message: "duplicate key \"title\"", position: TextPosition(line: 3, column: 1))) {
            try YAMLParser.parse("title: A\ndate: 2024-01-01\ntitle: B\n")
        }
        #expect(throws: YAMLError(message: "duplicate key \"x\"", position: TextPosition(line: 3, column: 5))) {
            try YAMLParser.parse("m:\n    x: 1\n    x: 2\n")
        }
    }

    @Test("an alias that contains itself is refused instead of recursing forever")
    func recursiveAlias() {
        #expect(throws: YAMLError.self) { try YAMLParser.parse("a: &x [*x]\n") }
    }

    @Test(
        "plain scalars become typed template values (YAML 1.2 core schema); quoted ones stay text",
        arguments: [
            ("v: 42", Value.int(42)),
            ("v: -7", .int(-7)),
            ("v: 4.5", .double(4.5)),
            ("v: 1e3", .double(1000)),
            ("v: true", .bool(true)),
            ("v: False", .bool(false)),
            ("v: ~", .null),
            ("v: null", .null),
            ("v:", .null),
            ("v: yes", .string("yes")),
            ("v: nan", .string("nan")),
            ("v: .inf", .string(".inf")),
            ("v: 2024-03-14", .string("2024-03-14")),
            ("v: \"42\"", .string("42")),
            ("v: 'true'", .string("true")),
            ("v: ''", .string("")),
            ("v: Dekalog 2", .string("Dekalog 2")),
        ])
    func scalarTyping(yaml: String, expected: Value) throws {
        let root = try #require(try YAMLParser.parse(yaml))
        #expect(root.templateValue["v"] == expected)
    }

    @Test("lists and mappings become arrays and objects, all the way down")
    func collections() throws {
        let root = try #require(try YAMLParser.parse("cast: [Song Kang-ho, 3]\nextra: {a: 1, b: [true, \"x\"]}\n"))
        #expect(
            root.templateValue
                == .object([
                    "cast": .array([.string("Song Kang-ho"), .int(3)]),
                    "extra": .object(["a": .int(1), "b": .array([.bool(true), .string("x")])]),
                ]))
    }
}
