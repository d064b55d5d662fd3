import Foundation

extension String {
    /// A URL path segment made from a name: lowercase letters and digits (any script, so
    /// Korean stays Korean) with single hyphens between words. The symbols that tell names
    /// apart become words (`C++` → `c-plus-plus`, `C#` → `c-sharp`, `R&B` → `r-and-b`), so
    /// such names do not share a page.
    public var slug: String {
        slug(spellingSymbols: true)
    }

    /// The slug, with symbols spelled out as words or (`spellingSymbols: false`) dropped, and
    /// compatibility characters (``compatibilityFolded``) as the letters they stand for unless
    /// `folding` is false.
    public func slug(spellingSymbols: Bool, folding: Bool = true) -> String {
        asciiSlug(spellingSymbols: spellingSymbols)
            ?? slugByCharacters(spellingSymbols: spellingSymbols, folding: folding)
    }

    /// ``slug(spellingSymbols:)`` of an ASCII name, read byte by byte (most tags, titles and
    /// file names); nil for any other name. For ASCII the letters and digits are `a-z`, `A-Z`
    /// and `0-9`, and every character is one byte (CR LF, one character, is two separators).
    func asciiSlug(spellingSymbols: Bool) -> String? {
        var result: [UInt8] = []
        result.reserveCapacity(utf8.count + 8)
        var pendingHyphen = false
        for byte in utf8 {
            switch byte {
            case 0x80...: return nil
            case 0x61...0x7A, 0x30...0x39, 0x41...0x5A:
                if pendingHyphen && !result.isEmpty { result.append(0x2D) }
                pendingHyphen = false
                result.append((0x41...0x5A).contains(byte) ? byte + 32 : byte)
            case 0x2B, 0x23, 0x26, 0x40:
                guard spellingSymbols else {
                    pendingHyphen = true
                    continue
                }
                if !result.isEmpty { result.append(0x2D) }
                result += Self.symbolWords[Character(Unicode.Scalar(byte))]!.utf8
                pendingHyphen = true
            default:
                pendingHyphen = true
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// ``slug(spellingSymbols:)`` read character by character, for names in any script;
    /// composed (NFC), so that "é" typed as one character or as "e" and an accent (as macOS
    /// may paste it) makes one address, byte for byte; and (`folding`) with compatibility
    /// characters folded, so that "ﬁnal" pasted from a PDF and "final", or a full-width "ＳＦ"
    /// and "SF", make one address.
    func slugByCharacters(spellingSymbols: Bool, folding: Bool = true) -> String {
        var result = ""
        var pendingHyphen = false
        let append = { (word: String) in
            if pendingHyphen && !result.isEmpty { result.append("-") }
            result += word
            pendingHyphen = false
        }
        for character in (folding ? compatibilityFolded : self).lowercased() {
            if character.isLetter || character.isNumber {
                append(String(character))
            } else if spellingSymbols, let word = Self.symbolWords[character] {
                pendingHyphen = true
                append(word)
                pendingHyphen = true
            } else {
                pendingHyphen = true
            }
        }
        return result.precomposedStringWithCanonicalMapping
    }

    /// The most bytes a slug (one URL path segment, and one file or folder name) may have:
    /// file systems allow 255, and temporary names add a few.
    public static let slugByteLimit = 200

    /// Symbols that are part of a name's identity, spelled out in slugs.
    private static let symbolWords: [Character: String] = ["+": "plus", "#": "sharp", "&": "and", "@": "at"]

    /// The name reduced to what tells names apart for people: case, accents, width and
    /// separators ignored (`Wong Kar-wai` and `wong kar wai` are one tag).
    var nameKey: String {
        compatibilityFolded.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .filter { !$0.isWhitespace && $0 != "-" && $0 != "_" }
    }

    /// The text with compatibility characters as the characters they stand for (Unicode's
    /// NFKC: the ligature ﬁ as fi, full-width ＳＦ as SF, ² as 2, ㎏ as kg), except Hangul
    /// compatibility jamo (ㄱ, as typed alone, and its half-width form), which NFKC would make
    /// conjoining jamo, meant to be part of a syllable.
    var compatibilityFolded: String {
        if utf8.allSatisfy({ $0 < 0x80 }) { return self }
        var folded = ""
        var run = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if (0x3131...0x318E).contains(scalar.value) || (0xFFA0...0xFFDC).contains(scalar.value) {
                folded += String(run).precomposedStringWithCompatibilityMapping
                run.removeAll()
                folded.unicodeScalars.append(scalar)
            } else {
                run.append(scalar)
            }
        }
        return folded + String(run).precomposedStringWithCompatibilityMapping
    }

    /// Percent-encodes a URL path (keeping `/`), so Korean slugs make valid links.
    public var percentEncodedPath: String {
        if utf8.allSatisfy(\.isPlainPathByte) { return self }
        return addingPercentEncoding(withAllowedCharacters: Self.pathAllowed) ?? self
    }

    private static let pathAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#"))
}

private extension UInt8 {
    /// ASCII letters, digits and `- . _ ~ /`: bytes a path keeps as they are.
    var isPlainPathByte: Bool {
        (0x61...0x7A).contains(self) || (0x41...0x5A).contains(self) || (0x30...0x39).contains(self)
            || self == 0x2D || self == 0x2E || self == 0x5F || self == 0x7E || self == 0x2F
    }
}
