import Testing
import YAML

/// libyaml's words, then a hint in plain words for the mistakes people make most, at the
/// place the hint speaks of.
@Suite("YAML error hints")
struct YAMLHintTests {
    @Test(
        "a \": \" inside an unquoted value: put the value in quotes (the example escapes what it must)",
        arguments: [
            ("title: Dune: Part Two\n", 1, 12, #"title: "Dune: Part Two""#),
            (
                "date: 2024-01-01\nsummary: Part one: the desert   # a comment\n", 2, 18,
                #"summary: "Part one: the desert""#
            ),
            ("cast:\n  - name: Zendaya: Chani\n", 2, 18, #"name: "Zendaya: Chani""#),
            (#"quote: He said "go": now"# + "\n", 1, 20, #"quote: "He said \"go\": now""#),
            (#"path: C:\x: y"# + "\n", 1, 11, #"path: "C:\\x: y""#),
            ("\u{FEFF}제목: 기생충: 반지하\r\n", 1, 8, #"제목: "기생충: 반지하""#),
        ])
    func colonInValue(yaml: String, line: Int, column: Int, example: String) {
        #expect(
            throws: YAMLError(
                message: "mapping values are not allowed in this context: put the value in quotes, as in \(example)",
                position: TextPosition(line: line, column: column))
        ) {
            try YAMLParser.parse(yaml)
        }
    }

    @Test(
        "control characters written as escapes are refused as libyaml refuses them written as they are",
        arguments: [
            (#"title: "A\x01B""#, 1, 8, "control characters", "U+0001"),
            (#"title: ok"# + "\n" + #"tags: [a, "b\0"]"#, 2, 11, "control characters", "U+0000"),
            (#"- "\e""#, 1, 3, "control characters", "U+001B"),
            (#"k: "x\u0080""#, 1, 4, "control characters", "U+0080"),
            (#"k: "\x7F""#, 1, 4, "control characters", "U+007F"),
            (#"k: "\uFFFE""#, 1, 4, "non-characters", "U+FFFE"),
            (#""\x1F": v"#, 1, 1, "control characters", "U+001F"),
        ])
    func escapedControlCharacters(yaml: String, line: Int, column: Int, kind: String, character: String) {
        #expect(
            throws: YAMLError(
                message: "\(kind) are not allowed (\(character), written as an escape): remove it",
                position: TextPosition(line: line, column: column))
        ) {
            try YAMLParser.parse(yaml)
        }
    }

    @Test("tab, line breaks, next line and other escapes are text like any other")
    func allowedEscapes() throws {
        let root = try #require(try YAMLParser.parse(#"k: "a\tb\nc\rd\Ne\_f\Lg\u00e9""#))
        #expect(root["k"]?.scalarText == "a\tb\nc\rd\u{85}e\u{A0}f\u{2028}g\u{E9}")
    }

    @Test("a value that is already quoted, or a key indented too far, gets no quoting hint")
    func noQuotingHint() {
        #expect(
            throws: YAMLError(
                message: "mapping values are not allowed in this context", position: TextPosition(line: 2, column: 6))
        ) {
            try YAMLParser.parse("title: x\n  bad: y\n")
        }
    }

    @Test(
        "a tab used to indent: YAML indents with spaces",
        arguments: [
            (
                "title: X\n\tdate: 2024-01-01\n",
                "found a tab character that violates indentation while scanning a plain scalar", 2, 1
            ),
            ("tags:\n\t- a\n", "found character that cannot start any token while scanning for the next token", 2, 1),
            (
                "work:\n  \tdirector: X\n",
                "found character that cannot start any token while scanning for the next token", 2, 3
            ),
        ])
    func tabIndentation(yaml: String, message: String, line: Int, column: Int) {
        #expect(
            throws: YAMLError(
                message: "\(message): YAML indents with spaces, not tabs",
                position: TextPosition(line: line, column: column))
        ) {
            try YAMLParser.parse(yaml)
        }
    }

    @Test(
        "an unclosed [, { or quote is reported where it opens",
        arguments: [
            (
                "title: X\ntags: [a, b\nrating: 4\n",
                #"did not find expected ',' or ']' while parsing a flow sequence: the "[" that starts here is never closed with "]""#,
                2, 7
            ),
            (
                "tags: [a, b\n",
                #"did not find expected ',' or ']' while parsing a flow sequence: the "[" that starts here is never closed with "]""#,
                1, 7
            ),
            (
                "work: {director: X\nyear: 2019\n",
                #"did not find expected ',' or '}' while parsing a flow mapping: the "{" that starts here is never closed with "}""#,
                1, 7
            ),
            (
                "title: \"Dune\ndate: 2024-01-01\n",
                #"found unexpected end of stream while scanning a quoted scalar: the " that starts here is never closed"#,
                1, 8
            ),
            (
                "a: 1\r\ntitle: 'Dune\r\n",
                #"found unexpected end of stream while scanning a quoted scalar: the ' that starts here is never closed"#,
                2, 8
            ),
        ])
    func unclosed(yaml: String, message: String, line: Int, column: Int) {
        #expect(throws: YAMLError(message: message, position: TextPosition(line: line, column: column))) {
            try YAMLParser.parse(yaml)
        }
    }

    @Test("bytes libyaml refuses are reported where they are, naming the byte or character")
    func badBytes() {
        #expect(
            throws: YAMLError(
                message: "control characters are not allowed (U+0000)", position: TextPosition(line: 2, column: 11))
        ) {
            try YAMLParser.parse(Array("title: X\nsummary: a\u{0}b\n".utf8))
        }
        #expect(
            throws: YAMLError(
                message: "invalid trailing UTF-8 octet (byte 0x6C)", position: TextPosition(line: 3, column: 12))
        ) {
            try YAMLParser.parse(Array("title: X\r\nx: y\r\nsummary: Am".utf8) + [0xE9] + Array("lie\n".utf8))
        }
        #expect(
            throws: YAMLError(
                message: "invalid leading UTF-8 octet (byte 0xFF)", position: TextPosition(line: 2, column: 4))
        ) {
            try YAMLParser.parse(Array("a: 1\nb: ".utf8) + [0xFF] + Array("\n".utf8))
        }
        #expect(
            throws: YAMLError(
                message: "control characters are not allowed (U+0007)", position: TextPosition(line: 1, column: 6))
        ) {
            try YAMLParser.parse(Array("\u{FEFF}기생충: \u{7}\n".utf8))
        }
    }
}
