/// CommonMark's character classes for emphasis delimiters (spec section 6.2).
enum Markup {
    /// Unicode whitespace: a space separator (Zs), tab, line feed, form feed, carriage return.
    static func isSpace(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        return scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}"
            || scalar.properties.generalCategory == .spaceSeparator
    }

    /// Punctuation in every version of the spec: ASCII punctuation and Unicode's P categories.
    /// (Since 0.31 symbols, S, count too; Debian's cmark follows 0.30.)
    static func isPunctuation(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        if scalar.isASCII { return isASCIIPunctuation(scalar) }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation:
            return true
        default: return false
        }
    }

    /// Punctuation in some version of the spec: symbols too.
    static func mayBePunctuation(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        if isPunctuation(character) { return true }
        switch scalar.properties.generalCategory {
        case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol: return true
        default: return false
        }
    }

    private static func isASCIIPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: true
        default: false
        }
    }
}
