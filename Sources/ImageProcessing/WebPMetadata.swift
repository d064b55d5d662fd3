import Foundation

/// Metadata chunks taken out of a WebP file. libvips 8.14's WebP encoder writes an EXIF chunk
/// (resolution and orientation) even when told to strip metadata (libvips issue #3340), so
/// the chunks are removed from the RIFF container afterwards and the extended header's flags
/// cleared to match.
enum WebPMetadata {
    /// Chunks that hold metadata rather than pixels.
    static let metadataChunks: Set<String> = ["EXIF", "XMP ", "ICCP"]
    /// The extended header's flags for those chunks: ICC profile, EXIF, XMP.
    static let metadataFlags: UInt8 = 0x20 | 0x08 | 0x04

    /// `data` without EXIF, XMP and ICC chunks; unchanged when it is not a well-formed WebP file.
    static func removed(from data: Data) -> Data {
        let bytes = [UInt8](data)
        guard bytes.count >= 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x45, 0x42, 0x50]
        else { return data }
        var output: [UInt8] = Array(bytes[0..<12])
        var offset = 12
        while offset + 8 <= bytes.count {
            let name = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(littleEndian(bytes, offset + 4))
            let end = offset + 8 + size + (size % 2)
            guard end <= bytes.count || (end == bytes.count + 1 && size % 2 == 1) else { return data }
            var chunk = Array(bytes[offset..<min(end, bytes.count)])
            if name == "VP8X", chunk.count > 8 { chunk[8] &= ~metadataFlags }
            if !metadataChunks.contains(name) { output += chunk }
            offset = end
        }
        guard offset >= bytes.count else { return data }
        let riffSize = UInt32(output.count - 8)
        output.replaceSubrange(4..<8, with: withUnsafeBytes(of: riffSize.littleEndian) { Array($0) })
        return Data(output)
    }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }
}
