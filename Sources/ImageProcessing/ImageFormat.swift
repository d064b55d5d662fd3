/// An image format sitegen reads and writes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg
    case png
    case webp

    /// The file name extension: `jpg`, `png`, `webp`.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        }
    }

    /// The media type: `image/jpeg`…
    public var mediaType: String { "image/\(rawValue)" }

    /// The name people know it by: `JPEG`, `PNG`, `WebP`.
    public var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .webp: "WebP"
        }
    }
}
