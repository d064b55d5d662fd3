import ImageProcessing
import Mustache

/// A review's own poster or cover: its `image` front matter field, and once the image step
/// has run (``ReviewImages``), the sizes it is published in.
public struct ReviewImage: Sendable, Equatable {
    /// The file, relative to the site folder: `content/movies/parasite/poster.jpg`.
    public let source: String
    /// Where the field's value is written, for messages about the image.
    public let location: SourceLocation
    /// The published files: each width, smallest first, in the original format and WebP;
    /// empty until the image step has run.
    public let variants: [ImageVariant]

    public init(source: String, location: SourceLocation, variants: [ImageVariant] = []) {
        self.source = source
        self.location = location
        self.variants = variants
    }

    /// The same image with its published files.
    func with(variants: [ImageVariant]) -> ReviewImage {
        ReviewImage(source: source, location: location, variants: variants)
    }
}

/// One published size of an image in one format.
public struct ImageVariant: Sendable, Equatable {
    /// The output path: `movies/parasite/poster-480-1f3a9c0e.jpg`.
    public let path: String
    public let format: ImageFormat
    public let width: Int
    public let height: Int

    public init(path: String, format: ImageFormat, width: Int, height: Int) {
        self.path = path
        self.format = format
        self.width = width
        self.height = height
    }
}

extension Review {
    /// The fetched posters or covers the review shows and publishes: none when it has its own image.
    var fetchedImages: [CachedImage] {
        image == nil ? metadata?.images ?? [] : []
    }

    /// The output paths of the review's own files: its image in its sizes and its page
    /// bundle's files (none before the image step).
    var ownFilePaths: [String] { (image?.variants.map(\.path) ?? []) + bundleFiles }

    /// The error for a file of `static/` at `path`, one of ``ownFilePaths``, which a build
    /// refuses: it would replace the review's image in one of its sizes, or a bundle's file.
    func ownFileClash(_ path: String) -> Diagnostic {
        guard isBundleFile(path) else { return .imageClash(path, review: source) }
        return .bundleFileClash(path, file: bundleSource(of: path))
    }

    /// Whether `path`, one of ``ownFilePaths``, is a file of its page bundle (not its image;
    /// the image's few sizes are looked through, not the bundle's files, which may be thousands).
    func isBundleFile(_ path: String) -> Bool {
        !(image?.variants.contains { $0.path == path } ?? false)
    }

    /// The file of the page bundle published at `path`: `content/movies/2046/still.jpg`.
    func bundleSource(of path: String) -> String {
        ReviewFile.folder(of: source) + "/" + (path.removingPathPrefix(self.path) ?? Substring(path))
    }

    /// The error for a file of `static/` at `staticPath` that cannot be a file while the
    /// review's own file `path` is published, or the other way round: one of them is a folder
    /// of the other (`movies/2046/still.jpg` and `movies/2046/still.jpg/x`).
    func ownFolderClash(_ path: String, staticPath: String) -> Diagnostic {
        let what =
            isBundleFile(path) ? "\(bundleSource(of: path)), a page bundle's file," : "an image of \(source)"
        let message =
            staticPath.hasPathPrefix(path + "/")
            ? "static/\(staticPath) needs a folder where \(what) is published (/\(path)): rename or remove one"
            : "static/\(staticPath) is a file where \(what) needs a folder (it is published at /\(path)): "
                + "rename or remove one"
        return Diagnostic(message, at: SourceLocation(path: "static/\(staticPath)", line: 1, column: 1))
    }

    /// The output paths of the fetched posters or covers it publishes.
    var fetchedImagePaths: [String] { fetchedImages.map(MetadataEnricher.publishedPath) }
}

extension FieldReader {
    /// The `image` field of the review at `source`: a file in the review's folder (the page
    /// bundle, or the section), named by a relative path that stays inside it. Whether the
    /// file exists and is an image is the image step's business.
    mutating func image(of source: String) -> ReviewImage? {
        guard let written = string("image"), let value = node("image") else { return nil }
        let folder = ReviewFile.folder(of: source)
        let segments = written.pathSegments().filter { $0 != "." }
        if written.contains("://") {
            report(
                "\"image\" must be a file beside the review, not a web address: save the image in \(folder)/ "
                    + "and write its name here", at: value.position)
        } else if written.hasPathPrefix("/") || segments.isEmpty || segments.contains("..")
            || written.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 < 0x20 })
        {
            report(
                "\"image\" must name a file inside the review's folder \(folder)/ (like \"poster.jpg\"), "
                    + "not \"\(written)\"", at: value.position)
        } else if segments.contains(where: \.isHiddenName) {
            // Hidden files are never read as the site's (nor watched by serve, nor stamped for
            // the build manifest): one named here would be, yet its changes never seen.
            report(
                "\"image\" names \"\(written)\", a hidden file or folder (its name starts with a dot), "
                    + "which sitegen does not read: rename it", at: value.position)
        } else {
            return ReviewImage(
                source: folder + "/" + segments.joined(separator: "/"), location: location(value.position))
        }
        return nil
    }
}
