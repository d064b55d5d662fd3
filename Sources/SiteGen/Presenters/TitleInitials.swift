import Collating
import Foundation
import Synchronization

/// A title's initial: the heading of its group in a list by title (and of a tag in the list of
/// tags), chosen so that the titles under one initial stay together in the collation's order
/// (each initial is one group):
/// - Hangul by initial consonant (ㄱ ㄴ ㄷ …, a double consonant under its single one);
/// - kana by the row of the Japanese syllabary (あ か さ た な は ま や ら わ), hiragana and
///   katakana alike, voiced and small kana with their row;
/// - digits, and numbers written as digits, as "0–9";
/// - Han characters as the character itself;
/// - other letters under the index letter of the language (ICU's: A to Z in English, with
///   Å Ä Ö in Swedish) that the title's start sorts as (É under E; Å under A in English, but
///   its own letter in Swedish; Æ, sorted as AE, under A; "Aa" under Å in Danish), else under
///   the letter with the fewest accents that sorts the same, as a capital in the language's
///   case (Turkish i under İ), accents, strokes and ligatures folded where the language sorts
///   them with the plain letter;
/// - anything else as "#".
final class TitleInitials: Sendable {
    private let locale: Locale
    private let collator: Collator
    /// The language's index headings (ICU's: A to Z in English, with Å Ä Ö in Swedish), by the
    /// primary weight each sorts by: a title whose first letter sorts the same comes under it.
    private let headings: [UInt64: String]
    /// Each title start's initial (by its first three letters), found once.
    private let known = Mutex<[String: String]>([:])
    /// ``representative(of:sortedAs:)`` by primary weight and letter.
    private let representatives = Mutex<[Letter: Unicode.Scalar]>([:])

    private struct Letter: Hashable {
        let primary: UInt64
        let scalar: Unicode.Scalar
    }

    init(locale: Locale, collator: Collator) {
        self.locale = locale
        self.collator = collator
        var headings: [UInt64: String] = [:]
        for heading in Collator.indexCharacters(locale: locale.identifier) {
            // Of two headings that sort as one (Е and Ё in Russian), the one with fewer marks.
            guard let primary = collator.firstPrimary(heading) else { continue }
            if let other = headings[primary], Self.marks(other) <= Self.marks(heading) { continue }
            headings[primary] = heading
        }
        self.headings = headings
    }

    /// The initial of `title`.
    func initial(of title: String) -> String {
        var letters = Self.firstLetters(of: title)
        // A letter the collation passes over (Arabic's tatweel, which only stretches a line) is
        // not what the title sorts by.
        while let first = letters.first, letters.count > 1, Self.mayBeIgnored(first),
            collator.firstPrimary(String(first)) == nil
        {
            letters = letters.dropFirst()
        }
        guard let scalar = letters.first else { return "#" }
        // Three letters: enough for the letters a language sorts as one (Danish "aa" as å,
        // Hungarian "dzs").
        let start = String(String.UnicodeScalarView(letters.prefix(3)))
        if let known = known.withLock({ $0[start] }) { return known }
        let initial = initial(of: scalar, start: start)
        known.withLock { $0[start] = initial }
        return initial
    }

    /// How many scalars `text` has once decomposed: a letter's accents counted with it.
    private static func marks(_ text: String) -> Int {
        text.decomposedStringWithCanonicalMapping.unicodeScalars.count
    }

    /// Whether `initial` (as ``initial(of:)`` gives it) is a Han character. A list by title
    /// has one such initial for each first character: thousands on a Chinese or Japanese site.
    static func isHan(_ initial: String) -> Bool {
        let scalars = initial.unicodeScalars
        guard let scalar = scalars.first, scalars.count == 1 else { return false }
        return isHan(scalar)
    }

    /// Whether `scalar` is a CJK ideograph: unified (the main block, extension A, the
    /// supplementary planes' extensions) or a compatibility one.
    static func isHan(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (0x4E00...0x9FFF).contains(value) || (0x3400...0x4DBF).contains(value)
            || (0x20000...0x3134F).contains(value) || (0xF900...0xFAFF).contains(value)
            || (0x2F800...0x2FA1F).contains(value)
    }

    /// The 19 initial consonants of Hangul syllables, in Unicode order.
    static let consonants = [
        "ㄱ", "ㄲ", "ㄴ", "ㄷ", "ㄸ", "ㄹ", "ㅁ", "ㅂ", "ㅃ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅉ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ",
    ]
    /// For each consonant, the index of the one it is listed under (ㄲ under ㄱ…).
    static let simple = [0, 0, 2, 3, 3, 5, 6, 7, 7, 9, 9, 11, 12, 12, 14, 15, 16, 17, 18]
    /// The rows of the Japanese syllabary: each row's first hiragana and the last kana in it.
    static let kanaRows: [(initial: String, last: Unicode.Scalar)] = [
        ("あ", "お"), ("か", "ご"), ("さ", "ぞ"), ("た", "ど"), ("な", "の"), ("は", "ぽ"), ("ま", "も"), ("や", "よ"),
        ("ら", "ろ"), ("わ", "ゖ"),
    ]
}

private extension TitleInitials {
    /// The first letters and digits of `title` (up to eight; full-width Latin and half-width
    /// kana in their usual width), past a Thai or Lao vowel written before its consonant, which
    /// the collation reads after it.
    static func firstLetters(of title: String) -> ArraySlice<Unicode.Scalar> {
        var scalars = Array(title.unicodeScalars.drop { !CharacterSet.alphanumerics.contains($0) }.prefix(8))[...]
        if let first = scalars.first, (0xFF00...0xFFEF).contains(first.value) {
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            scalars = Array(text.precomposedStringWithCompatibilityMapping.unicodeScalars)[...]
        }
        // Only before a consonant of its script: the collation swaps the two only then.
        if let first = scalars.first, let next = scalars.dropFirst().first,
            (0x0E40...0x0E44).contains(first.value) && (0x0E01...0x0E2E).contains(next.value)
                || (0x0EC0...0x0EC4).contains(first.value) && (0x0E81...0x0EAE).contains(next.value)
        {
            scalars = scalars.dropFirst()
        }
        return scalars
    }

    /// The initial of a title whose first letter is `scalar` and that starts with `start`.
    func initial(of scalar: Unicode.Scalar, start: String) -> String {
        let value = scalar.value
        if (0xAC00...0xD7A3).contains(value) {
            return Self.consonants[Self.simple[Int((value - 0xAC00) / 588)]]
        }
        if (0x3131...0x314E).contains(value), let index = Self.consonants.firstIndex(of: String(scalar)) {
            return Self.consonants[Self.simple[index]]
        }
        if let row = Self.kanaRow(of: scalar) { return row }
        if Self.isDigit(scalar) { return "0–9" }
        if Self.isHan(scalar) { return String(scalar) }
        // A heading of the language that the title's start sorts as: all titles that sort from
        // one letter come under one heading, whatever the letter looks like (Æ as AE under A
        // in English, Ǻ under Å in Swedish, the final ך under כ in Hebrew, "Aa" under Å in
        // Danish), so the heading's titles are never split by another heading's.
        guard let primary = collator.firstPrimary(start) else { return spelledInitial(of: scalar) }
        if let heading = headings[primary] { return heading }
        // Other letters (of other scripts, or that the language has no heading for): letters
        // that sort as one share one heading, that of the one with the fewest accents (Persian
        // sorts ء أ إ ؤ ئ as one letter, which has no heading of its own: under ء).
        let letter = representative(of: scalar, sortedAs: primary)
        let initial = spelledInitial(of: letter)
        // Not under a heading that sorts elsewhere, which would come twice (Romanian sorts the
        // dotless ı apart from I, after Î): as the letter itself.
        if headings.contains(where: { $0.value == initial && $0.key != primary }) { return String(letter) }
        return initial
    }

    /// Of the letters that could stand for `scalar`, those whose primary weight is `primary`:
    /// the one with the fewest accents, then the first in Unicode; `scalar` when there is none.
    /// The letters tried are `scalar` with fewer of its accents (Ǻ: Å, Á, A), the letters of its
    /// 128-scalar stretch of Unicode (which holds its script's letters and their accented
    /// forms), and A to Z.
    func representative(of scalar: Unicode.Scalar, sortedAs primary: UInt64) -> Unicode.Scalar {
        let key = Letter(primary: primary, scalar: scalar)
        if let known = representatives.withLock({ $0[key] }) { return known }
        let stretch = scalar.value & ~0x7F
        var candidates = Array(stretch..<stretch + 0x80).compactMap(Unicode.Scalar.init)
        candidates += (0x41...0x5A).compactMap(Unicode.Scalar.init)
        let parts = Array(String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars)
        if parts.count > 1 && parts.count <= 4 {
            for kept in 0..<(1 << (parts.count - 1)) {
                var form = String.UnicodeScalarView([parts[0]])
                for (place, mark) in parts.dropFirst().enumerated() where kept & (1 << place) != 0 { form.append(mark) }
                let composed = String(form).precomposedStringWithCanonicalMapping.unicodeScalars
                if composed.count == 1, let letter = composed.first { candidates.append(letter) }
            }
        }
        var found: (marks: Int, scalar: Unicode.Scalar)?
        for candidate in candidates where candidate.properties.isAlphabetic {
            let marks = Self.marks(String(candidate))
            if let found, (found.marks, found.scalar.value) <= (marks, candidate.value) { continue }
            if collator.firstPrimary(String(candidate)) == primary { found = (marks, candidate) }
        }
        let representative = found?.scalar ?? scalar
        representatives.withLock { $0[key] = representative }
        return representative
    }

    /// The initial of a letter without a heading: as itself, or as the letter it is spelled
    /// with where the language sorts the two as one.
    func spelledInitial(of scalar: Unicode.Scalar) -> String {
        // In the language's case: a Turkish i is İ, a letter of its own.
        let letter = String(scalar).uppercased(with: locale)
        // Spelled without accents (compatibility decomposition also splits a ligature: ĳ → ij)
        // or a stroke (Ø, Ł, Đ), found in lowercase, so that a Turkish í becomes i and then İ.
        var plain = String.UnicodeScalarView(
            String(scalar).lowercased(with: locale).decomposedStringWithCompatibilityMapping.unicodeScalars.filter {
                !$0.isMark
            })
        if let first = plain.first, let unstruck = Self.struck[first] {
            plain.replaceSubrange(..<plain.index(after: plain.startIndex), with: [unstruck])
        }
        let spelled = String(plain).uppercased(with: locale)
        // The folded letter only when the language sorts the two as one letter: then "Åa"
        // comes before "Ab" and "Åb" after "Aa", as the accent only counts after the letters
        // that follow (and "Ĳa" before "IJb"). Arabic sorts ؤ before و, not with it: "ؤb"
        // comes before "وa" too. Checked for the letter as written: a Turkish í sorts with i,
        // its capital Í with ı.
        let written = String(scalar)
        let together = { (other: String) in
            self.precedes(written + "a", other + "b") && self.precedes(other + "a", written + "b")
        }
        if let folded = spelled.first.map(String.init), folded != letter, together(spelled) { return folded }
        // Hamza and the letters carrying it, which Arabic's collation sorts with alef.
        if let alike = Self.sortedAlike[scalar].map(String.init), together(alike) { return alike }
        return letter
    }

    /// Whether `lhs` sorts before `rhs` in the collation.
    func precedes(_ lhs: String, _ rhs: String) -> Bool {
        Collation.Key(lhs, in: collator).precedes(Collation.Key(rhs, in: collator))
    }

    /// Whether the collation may pass over `scalar`: a modifier letter or a mark (asked of the
    /// collation only for these, which rarely start a title).
    static func mayBeIgnored(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .modifierLetter, .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// Whether `scalar` is a digit, or a number written as digits (½, ①, ², which the collation
    /// sorts as the digits they stand for).
    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        if CharacterSet.decimalDigits.contains(scalar) { return true }
        guard scalar.properties.numericType != nil,
            let first = String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars.first
        else { return false }
        return CharacterSet.decimalDigits.contains(first)
    }

    /// Letters some languages sort as another that they do not decompose to, each tried with
    /// the same check: Arabic sorts ء and the high hamza ٴ, and ؤ and ئ (which decompose to
    /// و and ي with a hamza), with alef.
    static let sortedAlike: [Unicode.Scalar: Unicode.Scalar] = ["ء": "ا", "ٴ": "ا", "ؤ": "ا", "ئ": "ا"]

    /// Letters with a stroke or bar, which have no decomposition to take away, and the letters
    /// most languages sort them with (Danish sorts Ø after Z, Polish Ł after L: the check above
    /// keeps them apart there).
    static let struck: [Unicode.Scalar: Unicode.Scalar] = [
        "ø": "o", "ł": "l", "đ": "d", "ð": "d", "ħ": "h", "ŧ": "t", "ƀ": "b", "ɨ": "i", "ƶ": "z", "ǥ": "g", "ʉ": "u",
        "ɍ": "r", "ɏ": "y", "ȼ": "c", "ɇ": "e", "ɉ": "j", "ƚ": "l",
    ]

    /// The row of the syllabary a kana belongs to (katakana and small or voiced kana with
    /// the hiragana of their row), or nil for other characters.
    static func kanaRow(of scalar: Unicode.Scalar) -> String? {
        var value = scalar.value
        switch value {
        // Small ka and ke (ヵ ヶ, often read ka and ga) sort with their row, not after ん.
        case 0x3095, 0x3096, 0x30F5, 0x30F6: return kanaRows[1].initial
        // ヷ ヸ ヹ ヺ: wa, wi, we and wo voiced.
        case 0x30F7...0x30FA: return kanaRows[9].initial
        case 0x30A1...0x30F4: value -= 0x60  // katakana → hiragana
        default: break
        }
        guard (0x3041...0x3096).contains(value), let hiragana = Unicode.Scalar(value) else { return nil }
        // Without its voicing mark: が → か, ぱ → は.
        let base = String(hiragana).decomposedStringWithCanonicalMapping.unicodeScalars.first ?? hiragana
        return kanaRows.first { base <= $0.last }?.initial
    }
}
