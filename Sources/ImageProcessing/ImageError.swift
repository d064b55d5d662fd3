/// Why an image could not be read.
public enum ImageError: Error, Sendable, Equatable {
    /// Not an image libvips knows, or empty.
    case notAnImage
    /// An image in a format sitegen does not publish (`GIF`, `TIFF`, `HEIF`…).
    case unsupportedFormat(String)
    /// The header was read, but the pixels could not be decoded (the file is cut short or damaged).
    case damaged
    /// Encoding failed (out of memory, most likely).
    case encodingFailed(ImageFormat)
}
