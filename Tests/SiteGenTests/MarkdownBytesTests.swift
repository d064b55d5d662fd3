import CommonMark
import Foundation
import Testing

@Suite("Markdown adapter: bytes")
struct MarkdownBytesTests {
    @Test("the byte entry point renders what the text one renders")
    func sameAsText() {
        let text = "# 기생충\n\nThe *stairs* and `code`\n"
        let fromBytes = Array(text.utf8).withUnsafeBytes { Markdown.render($0, allowRawHTML: false) }
        #expect(fromBytes == Markdown.render(text, allowRawHTML: false))
        #expect(fromBytes.firstParagraph == "The stairs and code")
        #expect(fromBytes.wordCount == 5)
    }

    @Test("words are separated by Unicode's spaces as by ASCII ones; a space alone is no word")
    func unicodeSpaces() {
        let counts: [(String, Int)] = [
            ("&nbsp;", 0), ("\u{00A0}\u{3000}\u{2003} \u{202F}", 0), ("Quel\u{00A0}film\u{202F}!", 3),
            ("기생충\u{3000}봉준호", 2), ("a\u{2009}b\u{200A}c\u{205F}d\u{1680}e", 5),
            // The zero-width space separates words (as in Thai); the word joiner, the BOM and
            // the zero-width joiners are inside a word, and alone are none; é and an emoji are words.
            ("a\u{200B}b\u{2060}c\u{FEFF}d\u{200C}e é 🎬", 4), ("\u{200B}", 0), ("\u{2060}\u{FEFF}\u{200D}", 0),
        ]
        for (text, words) in counts {
            #expect(
                Markdown.render(text, allowRawHTML: false).wordCount == words,
                "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("in ASCII, words are runs between spaces, tabs and line breaks, whatever else they hold")
    func asciiWords() {
        // One paragraph (a line break is always followed by a letter, so no blank line or
        // indented code starts), of characters without a meaning in Markdown (which could split
        // a word into two text nodes): cmark keeps every byte but the spaces around line breaks.
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "Z", "9", ",", "?", "\u{7F}", "\u{1}", " ", "  ", "\t", "\nq", "é", "x\u{2003}y"]
        for _ in 0..<300 {
            let text =
                "w "
                + (0..<Int.random(in: 0...80, using: &generator)).map { _ in
                    pieces.randomElement(using: &generator)!
                }.joined()
            let expected = text.split(whereSeparator: { " \t\n\u{2003}".contains($0) }).count
            #expect(Markdown.render(text, allowRawHTML: false).wordCount == expected, "\(Array(text.utf8))")
        }
    }

    @Test("Chinese and Japanese characters count one by one, apart from words; their punctuation ends a word")
    func unspacedScripts() {
        let counts: [(String, Int, Int)] = [
            ("吾輩は猫である。名前はまだ無い。", 0, 14), ("Amélie は 2001 年の映画", 2, 5),
            ("ｱｲｳ！abc「def」", 2, 3), ("기생충 봉준호", 2, 0), ("我爱𠀋 Paris", 1, 3), ("〜、。", 0, 0),
        ]
        for (text, words, characters) in counts {
            let rendered = Markdown.render(text, allowRawHTML: false)
            #expect(rendered.wordCount == words, "\(text)")
            #expect(rendered.characterCount == characters, "\(text)")
        }
    }

    @Test("NUL and bytes that are not UTF-8 become U+FFFD; no bytes is an empty document")
    func hostileBytes() {
        let bytes: [UInt8] = Array("a".utf8) + [0x00, 0xFF, 0xC3] + Array(" b\n".utf8)
        let rendered = bytes.withUnsafeBytes { Markdown.render($0, allowRawHTML: true) }
        #expect(rendered.html == "<p>a\u{FFFD}\u{FFFD}\u{FFFD} b</p>\n")
        #expect(rendered.wordCount == 2)
        let empty = Markdown.render(UnsafeRawBufferPointer(start: nil, count: 0), allowRawHTML: false)
        #expect(empty == RenderedMarkdown(html: "", firstParagraph: "", wordCount: 0))
    }
}
