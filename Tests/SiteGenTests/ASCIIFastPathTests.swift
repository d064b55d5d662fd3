import Foundation
import Testing

@testable import SiteGen

/// Slugs and excerpts read ASCII text byte by byte; they must equal the character-by-character
/// reading they shortcut, and leave every other text to it.
@Suite("ASCII fast paths")
struct ASCIIFastPathTests {
    /// Random texts of the bytes that matter: letters of both cases, digits, every kind of ASCII
    /// whitespace (CR LF among them), the symbols slugs spell out, other punctuation.
    static func texts(count: Int, seed: UInt64) -> [String] {
        let pieces = [
            "a", "Z", "q", "M", "0", "7", " ", "  ", "\t", "\n", "\r\n", "\r", "\u{0B}", "\u{0C}", "+", "#", "&", "@",
            "-", "_", ".", "'", "!", "/", "C++", "R&B", "Wong Kar-wai", "word",
        ]
        var generator = SplitMix(seed: seed)
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
        }
    }

    @Test("an ASCII slug equals the slug read by characters, with symbols spelled or dropped")
    func slugs() {
        for text in Self.texts(count: 5000, seed: 11) {
            for spelling in [true, false] {
                #expect(
                    text.asciiSlug(spellingSymbols: spelling) == text.slugByCharacters(spellingSymbols: spelling),
                    "\(text.debugDescription)")
            }
        }
        #expect("C++ & C#".slug == "c-plus-plus-and-c-sharp")
        #expect("  Wong Kar-wai ".slug == "wong-kar-wai")
    }

    @Test("other scripts take the reading by characters")
    func slugsBeyondASCII() {
        #expect("Élan".asciiSlug(spellingSymbols: true) == nil)
        #expect("Élan".slug == "élan")
        #expect("기생충 2019".slug == "기생충-2019")
        #expect("e\u{301}t\u{E9}".slug == "e\u{301}t\u{E9}")
        // Compatibility characters as the letters they stand for, compared as scalars (String's
        // == would not tell "ﬁ" from "fi" apart either way: it compares canonically).
        func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }
        #expect(scalars("\u{FB01}nal Cut".slug) == scalars("final-cut"))
        #expect(scalars("ＳＦ 영화 ²".slug) == scalars("sf-영화-2"))
        #expect(scalars("ㄱㅅㅊ".slug) == scalars("ㄱㅅㅊ"))
        #expect("\u{FB01}nal".nameKey == "final".nameKey)
        #expect("ＳＦ".nameKey == "sf".nameKey)
        // Cache file names stay as every cache so far has them.
        #expect(scalars(Lookup.searchKey("\u{FB01}nal")) == scalars("search-\u{FB01}nal"))
    }

    @Test("an ASCII excerpt equals the excerpt read by characters, at every limit")
    func excerpts() {
        for (number, text) in Self.texts(count: 3000, seed: 12).enumerated() {
            let limit = [0, 1, 5, 20, 60, 160][number % 6]
            #expect(
                Formatter.asciiExcerpt(text, limit: limit) == Formatter.excerptByCharacters(text, limit: limit),
                "\(text.debugDescription) \(limit)")
        }
        let format = Formatter(language: .english)
        #expect(format.excerpt("one  two\n three", limit: 9) == "one two…")
        #expect(format.excerpt("short", limit: 9) == "short")
    }

    @Test("an excerpt reaching a character beyond ASCII is read by characters")
    func excerptsBeyondASCII() {
        #expect(Formatter.asciiExcerpt("caf\u{E9} au lait", limit: 20) == nil)
        #expect(
            Formatter(language: .english).excerpt("caf\u{E9}  au\u{A0}\u{A0}lait", limit: 20) == "caf\u{E9} au lait")
        // Past the limit the text is not read, so a late accent changes nothing.
        #expect(Formatter.asciiExcerpt("abc def ghi \u{E9}", limit: 5) == "abc…")
    }
}
