import Foundation

/// One resized image, encoded.
public struct EncodedImage: Sendable, Equatable {
    public let format: ImageFormat
    public let width: Int
    public let height: Int
    public let data: Data

    public init(format: ImageFormat, width: Int, height: Int, data: Data) {
        self.format = format
        self.width = width
        self.height = height
        self.data = data
    }
}

/// How images are encoded. Part of what identifies an encoded image: other settings, other bytes.
public struct EncoderSettings: Sendable, Hashable, CustomStringConvertible {
    /// JPEG quality, 1 to 100.
    public var jpegQuality: Int
    /// WebP quality (lossy), 1 to 100.
    public var webpQuality: Int

    public init(jpegQuality: Int = 82, webpQuality: Int = 80) {
        self.jpegQuality = jpegQuality
        self.webpQuality = webpQuality
    }

    /// `jpeg-q82 webp-q80 png`, with the version of the library that encodes.
    public var description: String {
        "jpeg-q\(jpegQuality) progressive webp-q\(webpQuality) png-8bit strip libvips-\(ImageProcessor.libraryVersion)"
    }
}
