import Foundation
import Testing

@testable import SiteGen

/// JSON-LD as the pages carry it: valid JSON, and nothing a value holds can close the
/// `<script>` element it sits in.
@Suite("Structured data")
struct StructuredDataTests {
    @Test("strings are escaped: quotes, backslashes, controls, <, >, &, U+2028 and U+2029; other text is as is")
    func escaping() throws {
        let text = "A \"quote\" \\ back\nline\r\t</script><!-- & \u{1}\u{2028}\u{2029} 기생충 é"
        let json = StructuredData.text(text).json
        #expect(
            json
                == #""A \"quote\" \\ back\nline\r\t\u003c/script\u003e\u003c!-- \u0026 \u0001\u2028\u2029 기생충 é""#)
        #expect(!json.contains("<") && !json.contains(">"))
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(json)]".utf8), options: []) as? [String]
        #expect(decoded == [text])
    }

    @Test("each ASCII character, and each from U+2000 to U+20FF, is escaped exactly when it must be")
    func escapingEachCharacter() {
        let short: [Unicode.Scalar: String] = ["\"": #"\""#, "\\": #"\\"#, "\n": #"\n"#, "\r": #"\r"#, "\t": #"\t"#]
        for value in Array(0..<0x80) + Array(0x2000...0x20FF) + [0xE2, 0x3000] {
            let scalar = Unicode.Scalar(UInt32(value))!
            let escaped =
                value < 0x20 || "<>&".unicodeScalars.contains(scalar) || value == 0x2028 || value == 0x2029
                ? "\\u" + String(repeating: "0", count: 4 - String(value, radix: 16).count) + String(value, radix: 16)
                : String(scalar)
            let inner = short[scalar] ?? escaped
            // Alone, and among text, so that runs of plain bytes around it are copied too.
            #expect(StructuredData.text(String(scalar)).json == "\"" + inner + "\"", "U+\(String(value, radix: 16))")
            #expect(
                StructuredData.text("ab\(scalar)cd").json == "\"ab" + inner + "cd\"", "U+\(String(value, radix: 16))")
            // At every place of the eight bytes read at once, with plain bytes before and after.
            for place in 0...8 {
                let before = String("abcdefgh".prefix(place))
                let text = before + String(scalar) + "ijklmnopqrstuvw"
                #expect(
                    StructuredData.text(text).json == "\"" + before + inner + "ijklmnopqrstuvw\"",
                    "U+\(String(value, radix: 16)) after \(place) bytes")
            }
        }
    }

    @Test("a chunk of eight bytes may need an escape exactly when one of its bytes can start one")
    func chunksThatMayNeedAnEscape() {
        let special: Set<UInt8> = Set(0..<0x20).union([0x22, 0x5C, 0x3C, 0x3E, 0x26, 0xE2])
        for byte in UInt8.min...UInt8.max {
            for place in 0..<8 {
                // Plain bytes of every kind around `byte`: letters, a digit, a space, a Hangul syllable.
                var bytes = Array("aZ 9한.".utf8)
                bytes[place] = byte
                let chunk = bytes.withUnsafeBytes { ByteChunk.load($0.baseAddress!, at: 0) }
                #expect(ByteChunk.mayNeedScriptEscape(chunk) == special.contains(byte), "\(byte) at \(place)")
            }
        }
    }

    @Test("objects keep their order; optional members are left out; numbers are whole when they can be")
    func objects() throws {
        let node = StructuredData.node(
            "Review",
            [
                ("ratingValue", .number(4.5)), ("bestRating", .number(5)), ("missing", nil),
                ("list", .list([.text("a"), .number(-2)])),
            ])
        #expect(node.json == #"{"@type":"Review","ratingValue":4.5,"bestRating":5,"list":["a",-2]}"#)
    }

    @Test("the writer puts commas between members and items at every depth, and leaves out members without a value")
    func writer() {
        var json = JSONLDWriter()
        json.object { json in
            json.member("a", "x")
            json.member("missing", nil)
            json.member(
                "list",
                list: { list in
                    list.text("b")
                    list.object(type: "T") { $0.member("n", number: 2.5) }
                    list.list { _ in }
                    list.number(-3)
                })
            json.member("o", type: "U") { $0.member("none", number: nil) }
        }
        #expect(json.json == #"{"a":"x","list":["b",{"@type":"T","n":2.5},[],-3],"o":{"@type":"U"}}"#)
    }

    @Test(
        "XML escaping writes the five entities, even before a combining mark, replaces what XML forbids, leaves the rest"
    )
    func xmlEscaping() {
        #expect(XML.escape("Tom & Jerry's <\"best\"> 기생충 é") == "Tom &amp; Jerry&apos;s &lt;&quot;best&quot;&gt; 기생충 é")
        #expect(XML.escape("&\u{301}") == "&amp;\u{301}")
        let pieces = [
            "&", "<", ">", "\"", "'", "a", " ", "한", "é", "e\u{301}", "\u{301}", "🎬", "\n", "\t", "\r",
            "\u{0}", "\u{1}", "\u{B}", "\u{1F}", "\u{7F}", "\u{85}", "\u{FFFE}", "\u{FFFF}", "\u{FFFD}",
            "\u{FF01}", "\u{EFFF}", "\u{F8FF}", "\u{FFEE}",
        ]
        var random = SplitMix(seed: 7)
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...20, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            var expected = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": expected += "&amp;"
                case "<": expected += "&lt;"
                case ">": expected += "&gt;"
                case "\"": expected += "&quot;"
                case "'": expected += "&apos;"
                case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}":
                    expected += "\u{FFFD}"
                default: expected.unicodeScalars.append(scalar)
                }
            }
            #expect(XML.escape(text) == expected)
        }
    }
}
