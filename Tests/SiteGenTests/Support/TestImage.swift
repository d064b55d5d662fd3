import Foundation
import ImageProcessing

/// Images made in the test: a PNG written by hand (uncompressed deflate blocks), and JPEG or
/// WebP made from it by libvips.
enum TestImage {
    /// An RGB PNG of `width` × `height` with a gradient and a pattern that `seed` shifts, so
    /// two seeds give two different images.
    static func png(width: Int, height: Int, seed: Int = 0) -> Data {
        var raw: [UInt8] = []
        raw.reserveCapacity((width * 3 + 1) * height)
        for y in 0..<height {
            raw.append(0)  // no filter
            for x in 0..<width {
                raw.append(UInt8(truncatingIfNeeded: x * 255 / max(1, width - 1) + seed * 37))
                raw.append(UInt8(truncatingIfNeeded: y * 255 / max(1, height - 1)))
                raw.append(UInt8(truncatingIfNeeded: ((x / 8 + y / 8 + seed) % 2) * 160 + seed * 11))
            }
        }
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8 bits, RGB, deflate, no filter, no interlace
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", header)
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return Data(png)
    }

    /// A PNG whose header claims `width` × `height` but that holds a few bytes of pixels: what a
    /// decompression bomb looks like before it is decoded.
    static func pngClaiming(width: Int, height: Int) -> Data {
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", header)
        png += chunk("IDAT", zlibStored([0, 1, 2, 3]))
        png += chunk("IEND", [])
        return Data(png)
    }

    /// The PNG above as a JPEG (or another format), encoded by libvips at its full size.
    static func encoded(_ format: ImageFormat, width: Int, height: Int, seed: Int = 0) throws -> Data {
        let source = png(width: width, height: height, seed: seed)
        return try ImageProcessor.resize(source, widths: [width], formats: [format])[0].data
    }

    /// A JPEG with an EXIF orientation tag (6: turn 90° clockwise to show it).
    static func rotatedJPEG(width: Int, height: Int) throws -> Data {
        let jpeg = [UInt8](try encoded(.jpeg, width: width, height: height))
        // TIFF header (little-endian), one IFD entry: Orientation (0x0112), SHORT, 1, value 6.
        let tiff: [UInt8] =
            [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00]
            + [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00]
            + [0x00, 0x00, 0x00, 0x00]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let segment: [UInt8] = [0xFF, 0xE1] + bigEndian16(UInt16(payload.count + 2)) + payload
        return Data(jpeg.prefix(2) + segment + jpeg.dropFirst(2))
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    /// zlib data made of stored (uncompressed) deflate blocks.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out.append(last)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { value, _ in value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(UInt32(0xFFFF_FFFF)) { crcTable[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func bigEndian16(_ value: UInt16) -> [UInt8] {
        [UInt8(value >> 8), UInt8(value & 0xFF)]
    }
}
