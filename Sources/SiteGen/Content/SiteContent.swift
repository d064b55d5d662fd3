import Foundation

/// Everything a site folder holds, loaded and checked: the first step of a build.
public struct SiteContent: Sendable {
    public let config: SiteConfig
    /// Review sections in navigation order.
    public let sections: [ReviewSection]
    /// The reviews to publish (drafts only when asked for), in source order.
    public let reviews: [Review]
    public let pages: [Page]
    public let theme: Theme
    /// Files copied as they are, by output path: theme assets, then the site's `static/` over them.
    public let staticFiles: [String: Data]
    /// Large files of `static/` and page bundles a build copies when it writes them, by output
    /// path (``CopiedFile``); none when loaded for `serve`, which holds them in ``staticFiles``.
    public let copiedFiles: [String: CopiedFile]
    /// Problems that do not stop the build.
    public let warnings: [Diagnostic]
    /// The date of the first review left out because it is dated after today: a build on or
    /// after that day publishes it.
    public let nextPublication: Day?

    public init(
        config: SiteConfig, sections: [ReviewSection], reviews: [Review], pages: [Page], theme: Theme,
        staticFiles: [String: Data], copiedFiles: [String: CopiedFile] = [:], warnings: [Diagnostic] = [],
        nextPublication: Day? = nil
    ) {
        self.config = config
        self.sections = sections
        self.reviews = reviews
        self.pages = pages
        self.theme = theme
        self.staticFiles = staticFiles
        self.copiedFiles = copiedFiles
        self.warnings = warnings
        self.nextPublication = nextPublication
    }

    /// The output paths of every file copied as it is, held or read when written.
    var copiedPaths: [String] { Array(staticFiles.keys) + copiedFiles.keys }

    /// The name of the site's own `robots.txt` in `static/`, published in place of sitegen's.
    static let robotsFile = "robots.txt"

    /// Whether `static/` has its own ``robotsFile``.
    var hasOwnRobots: Bool { staticFiles[Self.robotsFile] != nil }
}
