import Foundation
import ImageProcessing
import Mustache

/// The build's image step: each review's own image (front matter `image`) read from the
/// site folder, checked, resized to the theme's widths in its own format and WebP (by
/// libvips, through ``ImageProcessor``), and published beside the review's page. Results are
/// kept in an ``ImageCache`` by the source's bytes, so an unchanged image is not processed
/// again. Images are processed in parallel, one per core at most.
struct ReviewImages: Sendable {
    /// The step its errors are reported under (by `build` and by `serve`).
    static let step = "processing images"
    let folder: SiteFolder
    /// Where processed images are kept between builds; nil processes every image.
    let cache: ImageCache?
    /// Page bundles' large files are read when written, not now (a build; see ``CopiedFile``).
    var copiesLater = false

    /// The widths published, in CSS pixels at 1x to 3x of the theme's cover sizes (cards 12rem,
    /// the review page 15rem, 45 to 55vw on phones); an image narrower than one is published
    /// at its own width instead, never enlarged.
    static let widths = [240, 480, 780]
    /// Images with more pixels are refused before they are decoded (a small file can claim a
    /// huge size: a decompression bomb).
    static let pixelLimit = 50_000_000
    /// The most pixels a side of a WebP image may have.
    static let webPSideLimit = 16_383
    /// Image files larger than this are refused before they are read.
    static let byteLimit = 128 * 1024 * 1024
    static let settings = EncoderSettings()

    /// `content` with every review's own image processed and its files added; any problem
    /// stops the build.
    func publish(_ content: SiteContent) throws -> SiteContent {
        let results = content.reviews.parallelMap { attach($0) }
        var files = content.staticFiles
        var later = content.copiedFiles
        var problems: [Diagnostic] = []
        var bundleProblems: [Diagnostic] = []
        // Made only when a review publishes files of its own.
        var staticPaths: PublishedPaths?
        // Each static file in the way of a folder once, with the first own file it is in the way of.
        var folderClashes: [String: (path: String, review: Review)] = [:]
        for result in results {
            problems += result.problems
            bundleProblems += result.bundleProblems
            // Most reviews publish no file of their own.
            guard !result.files.isEmpty || !result.later.isEmpty else { continue }
            let review = result.review
            let own = result.files.mapValues(CopiedBytes.held).merging(result.later.mapValues(CopiedBytes.later)) { $1 }
            for (path, bytes) in own.sorted(by: { $0.key < $1.key }) {
                if files[path] != nil || later[path] != nil {
                    if review.isBundleFile(path) {
                        bundleProblems.append(review.ownFileClash(path))
                    } else {
                        problems.append(review.ownFileClash(path))
                    }
                } else {
                    if staticPaths == nil {
                        staticPaths = PublishedPaths(content.copiedPaths)
                    }
                    if let other = staticPaths?.clash(with: path), folderClashes[other].map({ path < $0.path }) ?? true
                    {
                        folderClashes[other] = (path, review)
                    }
                }
                switch bytes {
                case .held(let data):
                    files[path] = data
                    later[path] = nil
                case .later(let file):
                    later[path] = file
                    files[path] = nil
                }
            }
        }
        for (other, own) in folderClashes.sorted(by: { $0.key < $1.key }) {
            let clash = own.review.ownFolderClash(own.path, staticPath: other)
            if own.review.isBundleFile(own.path) { bundleProblems.append(clash) } else { problems.append(clash) }
        }
        guard problems.isEmpty else { throw BuildError(step: Self.step, diagnostics: problems) }
        guard bundleProblems.isEmpty else { throw BuildError(step: BundleFiles.step, diagnostics: bundleProblems) }
        return SiteContent(
            config: content.config, sections: content.sections, reviews: results.map(\.review), pages: content.pages,
            theme: content.theme, staticFiles: files, copiedFiles: later, warnings: content.warnings,
            nextPublication: content.nextPublication)
    }

    /// One review with its image's published sizes and its page bundle's files, those files
    /// by output path (large ones to read when written apart), and any problem with the image
    /// or with the bundle's files.
    func attach(_ review: Review) -> (
        review: Review, files: [String: Data], later: [String: CopiedFile], problems: [Diagnostic],
        bundleProblems: [Diagnostic]
    ) {
        let bundle = BundleFiles(folder: folder, copiesLater: copiesLater).files(of: review)
        let bundlePaths = Array(bundle.files.keys) + bundle.later.keys
        var review = bundlePaths.isEmpty ? review : review.with(bundleFiles: bundlePaths.sorted())
        var files = bundle.files
        var problems: [Diagnostic] = []
        if let image = review.image {
            switch process(image, publishedAt: review.path, name: review.work.kind == .book ? "cover" : "poster") {
            case .success(let published):
                for (variant, data) in published {
                    // A bundle's file (or folder) of the very name a size takes (`poster-480-1f3a9c0e.jpg`).
                    if files[variant.path] != nil || bundle.later[variant.path] != nil
                        || bundlePaths.contains(where: { $0.hasPathPrefix(variant.path + "/") })
                    {
                        problems.append(
                            Diagnostic(
                                "\"image\" is published as /\(variant.path), the name of a file of its page bundle: "
                                    + "rename that file", at: image.location))
                    }
                    files[variant.path] = data
                }
                review = review.with(image: image.with(variants: published.map(\.variant)))
            case .failure(let problem):
                problems.append(problem)
            }
        }
        return (review, files, bundle.later, problems, bundle.problems)
    }
}

private extension ReviewImages {
    /// The image's files, or the problem found, located at the `image` field.
    func process(_ image: ReviewImage, publishedAt folderPath: String, name: String) -> Result<
        [(variant: ImageVariant, data: Data)], Diagnostic
    > {
        let source = image.source
        let problem = { (message: String) in Diagnostic("\"image\" \(message)", at: image.location) }
        var ignored: [Diagnostic] = []
        guard let kind = folder.kind(source) else { return .failure(problem("names \(source), which does not exist")) }
        guard folder.isInside(source, &ignored) else {
            // Out of the site, or into a hidden folder or an output folder of it.
            let reason = ignored.first?.message ?? ""
            guard !reason.hasSuffix("outside the site folder"), reason.hasPrefix("refused: ") else {
                return .failure(problem("names \(source), a link to a place outside the site folder"))
            }
            return .failure(problem("names \(source), which is refused: \(reason.dropFirst("refused: ".count))"))
        }
        switch kind {
        case .folder: return .failure(problem("names \(source), which is a folder, not an image"))
        case .special:
            return .failure(problem("names \(source), which is not a regular file (a FIFO, socket or device)"))
        case .file: break
        }
        let bytes: Data
        do {
            bytes = try folder.fileSystem.read(folder.path(source), Self.byteLimit, folder.realRoot)
        } catch {
            return .failure(problem("names \(source), which cannot be read: \(error.reason)"))
        }
        let key = ImageCache.key(for: bytes, widths: Self.widths, settings: Self.settings)
        let encoded: [EncodedImage]
        if let cached = cache?.entry(key) {
            encoded = cached
        } else {
            do throws(ImageError) {
                let info = try ImageProcessor.inspect(bytes)
                guard info.pixels <= Self.pixelLimit else {
                    return .failure(
                        problem(
                            "names \(source), which is \(info.width)×\(info.height) pixels "
                                + "(\(Self.grouped(info.pixels))): at most \(Self.grouped(Self.pixelLimit)) are allowed"
                        ))
                }
                // Every size is also written as WebP, which holds at most 16,383 pixels a side.
                let widths = Self.widths(for: info)
                let widest = widths.max() ?? info.width
                let tallest = info.height * widest / max(1, info.width)
                guard tallest <= Self.webPSideLimit else {
                    return .failure(
                        problem(
                            "names \(source), which is \(info.width)×\(info.height) pixels: at \(widest) pixels wide "
                                + "it would be \(Self.grouped(tallest)) high, more than WebP allows "
                                + "(\(Self.grouped(Self.webPSideLimit)))"))
                }
                encoded = try ImageProcessor.resize(
                    bytes, widths: widths,
                    formats: info.format == .webp ? [.webp] : [info.format, .webp],
                    settings: Self.settings)
            } catch {
                return .failure(problem(Self.message(error, source)))
            }
            cache?.store(encoded, key: key)
        }
        let stamp = key.description.prefix(8)
        return .success(
            encoded.map { image in
                let path = "\(folderPath)\(name)-\(image.width)-\(stamp).\(image.format.fileExtension)"
                return (
                    ImageVariant(path: path, format: image.format, width: image.width, height: image.height), image.data
                )
            })
    }

    /// The widths an image of `info`'s size is published in: every one of ``widths`` it is
    /// wider than, and its own width when that is less than the largest.
    static func widths(for info: ImageInfo) -> [Int] {
        widths.filter { $0 < info.width } + (info.width < widths.last! ? [info.width] : [])
    }

    /// `50,000,000`.
    static func grouped(_ number: Int) -> String {
        var digits = String(number)
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        return ([digits] + groups).joined(separator: ",")
    }

    /// What is wrong with the image, in words.
    static func message(_ error: ImageError, _ source: String) -> String {
        switch error {
        case .notAnImage: "names \(source), which is not a JPEG, PNG or WebP image"
        case .unsupportedFormat(let name):
            "names \(source), which is in the \(name) format: use a JPEG, PNG or WebP image"
        case .damaged: "names \(source), which is damaged or cut short: it cannot be decoded"
        case .encodingFailed(let format): "names \(source), which could not be encoded as \(format.name)"
        }
    }
}
