import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What sitegen wrote into an output folder, kept there as `.sitegen-output`.
///
/// It is the proof that files are sitegen's own: a build removes only files the record
/// lists, and refuses a non-empty folder without one. For each file it keeps the size,
/// date and inode seen after writing, and the fingerprint of the bytes, so an unchanged
/// page is neither rewritten nor read again.
struct OutputRecord: Sendable, Equatable {
    static let fileName = ".sitegen-output"
    static let header = "sitegen-output 2"

    /// One file as sitegen left it.
    struct Entry: Sendable, Equatable {
        let stamp: FileStamp
        let hash: ContentHash
    }

    var entries: [String: Entry]

    /// What reading the record found.
    enum Found: Sendable, Equatable {
        case none
        case record(OutputRecord)
        /// A record that cannot be trusted, and why.
        case damaged(String)
    }

    /// Whether the folder at `folder` has a record (read or not).
    static func exists(in folder: String) -> Bool {
        lstatKind(folder + "/" + fileName) != nil
    }

    /// Reads the record of the folder at `folder`; one over `limit` bytes is damaged.
    static func read(in folder: String, limit: Int = DiskFile.recordSizeLimit) -> Found {
        let path = folder + "/" + fileName
        guard lstatKind(path) != nil else { return .none }
        do {
            return read(try DiskFile.read(path, limit: limit))
        } catch {
            return .damaged(error.reason)
        }
    }

    /// Reads a record's bytes.
    static func read(_ data: Data) -> Found {
        guard var text = String(data: data, encoding: .utf8) else { return .damaged("not UTF-8 text") }
        return text.withUTF8 { bytes in
            var lines = RecordText.lines(bytes)
            guard lines.first?.holds(header) == true, lines.last?.isEmpty == true else {
                return .damaged("not a record sitegen wrote")
            }
            lines.removeFirst()
            lines.removeLast()
            var entries: [String: Entry] = [:]
            entries.reserveCapacity(lines.count)
            for (number, line) in lines.enumerated() {
                let fields = RecordText.fields(line, maxSplits: 6)
                let path = fields.count == 7 ? fields[6].text : ""
                guard fields.count == 7, let hash = ContentHash(hex: fields[0]),
                    let stamp = FileStamp(fields: fields[1...5]), !path.isEmpty, entries[path] == nil
                else { return .damaged("line \(number + 2) is not what sitegen writes") }
                entries[path] = Entry(stamp: stamp, hash: hash)
            }
            return .record(OutputRecord(entries: entries))
        }
    }

    /// The record as text, sorted by path so that equal records are equal bytes. The paths are
    /// sorted alone, and the lines made on every core: at 100,000 reviews, 139,000 of them took
    /// 0.4 s on one core while the other waited for the build to end.
    var text: String { String(decoding: bytes(sortedPaths: nil), as: UTF8.self) }

    /// ``text`` as bytes, with the paths in `sortedPaths` when they are exactly the record's,
    /// sorted and each once (a build sorts its files' paths while it renders them); else
    /// sorted here.
    func bytes(sortedPaths: [String]?) -> Data {
        let presorted = sortedPaths.flatMap { Self.isStrictlyIncreasing($0) ? $0 : nil }
        let lines = entries.linesInKeyOrder(presorted: presorted) { _, path, entry in
            "\(entry.hash) \(entry.stamp.text) \(path)"
        }
        return RecordText.bytes([Self.header] + lines)
    }

    /// Whether each of `paths` comes after the one before it: sorted, none twice.
    static func isStrictlyIncreasing(_ paths: [String]) -> Bool {
        zip(paths, paths.dropFirst()).allSatisfy { $0 < $1 }
    }
}

/// What `lstat` says of a file, enough to notice that someone else changed it: its size,
/// inode and modification time, and the time of its last status change (which no tool can
/// set back, unlike the modification time).
struct FileStamp: Sendable, Equatable {
    let size: Int
    let seconds: Int
    let nanoseconds: Int
    let inode: UInt64
    let changed: Int

    init(size: Int, seconds: Int, nanoseconds: Int, inode: UInt64, changed: Int = 0) {
        self.size = size
        self.seconds = seconds
        self.nanoseconds = nanoseconds
        self.inode = inode
        self.changed = changed
    }

    init(_ info: stat) {
        self.init(
            size: Int(info.st_size), seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec),
            inode: UInt64(info.st_ino), changed: Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec))
    }

    /// The stamp as text: `size seconds nanoseconds inode changed`.
    var text: String { "\(size) \(seconds) \(nanoseconds) \(inode) \(changed)" }

    /// Reads ``text`` back from the five fields of a record's line.
    init?(fields: ArraySlice<RecordBytes>) {
        guard fields.count == 5 else { return nil }
        let at = fields.startIndex
        guard let size = fields[at].int, let seconds = fields[at + 1].int, let nanoseconds = fields[at + 2].int,
            let inode = fields[at + 3].unsigned, let changed = fields[at + 4].int
        else { return nil }
        self.init(size: size, seconds: seconds, nanoseconds: nanoseconds, inode: inode, changed: changed)
    }

    /// The stamp of whatever `path` leads to, links followed; nil when nothing (or not a regular
    /// file). A relative `path` is read in the open folder `folder`.
    static func following(_ path: String, in folder: Int32 = AT_FDCWD) -> FileStamp? {
        regular(path, in: folder, flags: 0)
    }

    /// The stamp of the regular file at `path` (links are not followed); nil for anything else.
    /// A relative `path` is read in the open folder `folder`.
    static func of(_ path: String, in folder: Int32 = AT_FDCWD) -> FileStamp? {
        regular(path, in: folder, flags: AT_SYMLINK_NOFOLLOW)
    }

    private static func regular(_ path: String, in folder: Int32, flags: Int32) -> FileStamp? {
        var info = stat()
        guard fstatat(folder, path, &info, flags) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileStamp(info)
    }

    /// The stamp of an open file.
    static func of(descriptor: Int32) -> FileStamp? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return FileStamp(info)
    }
}

/// What is at `path` without following a link: nil when nothing is.
func lstatKind(_ path: String) -> Directory.Kind? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .file
    case S_IFDIR: return .folder
    case S_IFLNK: return .link
    default: return .other
    }
}
