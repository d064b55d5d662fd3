/// Builds the links pages use: root-relative paths under the base URL's path, and absolute URLs.
public struct URLs: Sendable {
    public let base: BaseURL

    public init(base: BaseURL) {
        self.base = base
    }

    /// A link path for `relative` (such as `movies/parasite/`), percent-encoded: `/reviews/movies/parasite/`.
    public func path(_ relative: String) -> String {
        base.path + relative.percentEncodedPath
    }

    /// The absolute URL of `relative`: `https://example.org/reviews/movies/parasite/`.
    public func absolute(_ relative: String) -> String {
        base.absolute + relative.percentEncodedPath
    }

    public func review(_ review: Review) -> String { review.path }
    public func section(_ name: String) -> String { "\(name)/" }
    /// The folder of `section`'s first page in `order`: its main page in the order it is
    /// shown in (`movies/`), else `movies/by-title/`.
    public func sorted(_ section: ReviewSection, _ order: SortOrder) -> String {
        order == section.defaultSort ? "\(section.name)/" : "\(section.name)/by-\(order.rawValue)/"
    }
    public func page(_ section: String, _ number: Int) -> String {
        number == 1 ? "\(section)/" : "\(section)/page/\(number)/"
    }
    public func tags() -> String { "tags/" }
    public func tag(_ slug: String) -> String { "tags/\(slug)/" }
    public func genres() -> String { "genres/" }
    public func genre(_ slug: String) -> String { "genres/\(slug)/" }
}
