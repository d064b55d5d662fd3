/// The pixel size of a PNG, JPEG, GIF or WebP image, read from its header.
enum ImageSize {
    static func of(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        png(bytes) ?? jpeg(bytes) ?? gif(bytes) ?? webp(bytes)
    }

    private static func png(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 24, b.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        return (bigEndian(b, 16, 4), bigEndian(b, 20, 4))
    }

    private static func gif(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 10, b.starts(with: Array("GIF8".utf8)) else { return nil }
        return (Int(b[6]) | Int(b[7]) << 8, Int(b[8]) | Int(b[9]) << 8)
    }

    private static func webp(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 30, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) else {
            return nil
        }
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8X":
            return (
                1 + (Int(b[24]) | Int(b[25]) << 8 | Int(b[26]) << 16),
                1 + (Int(b[27]) | Int(b[28]) << 8 | Int(b[29]) << 16)
            )
        case "VP8 ": return (Int(b[26]) | Int(b[27] & 0x3F) << 8, Int(b[28]) | Int(b[29] & 0x3F) << 8)
        case "VP8L":
            let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
            return (1 + bits & 0x3FFF, 1 + (bits >> 14) & 0x3FFF)
        default: return nil
        }
    }

    /// Walks JPEG markers to the first start-of-frame.
    private static func jpeg(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var index = 2
        while index + 9 < b.count {
            guard b[index] == 0xFF else { return nil }
            let marker = b[index + 1]
            if marker == 0xFF {
                index += 1
                continue
            }
            let length = bigEndian(b, index + 2, 2)
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (bigEndian(b, index + 7, 2), bigEndian(b, index + 5, 2))
            }
            index += 2 + length
        }
        return nil
    }

    private static func bigEndian(_ b: [UInt8], _ start: Int, _ count: Int) -> Int {
        b[start..<start + count].reduce(0) { $0 << 8 | Int($1) }
    }
}
