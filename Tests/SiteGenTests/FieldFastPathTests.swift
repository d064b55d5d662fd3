import Foundation
import Testing

@testable import SiteGen

/// The byte-level fast paths of front matter reading agree with the character-level checks
/// they shortcut, on random text mixing ASCII with letters, digits, marks and blanks of
/// other scripts.
@Suite("Front matter fast paths")
struct FieldFastPathTests {
    static let pieces = [
        "a", "Z", "0", "9", "-", "_", ".", " ", "/", "\r\n", "\t", "é", "e\u{301}", "한", "٣", "１", "Ⅳ", "ß",
        "\u{3000}", "\u{200B}", "\u{00A0}", "😀", "K", "\u{212A}", "2024", "-01", "-31", "x",
    ]

    static func text(_ random: inout SplitMix, pieces: [String], length: ClosedRange<Int>) -> String {
        (0..<Int.random(in: length, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    @Test("a slug passes the ASCII byte check exactly when it passes the character check")
    func slugs() {
        var random = SplitMix(seed: 31)
        var passed = 0
        for round in 0..<4000 {
            // Half the texts from ASCII slug pieces only, so that many pass.
            let pieces = round.isMultiple(of: 2) ? ["a", "Z", "0", "9", "-", "_", "x"] : Self.pieces
            let slug = Self.text(&random, pieces: pieces, length: 0...6)
            let reference = !slug.isEmpty && slug.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            #expect(slug.isSafeSlug == reference, "\(slug.unicodeScalars.map { $0.value })")
            if reference { passed += 1 }
        }
        #expect(passed > 1000)
        #expect("été-2".isSafeSlug && "기생충".isSafeSlug && !"a b".isSafeSlug && !"".isSafeSlug && !"\r\n".isSafeSlug)
    }

    @Test("a day parsed from bytes is the day the character-level parse gives, or nil for both")
    func days() {
        var random = SplitMix(seed: 32)
        var valid = 0
        let digits = ["0", "1", "2", "3", "9", "-", "٣", "１", " ", "+", "a", "\u{301}"]
        for round in 0..<6000 {
            var text = Self.text(&random, pieces: digits, length: 8...12)
            if round.isMultiple(of: 3) {
                // Dates written right (months 0 to 13, days 0 to 32), half of them with one piece changed.
                let year = Int.random(in: 1...9999, using: &random)
                let month = Int.random(in: 0...13, using: &random)
                let day = Int.random(in: 0...32, using: &random)
                text = String(format: "%04d-%02d-%02d", year, month, day)
                if round.isMultiple(of: 2) {
                    var characters = Array(text)
                    characters[Int.random(in: 0..<characters.count, using: &random)] = Character(
                        digits.randomElement(using: &random)!)
                    text = String(characters)
                }
            }
            #expect(Day(text) == Day.reference(text), "\(text)")
            if Day(text) != nil { valid += 1 }
        }
        #expect(valid > 500)
    }
}

extension Day {
    /// The character-level parse the byte path shortcuts (as it was written before it).
    static func reference(_ text: String) -> Day? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        return Day(year: year, month: month, day: day)
    }
}
