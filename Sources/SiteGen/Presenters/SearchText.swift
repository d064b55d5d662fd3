import Foundation

/// How search reads text, the same way in the build (here) and in the browser (`search.js`):
/// words are runs of letters and digits; each becomes a key that is lowercase, compatibility
/// decomposed (NFKD: Hangul syllables become their jamo, so "기생" is a prefix of "기생충"'s key
/// and a lone ㄱ is the initial consonant ᄀ), without accents ("Élan" → "elan"), and at most
/// ``maxLength`` scalars long. Keys of a single scalar are left out of the index.
enum SearchText {
    /// The longest key, in Unicode scalars: longer words are cut, so queries are cut the same way.
    static let maxLength = 24

    /// The distinct keys of `text`, in no particular order.
    static func keys(_ text: String, into keys: inout Set<String>) {
        var word = String.UnicodeScalarView()
        var length = 0
        func close() {
            if length > 1 { keys.insert(String(word)) }
            word = String.UnicodeScalarView()
            length = 0
        }
        for scalar in text.lowercased().decomposedStringWithCompatibilityMapping.unicodeScalars {
            if isMark(scalar) { continue }
            if let folded = folded[scalar] {
                for part in folded.unicodeScalars where length < maxLength {
                    word.append(part)
                    length += 1
                }
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if length < maxLength {
                    word.append(scalar)
                    length += 1
                }
            } else {
                close()
            }
        }
        close()
    }

    /// The keys of several texts.
    static func keys(_ texts: [String]) -> Set<String> {
        var keys: Set<String> = []
        for text in texts { Self.keys(text, into: &keys) }
        return keys
    }

    /// Whether `lhs` sorts before `rhs` in UTF-16 order, the order of JavaScript's `<`.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
    }

    /// A stable hash of a key (FNV-1a over its UTF-8), the same on every run and machine.
    static func hash(_ key: String, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var hash = seed
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// Letters that do not decompose but that readers type without their stroke or ligature.
    private static let folded: [Unicode.Scalar: String] = [
        "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "đ": "d", "ł": "l", "ı": "i", "þ": "th", "ð": "d", "ħ": "h",
    ]
}
