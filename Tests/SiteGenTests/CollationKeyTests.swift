import Foundation
import Testing

@testable import SiteGen

/// The collation orders titles by ICU sort keys; the order must be total (what a sort and
/// serve's binary insertion rely on), which Foundation's `String.compare(_:options:range:locale:)`
/// is not for some texts.
@Suite("Collation keys")
struct CollationKeyTests {
    /// Pieces whose order is easy to get wrong: accents precomposed and combining, case,
    /// full width, numbers, ligatures, Hangul as syllables and as jamo, dotted and dotless i,
    /// sharp s, punctuation, an invisible space, the empty string.
    static let pieces = [
        "e", "é", "e\u{301}", "E", "É", "ß", "ẞ", "ss", "Part 2", "Part 10", "part 02", "ＡＢＣ", "abc", "기생충", "기생",
        "ᄀ", "ㄱ", "\u{1100}\u{1161}", "가", "The ", "the", "A", "a", "ä", "a\u{308}", "Œ", "oe", "ø", "o", "-", "'",
        "’", " ", "1", "١", "①", "ﬁ", "fi", "İ", "i", "ı", "Ω", "ω", "Ⅻ", "12", "ǅ", "Dž", "\u{200B}", "", "Å", "Aa",
        "ü", "y", "ch", "h", "ｶ", "カ", "漢",
    ]

    @Test(
        "keys order titles in a total order, in many languages: no two compare both ways, no three in a circle",
        arguments: ["en", "ko", "de", "sv", "tr", "ja", "fr", "es", "da", "zh-Hans", "ar", "th", "lt", "cs", "fi"])
    func totalOrder(language: String) throws {
        let collation = Collation(language: try #require(SiteLanguage(language)))
        var generator = SplitMix(seed: UInt64(language.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) }))
        let titles = (0..<300).map { _ in
            (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                Self.pieces.randomElement(using: &generator)!
            }.joined()
        }
        let keyed = titles.map { ($0, collation.key($0)) }
        var problems: [String] = []
        for (lhs, lhsKey) in keyed {
            for (rhs, rhsKey) in keyed
            where collation.ordered(lhsKey, rhsKey).rawValue != -collation.ordered(rhsKey, lhsKey).rawValue
                || collation.ordered(lhs, rhs) != collation.ordered(lhsKey, rhsKey)
            {
                problems.append("\(lhs.debugDescription) and \(rhs.debugDescription) compare both ways")
            }
        }
        let sorted = keyed.sorted { collation.ordered($0.1, $1.1) == .orderedAscending }
        for (index, (title, key)) in sorted.enumerated() {
            for (later, laterKey) in sorted[(index + 1)...] where collation.ordered(key, laterKey) == .orderedDescending
            {
                problems.append("\(title.debugDescription) sorted before \(later.debugDescription) but after it")
            }
        }
        #expect(problems.isEmpty, "\(problems.count): \(problems.prefix(5))")
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
        // Accents count (after the letters), typographic ligatures and sharp s are their letters.
        #expect(english.ordered("resume", "résumé") == .orderedAscending)
        #expect(english.ordered("résumé", "resumes") == .orderedAscending)
        #expect(english.ordered("ﬁnal", "final") == .orderedSame)
        let german = Collation(language: SiteLanguage("de")!)
        #expect(german.ordered("Strasse", "Straße") == .orderedAscending)
        #expect(german.ordered("Straße", "Strasset") == .orderedAscending)
        // A language ICU has no collation for sorts by the root collation.
        #expect(Collation(language: SiteLanguage("tlh")!).ordered("b", "a") == .orderedDescending)
    }

    @Test("sorted places put keys in their order, and equal keys (and empty ones) in the order given")
    func sortedPlaces() {
        let english = Collation(language: .english)
        var generator = SplitMix(seed: 11)
        let titles = (0..<400).map { _ in
            (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }
                .joined()
        }
        let keys = titles.map(english.key)
        let places = english.sortedPlaces(of: keys)
        #expect(places.sorted() == Array(titles.indices))
        for (earlier, later) in zip(places, places.dropFirst()) {
            let order = english.ordered(keys[earlier], keys[later])
            #expect(order == .orderedAscending || (order == .orderedSame && earlier < later))
        }
        #expect(english.sortedPlaces(of: []).isEmpty)
        #expect(english.sortedPlaces(of: ["", "b", "", "a"].map(english.key)) == [0, 2, 3, 1])
    }
}
