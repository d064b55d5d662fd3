import Foundation
import ImageProcessing
import Synchronization

/// Processed images kept between builds, in the site's `.sitegen/images/` (out of git and
/// out of the output), by a fingerprint of the source's bytes, the widths and the encoder
/// settings (with the libvips version). An unchanged image is read back instead of being
/// decoded and encoded again.
///
/// The cache is only ever a shortcut: an entry that is missing, damaged or does not match
/// its recorded fingerprints is a miss, and one that cannot be written is no error.
///
/// Entries are kept while they are used: each hit marks its entry's time, and after a full
/// build ``prune(unusedFor:now:)`` removes the entries that build did not use and nothing
/// used for a while (replaced images, a draft's image no preview showed lately), so the
/// folder does not grow with every image ever published.
struct ImageCache: Sendable {
    static let header = "sitegen-image-cache 1"
    /// How long an entry no build used is kept: a draft's image that only `serve` shows stays
    /// while it is previewed now and then.
    static let keptUnused: TimeInterval = 14 * 24 * 60 * 60
    let folder: URL
    /// The keys read or written through this cache (by any copy of it), and why the first
    /// entry that could not be stored was not.
    private let used = UsedKeys()

    /// The cache of the site at `source`.
    init(source: URL) {
        folder = source.appendingPathComponent(BuildManifest.folderName).appendingPathComponent("images")
    }

    /// Removes the files of every entry not read or written through this cache that was last
    /// used (read, or written) before `now` minus `age`. Only files named as entries are
    /// touched; anything else in the folder is left alone. Returns how many were removed.
    @discardableResult
    func prune(unusedFor age: TimeInterval = keptUnused, now: Date = Date()) -> Int {
        // Files are removed only in the site's own folders, never through a link to another place.
        let parent = folder.deletingLastPathComponent().path
        guard lstatKind(parent) == .folder, lstatKind(folder.path) == .folder,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return 0 }
        let kept = used.keys
        let cutoff = Int(now.addingTimeInterval(-age).timeIntervalSince1970)
        // When a file (not a link) was last modified, in seconds.
        let modified = { (name: String) in FileStamp.of(folder.appendingPathComponent(name).path)?.seconds }
        // An entry's time is its index's (a hit marks it); files without an index go by their own.
        var entryTimes: [ContentHash: Int] = [:]
        for name in names where name.hasSuffix(".index") {
            if let key = Self.key(ofFileNamed: name), let time = modified(name) { entryTimes[key] = time }
        }
        var removed = 0
        for name in names {
            guard let key = Self.key(ofFileNamed: name), !kept.contains(key),
                let time = entryTimes[key] ?? modified(name), time < cutoff
            else { continue }
            if unlink(folder.appendingPathComponent(name).path) == 0 { removed += 1 }
        }
        return removed
    }

    /// The key an entry's file is named by (`KEY.index`, `KEY-WIDTH.EXTENSION`), or nil for
    /// any other name (a temporary file being written, something someone put there).
    private static func key(ofFileNamed name: String) -> ContentHash? {
        let digits = name.prefix(32)
        guard digits.allSatisfy(\.isHexDigit), let key = ContentHash(hex: digits) else { return nil }
        let rest = name.dropFirst(32)
        if rest == ".index" { return key }
        let parts = rest.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        guard rest.first == "-", parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
            parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), parts[1].allSatisfy({ $0.isASCII && $0.isLetter })
        else { return nil }
        return key
    }

    /// What identifies the output for `bytes`.
    static func key(for bytes: Data, widths: [Int], settings: EncoderSettings) -> ContentHash {
        let recipe = "\(widths.map(String.init).joined(separator: " ")) \(settings)"
        return ContentHash(combining: [ContentHash(bytes), ContentHash(recipe)])
    }

    /// The images stored under `key`, or nil.
    func entry(_ key: ContentHash) -> [EncodedImage]? {
        used.insert(key)
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
        guard !images.isEmpty else { return nil }
        // Marks the entry used now (for ``prune(unusedFor:now:)``); failing to is no error.
        _ = utimensat(AT_FDCWD, indexURL(key).path, nil, 0)
        return images
    }

    /// Keeps `images` under `key`: the files first, then the index naming them.
    func store(_ images: [EncodedImage], key: ContentHash) {
        used.insert(key)
        do {
            // Never through a link to another place.
            let site = folder.deletingLastPathComponent().deletingLastPathComponent()
            if SafePath.linkLeadsOut("\(StateFolder.name)/\(folder.lastPathComponent)", in: site) {
                throw FileSystemError(
                    path: folder.path, reason: "a link on the way leads out of the site folder, or nowhere")
            }
            try Directory.make(folder.path)
            var lines = [Self.header]
            for image in images {
                try AtomicFile.write(image.data, to: fileURL(key, image.format, image.width))
                lines.append("\(image.format.rawValue) \(image.width) \(image.height) \(ContentHash(image.data))")
            }
            try AtomicFile.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: indexURL(key))
        } catch {
            // Only a shortcut for the next build, but the reviewer is told (``storeFailure``).
            used.failed(error)
        }
    }

    /// Why an entry could not be stored (the first such failure through any copy), or nil.
    var storeFailure: (any Error)? { used.failure }

    private func indexURL(_ key: ContentHash) -> URL {
        folder.appendingPathComponent("\(key).index")
    }

    private func fileURL(_ key: ContentHash, _ format: ImageFormat, _ width: Int) -> URL {
        folder.appendingPathComponent("\(key)-\(width).\(format.fileExtension)")
    }
}

/// The keys an ``ImageCache`` was asked for, and its first failure to store an entry, shared
/// by its copies.
private final class UsedKeys: Sendable {
    private let stored = Mutex<(keys: Set<ContentHash>, failure: (any Error)?)>(([], nil))

    func insert(_ key: ContentHash) {
        _ = stored.withLock { $0.keys.insert(key) }
    }

    var keys: Set<ContentHash> { stored.withLock { $0.keys } }

    func failed(_ error: any Error) {
        stored.withLock { $0.failure = $0.failure ?? error }
    }

    var failure: (any Error)? { stored.withLock { $0.failure } }
}
