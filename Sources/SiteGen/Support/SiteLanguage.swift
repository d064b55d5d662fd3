import Foundation

/// The site's language: it picks the labels, date and number formats and the collation.
public enum SiteLanguage: String, Sendable, CaseIterable {
    case english = "en"
    case korean = "ko"

    /// The ICU locale used for formatting and sorting.
    public var locale: Locale {
        switch self {
        case .english: Locale(identifier: "en_US")
        case .korean: Locale(identifier: "ko_KR")
        }
    }
}
