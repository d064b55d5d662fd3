import Foundation
import ImageProcessing
import Testing

/// The libvips adapter: headers, resizing without enlarging, metadata stripped, the same
/// bytes every time, and damaged or foreign files refused.
@Suite("Images through libvips")
struct ImageProcessorTests {
    @Test("the header gives the format and size without decoding", arguments: ImageFormat.allCases)
    func inspect(format: ImageFormat) throws {
        let bytes =
            try format == .png ? TestImage.png(width: 40, height: 60) : TestImage.encoded(format, width: 40, height: 60)
        #expect(try ImageProcessor.inspect(bytes) == ImageInfo(format: format, width: 40, height: 60))
    }

    @Test("a JPEG resized to several widths keeps its aspect ratio, in each format asked for")
    func resize() throws {
        let jpeg = try TestImage.encoded(.jpeg, width: 400, height: 600)
        let images = try ImageProcessor.resize(jpeg, widths: [300, 100], formats: [.jpeg, .webp])
        #expect(images.map(\.format) == [.jpeg, .webp, .jpeg, .webp])
        #expect(images.map(\.width) == [300, 300, 100, 100])
        #expect(images.map(\.height) == [450, 450, 150, 150])
        for image in images {
            #expect(
                try ImageProcessor.inspect(image.data)
                    == ImageInfo(format: image.format, width: image.width, height: image.height))
        }
    }

    @Test("never enlarged: a width above the image's own gives the image's own size")
    func neverUpscaled() throws {
        let png = TestImage.png(width: 120, height: 80)
        let images = try ImageProcessor.resize(png, widths: [780], formats: [.png])
        #expect(images.map(\.width) == [120])
        #expect(images.map(\.height) == [80])
    }

    @Test("the same input and settings give the same bytes, from any thread")
    func deterministic() throws {
        let jpeg = try TestImage.encoded(.jpeg, width: 500, height: 750, seed: 3)
        let first = try ImageProcessor.resize(jpeg, widths: [480, 240], formats: [.jpeg, .webp, .png])
        let again = (0..<8).map { _ in jpeg }
        let results = Results(count: again.count)
        DispatchQueue.concurrentPerform(iterations: again.count) { index in
            results.set(
                index, try? ImageProcessor.resize(again[index], widths: [480, 240], formats: [.jpeg, .webp, .png]))
        }
        for result in results.values { #expect(result == first) }
    }

    @Test("metadata is stripped: no EXIF, comments or colour profile in what is written")
    func stripped() throws {
        let rotated = try TestImage.rotatedJPEG(width: 60, height: 40)
        #expect(rotated.range(of: Data("Exif".utf8)) != nil)
        // Orientation 6: shown upright, 40 wide and 60 tall.
        #expect(try ImageProcessor.inspect(rotated) == ImageInfo(format: .jpeg, width: 40, height: 60))
        for image in try ImageProcessor.resize(rotated, widths: [40], formats: [.jpeg, .webp, .png]) {
            #expect((image.width, image.height) == (40, 60))
            for marker in ["Exif", "EXIF", "ICC_PROFILE", "ICCP", "iCCP", "XMP", "eXIf", "tEXt"] {
                #expect(image.data.range(of: Data(marker.utf8)) == nil, "\(image.format) holds \(marker)")
            }
            // What is left decodes whole.
            #expect(try ImageProcessor.resize(image.data, widths: [20], formats: [.png]).map(\.height) == [30])
        }
    }

    @Test("text, an empty file and a GIF are refused by name")
    func refused() throws {
        #expect(throws: ImageError.notAnImage) { try ImageProcessor.inspect(Data("just some text, not pixels".utf8)) }
        #expect(throws: ImageError.notAnImage) { try ImageProcessor.inspect(Data()) }
        let gif = Data([
            0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF,
            0x21, 0xF9, 0x04, 0x01, 0, 0, 0, 0, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0, 0x3B,
        ])
        #expect(throws: ImageError.unsupportedFormat("GIF")) { try ImageProcessor.inspect(gif) }
    }

    @Test("raw RGB pixels are encoded in each format; a buffer of the wrong size is refused")
    func encodeRaw() throws {
        var bytes: [UInt8] = []
        for index in 0..<(30 * 20) { bytes += [UInt8(index % 256), 128, UInt8(255 - index % 256)] }
        let pixels = Data(bytes)
        for format in ImageFormat.allCases {
            let image = try ImageProcessor.encode(rgb: pixels, width: 30, height: 20, as: format)
            #expect(try ImageProcessor.inspect(image.data) == ImageInfo(format: format, width: 30, height: 20))
        }
        #expect(throws: ImageError.notAnImage) {
            try ImageProcessor.encode(rgb: pixels.dropLast(), width: 30, height: 20, as: .png)
        }
    }

    @Test("a cut-short JPEG or PNG is damaged, not a grey picture", arguments: [ImageFormat.jpeg, .png])
    func truncated(format: ImageFormat) throws {
        let whole =
            try format == .png
            ? TestImage.png(width: 300, height: 300) : TestImage.encoded(format, width: 300, height: 300)
        let half = whole.prefix(whole.count / 2)
        #expect(try ImageProcessor.inspect(half).format == format)
        #expect(throws: ImageError.damaged) { try ImageProcessor.resize(half, widths: [100], formats: [.jpeg]) }
    }

    @Test("a file whose format is recognised but whose header is cut off is damaged, not 'not an image'")
    func headerCutOff() throws {
        let webP = try TestImage.encoded(.webp, width: 300, height: 300)
        #expect(throws: ImageError.damaged) { try ImageProcessor.inspect(webP.prefix(20)) }
        #expect(throws: ImageError.notAnImage) { try ImageProcessor.inspect(Data("<html></html>".utf8)) }
    }
}

/// Slots filled from several threads, each by one.
private final class Results: @unchecked Sendable {
    private var slots: [[EncodedImage]?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: [EncodedImage]?) { lock.withLock { slots[index] = value } }

    var values: [[EncodedImage]?] { lock.withLock { slots } }
}
