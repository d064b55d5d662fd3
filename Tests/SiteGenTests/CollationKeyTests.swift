import Foundation
import Testing

@testable import SiteGen

/// The collation compares titles through Core Foundation with keys made once; it must give
/// exactly the order Foundation's `String.compare(_:options:range:locale:)` gives.
@Suite("Collation keys")
struct CollationKeyTests {
    /// Pieces whose order is easy to get wrong: accents precomposed and combining, case,
    /// full width, numbers, ligatures, Hangul as syllables and as jamo, dotted and dotless i,
    /// punctuation, an invisible space, the empty string.
    static let pieces = [
        "e", "é", "e\u{301}", "E", "É", "ß", "ss", "Part 2", "Part 10", "part 02", "ＡＢＣ", "abc", "기생충", "기생", "ᄀ",
        "\u{1100}\u{1161}", "가", "The ", "the", "A", "a", "ä", "a\u{308}", "Œ", "oe", "ø", "o", "-", "'", "’", " ", "1",
        "١", "①", "ﬁ", "fi", "İ", "i", "ı", "Ω", "ω", "Ⅻ", "12", "ǅ", "Dž", "\u{200B}", "", "Å", "Aa", "ü", "y", "ch",
        "h",
    ]

    @Test(
        "keys order titles as Foundation's compare does, in many languages",
        arguments: ["en", "ko", "de", "sv", "tr", "ja", "fr", "es", "da", "zh-Hans", "ar", "th", "lt", "cs", "fi"])
    func sameOrderAsFoundation(language: String) throws {
        let collation = Collation(language: try #require(SiteLanguage(language)))
        var generator = SplitMix(seed: UInt64(language.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) }))
        func title() -> String {
            (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                Self.pieces.randomElement(using: &generator)!
            }.joined()
        }
        var mismatches: [String] = []
        for _ in 0..<3000 {
            let (lhs, rhs) = (title(), title())
            let expected = lhs.compare(
                rhs, options: [.numeric, .caseInsensitive, .widthInsensitive], range: nil, locale: collation.locale)
            if collation.ordered(Collation.Key(lhs), Collation.Key(rhs)) != expected
                || collation.ordered(lhs, rhs) != expected
            {
                mismatches.append("\(lhs.debugDescription) vs \(rhs.debugDescription)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("canonically equivalent titles are equal, numbers compare by value, case and width are ignored")
    func examples() {
        let english = Collation(language: .english)
        #expect(english.ordered("Caf\u{E9}", "Cafe\u{301}") == .orderedSame)
        #expect(english.ordered("Part 2", "Part 10") == .orderedAscending)
        #expect(english.ordered("ＡＢＣ", "abc") == .orderedSame)
        #expect(english.ordered("Zebra", "apple") == .orderedDescending)
        let swedish = Collation(language: SiteLanguage("sv")!)
        #expect(swedish.ordered("Åsa", "Zorro") == .orderedDescending)
        #expect(english.ordered("Åsa", "Zorro") == .orderedAscending)
    }
}
