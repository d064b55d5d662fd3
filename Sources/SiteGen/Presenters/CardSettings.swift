import Foundation

/// All a review's card reads of the site's settings (``SiteIndex/card(for:settings:)`` sees
/// nothing else): equal settings make equal cards.
struct CardSettings: Sendable, Equatable {
    let format: Formatter
    let urls: URLs
    /// Each section's title by its folder name.
    let sectionTitles: [String: String]

    init(format: Formatter, urls: URLs, sections: [ReviewSection]) {
        self.format = format
        self.urls = urls
        sectionTitles = Dictionary(sections.map { ($0.name, $0.title) }, uniquingKeysWith: { first, _ in first })
    }

    /// A formatter is made from its language and phrases alone.
    static func == (lhs: CardSettings, rhs: CardSettings) -> Bool {
        lhs.format.language == rhs.format.language && lhs.format.phrases == rhs.format.phrases
            && lhs.urls.base == rhs.urls.base && lhs.sectionTitles == rhs.sectionTitles
    }
}
