import Foundation

/// A language as a BCP 47 tag (`en`, `ko`, `de`, `pt-BR`, `zh-Hant`): the site's, which picks
/// the labels, the date and number formats and the collation, or a review's own.
public struct SiteLanguage: Sendable, Hashable, CustomStringConvertible {
    /// The tag, with its subtags in their usual case: `pt-BR`, `zh-Hant`.
    public let rawValue: String

    public static let english = SiteLanguage(checked: "en")
    public static let korean = SiteLanguage(checked: "ko")

    private init(checked tag: String) {
        rawValue = tag
    }

    /// A well-formed tag whose language ICU knows; nil otherwise (``problem(with:)`` says why).
    public init?(_ tag: String) {
        guard Self.problem(with: tag) == nil else { return nil }
        rawValue = Self.normalized(tag)
    }

    public var description: String { rawValue }

    /// The language subtag: `pt` for `pt-BR`.
    public var code: String {
        String(rawValue.prefix { $0 != "-" })
    }

    /// Whether the theme's own words are its Korean ones (`ko`, `ko-KR`, `ko-Kore`), else English.
    var usesKoreanWords: Bool { code == "ko" }

    /// The ICU locale for formatting and sorting (`en` and `ko` as `en_US` and `ko_KR`, as always).
    public var locale: Locale {
        switch rawValue {
        case "en": Locale(identifier: "en_US")
        case "ko": Locale(identifier: "ko_KR")
        default: Locale(identifier: rawValue)
        }
    }

    /// The `language` TMDB is asked for: `en-US`, `ko-KR`, `pt-BR`, `zh-TW` for `zh-Hant`, or
    /// the language alone (`de`).
    public var tmdbLanguage: String {
        let language = Locale.Language(identifier: rawValue)
        if let region = language.region?.identifier { return "\(code)-\(region)" }
        switch (code, language.script?.identifier) {
        case ("en", _): return "en-US"
        case ("ko", _): return "ko-KR"
        case ("zh", "Hant"): return "zh-TW"
        case ("zh", _): return "zh-CN"
        default: return code
        }
    }

    /// The longest tag accepted.
    public static let maximumLength = 64

    /// Why `tag` is not a language sitegen can use, or nil when it is.
    public static func problem(with tag: String) -> String? {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        let usage = "a language tag such as en, de, pt-BR or zh-Hant"
        // ICU cannot make a locale of a much longer tag (Core Foundation then has none to sort
        // with); real tags are a few subtags long.
        guard tag.utf8.count <= maximumLength else {
            return "\(usage), of at most \(maximumLength) characters (this one has \(tag.count))"
        }
        if tag.contains("_") {
            return "\(usage), not \"\(tag)\" (write \(tag.replacingOccurrences(of: "_", with: "-")))"
        }
        guard isWellFormed(subtags) else { return "\(usage), not \"\(tag)\"" }
        let code = Locale.LanguageCode(String(subtags[0]).lowercased())
        guard code.isISOLanguage else { return "\(usage): \"\(subtags[0])\" is not a language ICU knows" }
        return nil
    }
}

private extension SiteLanguage {
    /// BCP 47's `langtag` (RFC 5646) without extended language subtags: a language of 2 or 3
    /// letters, then an optional script, region, variants, extensions and private use.
    static func isWellFormed(_ subtags: [Substring]) -> Bool {
        let letters = { (text: Substring) in text.allSatisfy { $0.isASCII && $0.isLetter } }
        let digits = { (text: Substring) in text.allSatisfy { $0.isASCII && $0.isNumber } }
        let alphanumerics = { (text: Substring) in text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        guard let first = subtags.first, (2...3).contains(first.count), letters(first) else { return false }
        var rest = subtags.dropFirst()[...]
        if let script = rest.first, script.count == 4, letters(script) { rest = rest.dropFirst() }
        if let region = rest.first, (region.count == 2 && letters(region)) || (region.count == 3 && digits(region)) {
            rest = rest.dropFirst()
        }
        while let variant = rest.first, alphanumerics(variant),
            (5...8).contains(variant.count) || (variant.count == 4 && variant.first!.isNumber)
        {
            rest = rest.dropFirst()
        }
        while let singleton = rest.first, singleton.count == 1, alphanumerics(singleton) {
            rest = rest.dropFirst()
            let isPrivate = singleton.lowercased() == "x"
            let parts = rest.prefix { isPrivate ? !$0.isEmpty : $0.count >= 2 }
            guard !parts.isEmpty,
                parts.allSatisfy({ alphanumerics($0) && $0.count <= 8 && (isPrivate || $0.count >= 2) })
            else { return false }
            rest = rest.dropFirst(parts.count)
            if isPrivate { break }
        }
        return rest.isEmpty
    }

    /// Subtags in their usual case: `pt-br` → `pt-BR`, `ZH-hant` → `zh-Hant`.
    static func normalized(_ tag: String) -> String {
        var seenSingleton = false
        return tag.split(separator: "-").enumerated().map { index, subtag in
            if index == 0 || seenSingleton { return subtag.lowercased() }
            if subtag.count == 1 {
                seenSingleton = true
                return subtag.lowercased()
            }
            if subtag.count == 4, subtag.allSatisfy(\.isLetter) {
                return subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
            }
            if subtag.count == 2 { return subtag.uppercased() }
            return subtag.lowercased()
        }.joined(separator: "-")
    }
}
