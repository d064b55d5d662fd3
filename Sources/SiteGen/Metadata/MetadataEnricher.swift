import Foundation
import Mustache

/// The build's second step: attaches each review's cached metadata (front matter keeps
/// precedence where both say something) and adds the images published reviews use to
/// the site's files. It never touches the network.
public struct MetadataEnricher: Sendable {
    public let cache: MetadataCache
    /// Where cached images are published: `/images/<file>`.
    public static let imageFolder = "images"

    public init(cache: MetadataCache) {
        self.cache = cache
    }

    /// `content` with metadata attached; a corrupt cache file stops the build.
    public func enrich(_ content: SiteContent) throws -> SiteContent {
        var problems: [Diagnostic] = []
        var warnings = content.warnings
        var files = content.staticFiles
        var reviews: [Review] = []
        for review in content.reviews {
            guard let lookup = Lookup(review) else {
                reviews.append(review)
                continue
            }
            do {
                guard let metadata = try cache.entry(for: lookup) else {
                    warnings.append(
                        Diagnostic(
                            "names \(lookup) but the metadata cache has nothing for it: run sitegen fetch",
                            at: SourceLocation(path: review.source, line: 1, column: 1), severity: .warning))
                    reviews.append(review)
                    continue
                }
                for image in metadata.images {
                    guard let data = cache.image(image.file) else {
                        problems.append(
                            Diagnostic(
                                "the image \(image.file) it names is missing",
                                at: SourceLocation(
                                    path: "\(MetadataCache.folderName)/\(lookup.path)",
                                    line: 1, column: 1)))
                        continue
                    }
                    files[Self.publishedPath(of: image)] = data
                }
                reviews.append(review.with(metadata: metadata))
            } catch {
                problems.append(error)
                reviews.append(review)
            }
        }
        guard problems.isEmpty else { throw BuildError(step: "reading the metadata cache", diagnostics: problems) }
        return SiteContent(
            config: content.config, sections: content.sections, reviews: reviews, pages: content.pages,
            theme: content.theme, staticFiles: files, warnings: warnings)
    }

    /// The output path of a cached image: `images/tmdb-496243-w342.jpg`.
    public static func publishedPath(of image: CachedImage) -> String {
        "\(imageFolder)/\((image.file as NSString).lastPathComponent)"
    }
}
