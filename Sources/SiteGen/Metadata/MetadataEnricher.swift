import Foundation
import Mustache

/// The build's second step: attaches each review's cached metadata (front matter keeps
/// precedence where both say something) and adds the images published reviews use to
/// the site's files. It never touches the network.
public struct MetadataEnricher: Sendable {
    public let cache: MetadataCache
    /// Where cached images are published: `/images/<file>`.
    public static let imageFolder = "images"
    /// The step its errors are reported under (by `build` and by `serve`).
    static let step = "reading the metadata cache"

    public init(cache: MetadataCache) {
        self.cache = cache
    }

    /// `content` with metadata attached; a corrupt cache file stops the build.
    public func enrich(_ content: SiteContent) throws -> SiteContent {
        if let problem = cache.placeProblem {
            throw BuildError(step: Self.step, diagnostics: [problem])
        }
        var problems: [Diagnostic] = []
        var warnings = content.warnings
        var files = content.staticFiles
        var later = content.copiedFiles
        var reviews: [Review] = []
        reviews.reserveCapacity(content.reviews.count)
        // A file of static/ where a fetched image needs a folder (`static/images`), or in a
        // folder where one goes: each once, with the first image it is in the way of.
        let staticPaths = PublishedPaths(content.copiedPaths)
        var inTheWay: [String: String] = [:]
        // A file of static/ of a fetched image's name: the image takes its place, said once.
        var shadowed: Set<String> = []
        // Each review's cache file is read and decoded on every core; the results keep the reviews' order.
        for attached in content.reviews.parallelMap({ attach($0) }) {
            reviews.append(attached.review)
            for path in attached.images.keys {
                if let other = staticPaths.clash(with: path), inTheWay[other].map({ path < $0 }) ?? true {
                    inTheWay[other] = path
                }
                if content.staticFiles[path] != nil || content.copiedFiles[path] != nil, shadowed.insert(path).inserted
                {
                    warnings.append(.staticUnderFetchedImage(path, review: attached.review.source))
                }
            }
            files.merge(attached.images) { _, new in new }
            for path in attached.images.keys { later[path] = nil }
            problems += attached.problems
            warnings += attached.warnings
        }
        problems += inTheWay.sorted { $0.key < $1.key }.map { Diagnostic.staticFolderClash($0.key, page: $0.value) }
        // A folder of the cache that is a link out is one problem, whatever the files reached through it.
        var seen: Set<String> = []
        problems = problems.filter { seen.insert($0.description).inserted }
        guard problems.isEmpty else { throw BuildError(step: Self.step, diagnostics: problems) }
        return SiteContent(
            config: content.config, sections: content.sections, reviews: reviews, pages: content.pages,
            theme: content.theme, staticFiles: files, copiedFiles: later, warnings: warnings,
            nextPublication: content.nextPublication)
    }

    /// One review with its cached metadata, the images to publish, and any problems.
    func attach(_ review: Review) -> (
        review: Review, images: [String: Data], problems: [Diagnostic], warnings: [Diagnostic]
    ) {
        guard let lookup = Lookup(review) else { return (review, [:], [], []) }
        let metadata: WorkMetadata?
        do {
            metadata = try cache.entry(for: lookup)
        } catch {
            return (review, [:], [error], [])
        }
        guard let metadata else {
            let warning = Diagnostic(
                "names \(lookup) but the metadata cache has nothing for it: run sitegen fetch",
                at: SourceLocation(path: review.source, line: 1, column: 1), severity: .warning,
                topic: .uncachedMetadata)
            return (review, [:], [], [warning])
        }
        var images: [String: Data] = [:]
        var problems: [Diagnostic] = []
        // A review's own image wins: the fetched ones are not published.
        for (index, image) in (review.image == nil ? metadata.images : []).enumerated() {
            let data: Data?
            do {
                data = try cache.image(image.file)
            } catch {
                problems.append(error)
                continue
            }
            guard let data else {
                problems.append(cache.missingImage(at: index, of: metadata, lookup, review: review.source))
                continue
            }
            images[Self.publishedPath(of: image)] = data
        }
        return (review.with(metadata: metadata), images, problems, [])
    }

    /// The output path of a cached image: `images/tmdb-496243-w342.jpg`.
    public static func publishedPath(of image: CachedImage) -> String {
        "\(imageFolder)/\((image.file as NSString).lastPathComponent)"
    }
}
