/// The language of a short text (a title, a name, an initial) as far as its script tells:
/// Hangul is Korean, kana is Japanese, Han characters alone are Chinese; other scripts
/// (Latin above all) take the language of the text around them.
enum TextLanguage {
    /// The BCP 47 tag for `text`: its script's language, else `fallback`.
    static func of(_ text: String, otherwise fallback: String) -> String {
        var han = false
        for scalar in text.unicodeScalars {
            // Latin, Greek, Cyrillic and the rest below Hebrew: none of the scripts told apart here.
            guard scalar.value >= 0x0590 else { continue }
            switch scalar.value {
            case 0xAC00...0xD7A3, 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xD7B0...0xD7FF:
                return "ko"
            case 0x3040...0x30FF, 0x31F0...0x31FF:
                return "ja"
            case 0x4E00...0x9FFF, 0x3400...0x4DBF:
                han = true
            case 0x0600...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF:
                // Arabic script: the site's language when it is written so (Persian, Urdu…), else Arabic.
                return Self.arabicScript.contains(Self.primary(fallback)) ? fallback : "ar"
            case 0x0590...0x05FF, 0xFB1D...0xFB4F:
                return Self.primary(fallback) == "yi" ? fallback : "he"
            default:
                continue
            }
        }
        if han { return ["ja", "ko", "zh"].contains(String(fallback.prefix(2))) ? fallback : "zh" }
        let alphabetic = { (scalar: Unicode.Scalar) -> Bool in
            // ASCII's alphabetic characters are its letters; Unicode's tables only past it.
            scalar.isASCII ? (0x61...0x7A).contains(scalar.value | 0x20) : scalar.properties.isAlphabetic
        }
        guard text.unicodeScalars.contains(where: alphabetic) else { return fallback }
        // Latin (or another script) in a Korean, Japanese or Chinese context is not that language.
        return ["ko", "ja", "zh"].contains(String(fallback.prefix(2))) ? "en" : fallback
    }

    /// Languages written in the Arabic script.
    static let arabicScript: Set<String> = ["ar", "fa", "ur", "ps", "ckb", "sd", "ug", "ku"]

    /// Languages written right to left: a page, a review or a name in one is laid out so
    /// (site.css sets `direction` by `:lang`).
    static let rightToLeft: Set<String> = arabicScript.union(["he", "yi", "dv", "syr"])

    /// The language subtag of a BCP 47 tag: `fa` of `fa-IR`.
    static func primary(_ tag: String) -> String {
        String(tag.prefix { $0 != "-" }).lowercased()
    }
}
