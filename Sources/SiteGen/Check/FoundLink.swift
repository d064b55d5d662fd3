/// A URL found in a page, and what refers to it; compared as bytes (see ``ByteString``).
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
    /// Found in the HTML of a feed entry, where a relative URL resolves against the feed, or
    /// against `base`.
    var inEntry = false
    /// The entry content's `xml:base` (the review's page), if it has one.
    var base: String? = nil

    static func == (lhs: FoundLink, rhs: FoundLink) -> Bool {
        ByteString(lhs.url) == ByteString(rhs.url) && lhs.kind == rhs.kind && lhs.inEntry == rhs.inEntry
            && lhs.base.map(ByteString.init) == rhs.base.map(ByteString.init)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ByteString(url))
        hasher.combine(kind)
        hasher.combine(inEntry)
        hasher.combine(base.map(ByteString.init))
    }
}
