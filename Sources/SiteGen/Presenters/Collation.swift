import Foundation

/// Sorting in the site language's collation (ICU through Foundation), with numbers in
/// titles compared as numbers, and grouping by a title's initial.
public struct Collation: Sendable {
    public let locale: Locale

    public init(language: SiteLanguage) {
        locale = language.locale
    }

    /// Whether `lhs` sorts before `rhs`: collation order, "Part 2" before "Part 10".
    public func ordered(_ lhs: String, _ rhs: String) -> ComparisonResult {
        lhs.compare(rhs, options: [.numeric, .caseInsensitive, .widthInsensitive], range: nil, locale: locale)
    }

    /// The index letter for a title: A–Z without accents, "0–9", a Hangul initial consonant
    /// (ㄱ ㄴ ㄷ …, double consonants with their single one), or "#".
    public func initial(of title: String) -> String {
        guard let scalar = title.unicodeScalars.first(where: { CharacterSet.alphanumerics.contains($0) }) else {
            return "#"
        }
        let value = scalar.value
        if (0xAC00...0xD7A3).contains(value) {
            return Self.consonants[Self.simple[Int((value - 0xAC00) / 588)]]
        }
        if (0x3131...0x314E).contains(value), let index = Self.consonants.firstIndex(of: String(scalar)) {
            return Self.consonants[Self.simple[index]]
        }
        if CharacterSet.decimalDigits.contains(scalar) { return "0–9" }
        let folded = String(scalar).folding(options: [.diacriticInsensitive, .caseInsensitive], locale: locale)
        return folded.uppercased()
    }

    /// The 19 initial consonants of Hangul syllables, in Unicode order.
    static let consonants = [
        "ㄱ", "ㄲ", "ㄴ", "ㄷ", "ㄸ", "ㄹ", "ㅁ", "ㅂ", "ㅃ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅉ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ",
    ]
    /// For each consonant, the index of the one it is listed under (ㄲ under ㄱ…).
    static let simple = [0, 0, 2, 3, 3, 5, 6, 7, 7, 9, 9, 11, 12, 12, 14, 15, 16, 17, 18]
}
