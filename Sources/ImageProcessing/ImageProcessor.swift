internal import CVips
import Foundation

/// Images read, resized and encoded by libvips: the only file that sees libvips.
///
/// Each call works on bytes in memory and holds no state between calls, so any number of
/// threads may call at once (libvips is thread-safe). Each image is processed on the
/// calling thread alone (libvips's own thread pool is set to one thread), so callers bound
/// the work by how many threads they use, and the output does not depend on the timing of
/// threads. Only JPEG, PNG and WebP are read; libvips's loaders for untrusted formats
/// (ImageMagick, PDF, SVG…) are blocked.
public enum ImageProcessor {
    /// The version of the linked libvips, such as "8.14.1".
    public static var libraryVersion: String {
        start()
        return String(cString: vips_version_string())
    }

    /// The format and upright size of the image in `bytes`, from its header alone: no
    /// pixels are decoded, so a huge image costs nothing here.
    public static func inspect(_ bytes: Data) throws(ImageError) -> ImageInfo {
        start()
        let result: Result<ImageInfo, ImageError> = bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return .failure(.notAnImage) }
            guard let loader = vips_foreign_find_load_buffer(base, buffer.count) else {
                return .failure(.notAnImage)
            }
            guard let format = format(loader: String(cString: loader)) else {
                return .failure(.unsupportedFormat(formatName(loader: String(cString: loader))))
            }
            // A format was recognised, yet its header cannot be read: damaged or cut short.
            guard let image = sitegen_vips_header(base, buffer.count) else { return .failure(.damaged) }
            defer { g_object_unref(image) }
            let (width, height) = (Int(vips_image_get_width(image)), Int(vips_image_get_height(image)))
            let swapped = vips_image_get_orientation_swap(image) != 0
            return .success(
                ImageInfo(format: format, width: swapped ? height : width, height: swapped ? width : height))
        }
        return try result.get()
    }

    /// Whether the pixels of the image in `bytes` (a JPEG, PNG or WebP) can all be decoded: a
    /// file cut short or damaged after a good header throws ``ImageError/damaged``. Decoded
    /// small (JPEG and WebP shrink while they load, reading every byte still), so cheap.
    /// Call ``inspect(_:)`` first and bound the pixels: PNG decodes them all.
    public static func verify(_ bytes: Data) throws(ImageError) {
        _ = try resize(bytes, widths: [16], formats: [])
    }

    /// The image in `bytes` at each of `widths`, in that order, each encoded as each of
    /// `formats`: turned upright, in sRGB, without metadata (no EXIF, no colour profile, no
    /// comments), never wider than the image itself. The largest size is decoded once (JPEG
    /// and WebP shrink while they load), the smaller ones are made from it. The same bytes,
    /// widths and settings give the same output bytes.
    ///
    /// Call ``inspect(_:)`` first: this decodes the pixels, whatever their number.
    public static func resize(
        _ bytes: Data, widths: [Int], formats: [ImageFormat], settings: EncoderSettings = EncoderSettings()
    ) throws(ImageError) -> [EncodedImage] {
        start()
        guard let largest = widths.max(), largest > 0 else { return [] }
        let result: Result<[EncodedImage], ImageError> = bytes.withUnsafeBytes { buffer in
            // libvips reads the buffer in place: every image made from it is released before this closure returns.
            guard let base = buffer.baseAddress, buffer.count > 0 else { return .failure(.notAnImage) }
            var loaded: UnsafeMutablePointer<VipsImage>?
            guard
                sitegen_vips_thumbnail_buffer(
                    UnsafeMutableRawPointer(mutating: base), buffer.count, &loaded, Int32(largest)) == 0,
                let loaded
            else { return .failure(.damaged) }
            defer { g_object_unref(loaded) }
            // Decoding happens here, once; a cut-short file fails here.
            guard let decoded = vips_image_copy_memory(loaded) else { return .failure(.damaged) }
            defer { g_object_unref(decoded) }
            removeMetadata(decoded)
            var encoded: [EncodedImage] = []
            for width in widths {
                var resized: UnsafeMutablePointer<VipsImage>?
                if width >= largest {
                    resized = decoded
                    g_object_ref(decoded)
                } else {
                    guard sitegen_vips_thumbnail_image(decoded, &resized, Int32(width)) == 0 else {
                        return .failure(.damaged)
                    }
                }
                guard let resized else { return .failure(.damaged) }
                defer { g_object_unref(resized) }
                for format in formats {
                    guard let data = encode(resized, as: format, settings) else {
                        return .failure(.encodingFailed(format))
                    }
                    encoded.append(
                        EncodedImage(
                            format: format, width: Int(vips_image_get_width(resized)),
                            height: Int(vips_image_get_height(resized)), data: data))
                }
            }
            return .success(encoded)
        }
        return try result.get()
    }

    /// Encodes raw pixels (8-bit RGB, row after row, `width` × `height` × 3 bytes) as
    /// `format`: for making images in tests and benchmarks.
    public static func encode(
        rgb pixels: Data, width: Int, height: Int, as format: ImageFormat, settings: EncoderSettings = EncoderSettings()
    ) throws(ImageError) -> EncodedImage {
        start()
        guard width > 0, height > 0, pixels.count == width * height * 3 else { throw ImageError.notAnImage }
        let data: Data? = pixels.withUnsafeBytes { buffer in
            // The image reads the buffer in place: it is released before this closure returns.
            guard
                let image = vips_image_new_from_memory(
                    buffer.baseAddress, buffer.count, Int32(width), Int32(height), 3, VIPS_FORMAT_UCHAR)
            else { return nil }
            defer { g_object_unref(image) }
            return encode(image, as: format, settings)
        }
        guard let data else { throw ImageError.encodingFailed(format) }
        return EncodedImage(format: format, width: width, height: height, data: data)
    }
}

private extension ImageProcessor {
    /// Starts libvips once per process: one thread per image, no operation cache (each
    /// image is made once, and cached operations would keep pointers into buffers that are
    /// gone), untrusted loaders blocked, warnings not printed.
    static let started: Bool = {
        guard vips_init("sitegen") == 0 else { return false }
        vips_concurrency_set(1)
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        vips_block_untrusted_set(1)
        sitegen_vips_quiet()
        return true
    }()

    static func start() {
        precondition(started, "libvips could not be started")
    }

    /// The format a libvips loader reads, when sitegen accepts it.
    static func format(loader: String) -> ImageFormat? {
        switch loader {
        case "VipsForeignLoadJpegBuffer": .jpeg
        case "VipsForeignLoadPngBuffer", "VipsForeignLoadSpngBuffer": .png
        case "VipsForeignLoadWebpBuffer": .webp
        default: nil
        }
    }

    /// A format's common name from its loader's (`VipsForeignLoadGifBuffer` → `GIF`).
    static func formatName(loader: String) -> String {
        let core = loader.replacingOccurrences(of: "VipsForeignLoad", with: "")
            .replacingOccurrences(of: "Buffer", with: "")
        switch core.lowercased() {
        case "nsgif": return "GIF"
        case "heif": return "HEIF or AVIF"
        case "jp2k": return "JPEG 2000"
        case "jxl": return "JPEG XL"
        default: return core.uppercased()
        }
    }

    /// Removes every metadata field (EXIF, XMP, IPTC, colour profile, comments) from an image
    /// only this code holds: the encoders' `strip` does not drop them all (WebP keeps EXIF in
    /// libvips 8.14). The size, bands and format are not fields and stay.
    static func removeMetadata(_ image: UnsafeMutablePointer<VipsImage>) {
        guard let fields = vips_image_get_fields(image) else { return }
        defer { g_strfreev(fields) }
        var index = 0
        while let field = fields[index] {
            vips_image_remove(image, field)
            index += 1
        }
    }

    /// The image encoded as `format`, or nil when libvips fails.
    static func encode(_ image: UnsafeMutablePointer<VipsImage>, as format: ImageFormat, _ settings: EncoderSettings)
        -> Data?
    {
        var output: UnsafeMutableRawPointer?
        var length = 0
        let status =
            switch format {
            case .jpeg: sitegen_vips_jpegsave(image, &output, &length, Int32(settings.jpegQuality))
            case .webp: sitegen_vips_webpsave(image, &output, &length, Int32(settings.webpQuality))
            case .png: sitegen_vips_pngsave(image, &output, &length)
            }
        defer { g_free(output) }
        guard status == 0, let output else { return nil }
        let data = Data(bytes: output, count: length)
        return format == .webp ? WebPMetadata.removed(from: data) : data
    }
}
