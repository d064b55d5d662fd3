import Foundation
import Mustache
import Testing

/// `Value(json:path:)`: RFC 8259 JSON into values; every error at its line and column.
@Suite("JSON reader")
struct JSONReaderTests {
    func read(_ text: String) throws -> Value {
        try Value(json: Array(text.utf8), path: "d.json")
    }

    func error(_ bytes: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation) -> JSONError? {
        #expect(throws: JSONError.self, sourceLocation: sourceLocation) { try Value(json: bytes, path: "d.json") }
    }

    func error(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> JSONError? {
        error(Array(text.utf8), sourceLocation: sourceLocation)
    }

    func at(_ line: Int, _ column: Int) -> SourceLocation {
        SourceLocation(path: "d.json", line: line, column: column)
    }

    @Test("every kind of value, with escapes, in any order of keys")
    func values() throws {
        let value = try read(
            #" {"s": "a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "n": [0, -1, 2.5, -0.5e-3, 1E2, true, false, null], "o": {}} "#
        )
        #expect(
            value == [
                "n": [0, -1, 2.5, -0.0005, 100, true, false, nil], "o": [:],
                "s": .string("a\"\\/\u{8}\u{C}\n\r\té😀"),
            ])
        #expect(try read("85") == 85)
        #expect(try read(#""text""#) == "text")
        #expect(try read("[]") == [])
        #expect(try read(#""\u0000""#) == .string("\u{0}"))
    }

    @Test("long arrays and objects are read whole (each value is added where its container is, not copied)")
    func longContainers() throws {
        let count = 200_000
        let numbers = try read("[" + (0..<count).map(String.init).joined(separator: ",") + "]")
        #expect(numbers == .array((0..<count).map { .int($0) }))
        let objects = try read(#"{"a":["# + Array(repeating: #"{"x":1}"#, count: count).joined(separator: ",") + "]}")
        #expect(objects == ["a": .array(Array(repeating: ["x": 1], count: count))])
        let keys = try read("{" + (0..<count).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}")
        #expect(keys["k199999"] == 199_999)
    }

    @Test("a trailing comma is an error at the comma")
    func trailingComma() {
        #expect(error("[1,2,]") == JSONError(#"not valid JSON: trailing comma before "]""#, at: at(1, 5)))
        #expect(error("{\"a\":1,\n}") == JSONError(#"not valid JSON: trailing comma before "}""#, at: at(1, 7)))
        #expect(error("[[1], [2] , ]")?.location == at(1, 11))
        #expect(error("[,1]") == JSONError(#"not valid JSON: expected a value, found ",""#, at: at(1, 2)))
    }

    @Test("a key repeated in one object is an error at the second, naming the first")
    func duplicateKeys() {
        let error = error("{\n  \"a\": 1,\n  \"b\": {\"a\": 2},\n  \"a\": 3\n}")
        #expect(error == JSONError(#"duplicate key "a" (first at 2:3)"#, at: at(4, 3)))
        #expect(error?.description == #"d.json:4:3: duplicate key "a" (first at 2:3)"#)
        #expect(self.error(#"{"é":1,"\u00e9":2}"#) == JSONError(#"duplicate key "é" (first at 1:2)"#, at: at(1, 8)))
    }

    @Test("arrays and objects may nest 512 deep; deeper is an error at the bracket, however deep the file goes")
    func nesting() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try read(deepest) != nil)
        #expect(
            error(String(repeating: "[", count: 513) + String(repeating: "]", count: 513))
                == JSONError("arrays and objects nest more than 512 deep", at: at(1, 513)))
        let megabyte = String(repeating: "[", count: 1 << 20)
        #expect(error(megabyte)?.location == at(1, 513))
        let objects = String(repeating: #"{"a":"#, count: 600)
        #expect(error(objects) == JSONError("arrays and objects nest more than 512 deep", at: at(1, 5 * 512 + 1)))
    }

    @Test("numbers: whole ones that fit Int are exact, others are doubles, ones beyond Double are errors")
    func numbers() throws {
        #expect(
            try read("[9223372036854775807, -9223372036854775808, 1e18, 777777777777777777.0, 1.5e1, 100e-2]") == [
                .int(Int.max), .int(Int.min), .int(1_000_000_000_000_000_000), .int(777_777_777_777_777_777), 15, 1,
            ])
        #expect(try read("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try read("123456789012345678901234567890") == .double(1.2345678901234568e29))
        #expect(try read("[0.1, 1e300, 1e-400, -0]") == [.double(0.1), .double(1e300), .double(0), 0])
        // Not whole, or beyond Int, stays a double however it rounds (the first once became Int.min).
        #expect(try read("-9223372036854775809") == .double(-9_223_372_036_854_775_808))
        #expect(try read("12345675692345673.2300") == .double(12_345_675_692_345_673.23))
        #expect(try read("0.99999999999999999999") == .double(1))
        #expect(error("[1, 1e400]") == JSONError("number 1e400 is too large (beyond ±1.8e308)", at: at(1, 5)))
        let long = "1" + String(repeating: "0", count: 400)
        #expect(
            error(long) == JSONError("number 100000000000000000000000… is too large (beyond ±1.8e308)", at: at(1, 1)))
        #expect(error("[01]") == JSONError("not valid JSON: a number cannot start with 0 and go on", at: at(1, 2)))
        #expect(error("-x") == JSONError(#"not valid JSON: expected a digit after "-", found "x""#, at: at(1, 2)))
        #expect(
            error("1.")
                == JSONError(#"not valid JSON: expected a digit after ".", found the end of the file"#, at: at(1, 3)))
        #expect(
            error("1e+")
                == JSONError(
                    #"not valid JSON: expected a digit in the exponent, found the end of the file"#, at: at(1, 4)))
    }

    @Test("a \\u escape of half a surrogate pair is an error at the escape")
    func loneSurrogates() {
        let message = #"not valid JSON: "\ud800" is half of a surrogate pair, without its other half"#
        #expect(error(#"{"a": "x\ud800"}"#) == JSONError(message, at: at(1, 9)))
        #expect(error(#"["\ud800\u0041"]"#) == JSONError(message, at: at(1, 3)))
        #expect(
            error(#"["\udc00"]"#)
                == JSONError(
                    #"not valid JSON: "\udc00" is half of a surrogate pair, without its other half"#, at: at(1, 3)))
        #expect(error(#"["\u12"]"#) == JSONError(#"not valid JSON: "\u" needs four hexadecimal digits"#, at: at(1, 3)))
        #expect(error(#"["\x"]"#) == JSONError(#"not valid JSON: invalid escape "\"x"" in a string"#, at: at(1, 3)))
    }

    @Test("bytes that are not UTF-8 are an error at the first one, counting characters before it")
    func invalidUTF8() {
        #expect(
            error(Array("{\"a\": \"한국\n어".utf8) + [0xFF] + Array("\"}".utf8))
                == JSONError("not valid UTF-8: byte 0xFF cannot appear here", at: at(2, 2)))
        #expect(error([0x5B, 0xC0, 0x80, 0x5D])?.location == at(1, 2))
        #expect(error(Array("[\"".utf8) + [0xE2, 0x82])?.message == "not valid UTF-8: byte 0xE2 cannot appear here")
        #expect(error(Array("[\"".utf8) + [0xED, 0xA0, 0x80, 0x22, 0x5D])?.location == at(1, 3))
    }

    @Test("a byte order mark is skipped; UTF-16 and UTF-32 are read as Foundation reads them")
    func encodings() throws {
        #expect(try Value(json: [0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8), path: "d.json") == ["a": 1])
        #expect(
            error([0xEF, 0xBB, 0xBF] + Array("[1,\n2,]".utf8))
                == JSONError(#"not valid JSON: trailing comma before "]""#, at: at(2, 2)))
        let text = #"{"é": ["😀"]}"#
        for encoding: String.Encoding in [.utf16, .utf16BigEndian, .utf16LittleEndian, .utf32, .utf32LittleEndian] {
            let data = try #require(text.data(using: encoding))
            #expect(try Value(json: Array(data), path: "d.json") == ["é": ["😀"]], "\(encoding)")
        }
        #expect(
            error([0xFF, 0xFE, 0x22, 0x00, 0x00, 0xD8])
                == JSONError("not valid UTF-16: a code unit that is not text", at: at(1, 2)))
    }

    @Test("UTF-32LE with a byte order mark reads, where Foundation's JSONDecoder fails (found by fuzzing)")
    func utf32LittleEndianWithMark() throws {
        #expect(try Value(json: [0xFF, 0xFE, 0x00, 0x00, 0x30, 0x00, 0x00, 0x00], path: "d.json") == 0)
        #expect(
            error([0xFF, 0xFE, 0x00, 0x00, 0x5B, 0x00, 0x00, 0x00])
                == JSONError("not valid JSON: expected a value, found the end of the file", at: at(1, 2)))
    }

    @Test("a NUL byte after an ASCII one is not mistaken for UTF-16 (found by fuzzing)")
    func notUTF16() {
        #expect(
            error([0x22, 0x00, 0x06, 0x54, 0x30, 0x30, 0x22, 0x00])
                == JSONError("not valid JSON: control character U+0000 must be escaped in a string", at: at(1, 2)))
    }

    @Test("syntax errors name what was found, at its place")
    func syntaxErrors() {
        #expect(error("") == JSONError("not valid JSON: expected a value, found the end of the file", at: at(1, 1)))
        #expect(error("  \n") == JSONError("not valid JSON: expected a value, found the end of the file", at: at(2, 1)))
        #expect(
            error("{\n \"a\": 1,\n \"b\" 2}")
                == JSONError(#"not valid JSON: expected ":" after a key, found "2""#, at: at(3, 6)))
        #expect(error("{\"a\":1} x") == JSONError(#"not valid JSON: unexpected "x" after the value"#, at: at(1, 9)))
        #expect(error("{\"a\":NaN}") == JSONError(#"not valid JSON: expected a value, found "NaN""#, at: at(1, 6)))
        #expect(error("[tru]") == JSONError(#"not valid JSON: expected a value, found "tru""#, at: at(1, 2)))
        #expect(error("[true1]") == JSONError(#"not valid JSON: expected a value, found "true1""#, at: at(1, 2)))
        #expect(error("{1:2}") == JSONError(#"not valid JSON: expected a string key, found "1""#, at: at(1, 2)))
        #expect(
            error("[1 2]")
                == JSONError(#"not valid JSON: expected "," or "]" after an array item, found "2""#, at: at(1, 4)))
        #expect(
            error("{\"a\":1 \"b\"}")
                == JSONError(
                    "not valid JSON: expected \",\" or \"}\" after an object member, found \"\"\"", at: at(1, 8)))
        #expect(
            error("[\"a\tb\"]")
                == JSONError("not valid JSON: control character U+0009 must be escaped in a string", at: at(1, 4)))
        #expect(error("\n  [\"abc") == JSONError("not valid JSON: unclosed string (opened at 2:4)", at: at(2, 8)))
        #expect(error("[\u{1}]") == JSONError("not valid JSON: expected a value, found U+0001", at: at(1, 2)))
    }

    @Test("accepted input reads as Foundation's JSONDecoder reads it")
    func sameAsFoundation() throws {
        let samples = [
            #"{"title": "Parasite", "rating": 4.5, "tags": ["a", "b"], "year": 2019, "n": null, "ok": true}"#,
            #"[1.0, 2.50, -3e2, 0.000001, 123456.789e-3, "\u00e9\n\/"]"#,
        ]
        for sample in samples {
            #expect(try read(sample) == JSONDecoder().decode(Value.self, from: Data(sample.utf8)))
        }
    }

    @Test("a value is located by its keys and indices, past strings, escapes and nested values it skips")
    func locatesValues() {
        let text = """
            \u{FEFF}{"a": "x,]}\\"y", "b\\u0022": [1, {"c": [2, 3]}, [4, "]"]],
              "d": {"e": null, "f": [ {"g": true} ]},
              "b": -7.5}
            """
        let bytes = Array(text.utf8)
        let located = { (steps: [JSONPathStep]) in
            Value.jsonLocation(of: steps, in: bytes, path: "d.json").map { "\($0.line):\($0.column)" }
        }
        #expect(located([]) == "1:1")
        #expect(located([.key("a")]) == "1:7")
        #expect(located([.key("b\"")]) == "1:29")
        #expect(located([.key("b\""), .index(1), .key("c"), .index(1)]) == "1:43")
        #expect(located([.key("b\""), .index(2), .index(1)]) == "1:52")
        #expect(located([.key("d"), .key("f"), .index(0), .key("g")]) == "2:33")
        #expect(located([.key("b")]) == "3:8")
        // Nothing there, or not valid JSON.
        #expect(located([.key("z")]) == nil)
        #expect(located([.key("b\""), .index(3)]) == nil)
        #expect(located([.key("a"), .key("x")]) == nil)
        #expect(located([.index(0)]) == nil)
    }
}
