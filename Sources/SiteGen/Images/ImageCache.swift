import Foundation
import ImageProcessing

/// Processed images kept between builds, in the site's `.sitegen/images/` (out of git and
/// out of the output), by a fingerprint of the source's bytes, the widths and the encoder
/// settings (with the libvips version). An unchanged image is read back instead of being
/// decoded and encoded again.
///
/// The cache is only ever a shortcut: an entry that is missing, damaged or does not match
/// its recorded fingerprints is a miss, and one that cannot be written is no error.
struct ImageCache: Sendable {
    static let header = "sitegen-image-cache 1"
    let folder: URL

    /// The cache of the site at `source`.
    init(source: URL) {
        folder = source.appendingPathComponent(BuildManifest.folderName).appendingPathComponent("images")
    }

    /// What identifies the output for `bytes`.
    static func key(for bytes: Data, widths: [Int], settings: EncoderSettings) -> ContentHash {
        let recipe = "\(widths.map(String.init).joined(separator: " ")) \(settings)"
        return ContentHash(combining: [ContentHash(bytes), ContentHash(recipe)])
    }

    /// The images stored under `key`, or nil.
    func entry(_ key: ContentHash) -> [EncodedImage]? {
        guard let index = try? DiskFile.read(indexURL(key).path),
            let text = String(data: index, encoding: .utf8)
        else { return nil }
        var lines = text.split(separator: "\n")
        guard lines.first == Substring(Self.header) else { return nil }
        lines.removeFirst()
        var images: [EncodedImage] = []
        for line in lines {
            let fields = line.split(separator: " ")
            guard fields.count == 4, let format = ImageFormat(rawValue: String(fields[0])),
                let width = Int(fields[1]), let height = Int(fields[2]), let hash = ContentHash(hex: fields[3]),
                let data = try? DiskFile.read(fileURL(key, format, width).path, limit: DiskFile.copiedSizeLimit),
                ContentHash(data) == hash
            else { return nil }
            images.append(EncodedImage(format: format, width: width, height: height, data: data))
        }
        return images.isEmpty ? nil : images
    }

    /// Keeps `images` under `key`: the files first, then the index naming them.
    func store(_ images: [EncodedImage], key: ContentHash) {
        do {
            try Directory.make(folder.path)
            var lines = [Self.header]
            for image in images {
                try AtomicFile.write(image.data, to: fileURL(key, image.format, image.width))
                lines.append("\(image.format.rawValue) \(image.width) \(image.height) \(ContentHash(image.data))")
            }
            try AtomicFile.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: indexURL(key))
        } catch {
            // Only a shortcut for the next build.
        }
    }

    private func indexURL(_ key: ContentHash) -> URL {
        folder.appendingPathComponent("\(key).index")
    }

    private func fileURL(_ key: ContentHash, _ format: ImageFormat, _ width: Int) -> URL {
        folder.appendingPathComponent("\(key)-\(width).\(format.fileExtension)")
    }
}
