/// What an image's header says: its format and its size as shown (turned upright, as its
/// orientation tag asks).
public struct ImageInfo: Sendable, Equatable {
    public let format: ImageFormat
    public let width: Int
    public let height: Int

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Width times height.
    public var pixels: Int { width * height }
}
