/// A URL found in a page, and what refers to it.
struct FoundLink: Sendable, Hashable {
    enum Kind: String, Sendable {
        case link
        case image
        case stylesheet
        case script
        /// Media, frames, embedded objects.
        case resource
    }

    let url: String
    let kind: Kind
    /// Found in the HTML of a feed entry, where a relative URL resolves against the feed.
    var inEntry = false
}
