import Mustache
import Testing
import YAML

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

    @Test("CRLF line endings and a byte order mark do not move lines or columns")
    func crlfAndByteOrderMark() throws {
        for yaml in ["title: A\r\ntags:\r\n  - x\r\n", "\u{FEFF}title: A\ntags:\n  - x\n", "title: A\rtags:\r  - x\r"] {
            let root = try #require(try YAMLParser.parse(yaml))
            #expect(
                root["title"] == .scalar("A", plain: true, at: .init(line: 1, column: 8)), "\(yaml.debugDescription)")
            #expect(
                root["tags"]
                    == .sequence(
                        [.scalar("x", plain: true, at: .init(line: 3, column: 5))], at: .init(line: 3, column: 3)))
        }
    }

    @Test("a scalar tagged !!str stays text; other tags leave a plain scalar plain")
    func tags() throws {
        let root = try #require(try YAMLParser.parse("a: !!str 42\nb: !!int 42\nc: !custom 42\n"))
        #expect(root["a"] == .scalar("42", plain: false, at: .init(line: 1, column: 4)))
        #expect(root["b"] == .scalar("42", plain: true, at: .init(line: 2, column: 4)))
        #expect(root["c"] == .scalar("42", plain: true, at: .init(line: 3, column: 4)))
    }

    @Test("the byte entry point reads the same as the text one; no bytes is no document")
    func bytesEntryPoint() throws {
        let yaml = "title: 기생충\ntags: [a, b]\n"
        #expect(try YAMLParser.parse(Array(yaml.utf8)) == YAMLParser.parse(yaml))
        #expect(try YAMLParser.parse([UInt8]()) == nil)
        #expect(try YAMLParser.parse(UnsafeRawBufferPointer(start: nil, count: 0)) == nil)
    }

    @Test("an empty text or one with only comments holds no document")
    func empty() throws {
        #expect(try YAMLParser.parse("") == nil)
        #expect(try YAMLParser.parse("# nothing here\n") == nil)
    }

    @Test(
        "syntax errors name the problem and where it is",
        arguments: [
            ("title: [a, b] c\n", "did not find expected key while parsing a block mapping", 1, 15),
            ("title: x\n  bad: y\n", "mapping values are not allowed in this context", 2, 6),
            ("- a\nb: c\n", "did not find expected '-' indicator while parsing a block collection", 2, 1),
            ("a: *missing\n", "found undefined alias \"*missing\": no \"&missing\" comes before it", 1, 4),
            ("a: 1\nb: *a\nc: &a 2\n", "found undefined alias \"*a\": no \"&a\" comes before it", 2, 4),
            ("a: 1\r\nb: [x\r\n  c: d]\r\n", "did not find expected ',' or ']' while parsing a flow sequence", 3, 4),
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
