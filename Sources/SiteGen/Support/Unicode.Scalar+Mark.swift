extension Unicode.Scalar {
    /// Whether this is a combining mark (an accent, a vowel sign, an enclosing circle): what
    /// search keys and title initials leave out.
    var isMark: Bool {
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }
}
