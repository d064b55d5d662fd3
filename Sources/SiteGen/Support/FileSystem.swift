import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The file access the loader needs, as closures over absolute paths: the disk, or a
/// dictionary in tests.
///
/// Every operation reports failure as a ``FileSystemError`` with the system's reason, so a
/// folder that cannot be read is an error, never an empty folder.
public struct FileSystem: Sendable {
    /// The bytes of a regular file (links followed), refusing one larger than the limit given
    /// and, when a folder's real path is given, one that is not in that folder once opened (a
    /// link swapped in after the path was checked).
    public var read: @Sendable (String, Int, String?) throws(FileSystemError) -> Data {
        // A `read` put in place of the disk's (a test's, say) is what reads: no shortcut past it.
        didSet { readsDisk = false }
    }
    /// The entries of a folder (links followed), sorted by name.
    public var list: @Sendable (String) throws(FileSystemError) -> [Entry]
    /// What is at a path, following links; nil when nothing is (or a link is broken).
    public var kind: @Sendable (String) -> Kind?
    /// The path with every link resolved, for checking that it stays inside the site.
    public var realPath: @Sendable (String) -> String?
    /// Whether a path is itself a symbolic link (the last part of it not followed); nil to
    /// find it in its folder's entries.
    public var isSymbolicLink: (@Sendable (String) -> Bool)?
    /// The size of a regular file, checked as ``read`` checks it but not read; nil where files
    /// are only ever read whole (a site held in memory).
    public var checkedSize: (@Sendable (String, Int, String?) throws(FileSystemError) -> Int)?
    /// Whether ``read`` reads the disk, so that a folder of the site may open the folders it
    /// reads many files from once (``OpenFolders``) and read those files there. Replacing
    /// ``read`` sets it to false.
    public var readsDisk: Bool

    public init(
        read: @escaping @Sendable (String, Int, String?) throws(FileSystemError) -> Data,
        list: @escaping @Sendable (String) throws(FileSystemError) -> [Entry],
        kind: @escaping @Sendable (String) -> Kind?,
        realPath: @escaping @Sendable (String) -> String?,
        isSymbolicLink: (@Sendable (String) -> Bool)? = nil,
        checkedSize: (@Sendable (String, Int, String?) throws(FileSystemError) -> Int)? = nil,
        readsDisk: Bool = false
    ) {
        self.read = read
        self.list = list
        self.kind = kind
        self.realPath = realPath
        self.isSymbolicLink = isSymbolicLink
        self.checkedSize = checkedSize
        self.readsDisk = readsDisk
    }

    /// Whether `path`, in the folder at `folder`, is itself a symbolic link.
    func isSymbolicLink(_ path: String, name: String, in folder: String) -> Bool {
        if let isSymbolicLink { return isSymbolicLink(path) }
        guard let entries = try? list(folder) else { return false }
        return entries.contains { $0.name == name && $0.isSymbolicLink }
    }

    /// What a path holds, after following links.
    public enum Kind: Sendable, Equatable {
        case file
        case folder
        /// A FIFO, socket or device: never read (opening a FIFO would wait forever).
        case special
    }

    /// A folder entry.
    public struct Entry: Sendable, Equatable {
        public let name: String
        /// What the entry is once links are followed; nil for a broken link.
        public let kind: Kind?
        public let isSymbolicLink: Bool
        /// Whether the name on disk is not valid UTF-8 (`name` shows it with U+FFFD): no path
        /// made of it reaches the entry.
        public let hasUndecodableName: Bool

        public init(name: String, kind: Kind?, isSymbolicLink: Bool = false, hasUndecodableName: Bool = false) {
            self.name = name
            self.kind = kind
            self.isSymbolicLink = isSymbolicLink
            self.hasUndecodableName = hasUndecodableName
        }

        public var isDirectory: Bool { kind == .folder }
    }

    /// The most a text file (a review, a template, YAML, JSON) may hold: 64 MiB.
    public static let textSizeLimit = DiskFile.sizeLimit

    /// The real disk.
    public static let disk = FileSystem(
        read: { path, limit, root throws(FileSystemError) in try DiskFile.read(path, limit: limit, within: root) },
        list: { folder throws(FileSystemError) in
            guard let entries = Directory.entries(folder) else {
                throw FileSystemError(path: folder, code: errno)
            }
            return entries.map { entry in
                let path = folder + "/" + entry.name
                guard entry.decodable else { return Entry(name: entry.name, kind: .file, hasUndecodableName: true) }
                switch entry.kind {
                case .file: return Entry(name: entry.name, kind: .file)
                case .folder: return Entry(name: entry.name, kind: .folder)
                case .other: return Entry(name: entry.name, kind: .special)
                case .link: return Entry(name: entry.name, kind: DiskFile.kind(path), isSymbolicLink: true)
                }
            }
        },
        kind: { DiskFile.kind($0) },
        realPath: { SafePath.resolved($0) },
        // One `lstat`, where reading the folder's entries took 10 ms in a section of 5,000 reviews.
        isSymbolicLink: { lstatKind($0) == .link },
        checkedSize: { path, limit, root throws(FileSystemError) in
            let (descriptor, size) = try DiskFile.openChecked(path, limit: limit, within: root)
            close(descriptor)
            return size
        },
        readsDisk: true)
}

/// A file or folder that could not be read, with the system's reason.
public struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String
    /// True when nothing is at the path (as opposed to something that cannot be read).
    public let isMissing: Bool
    /// True when a link was met where none was to be followed (`ELOOP`).
    let isLink: Bool

    public init(path: String, reason: String, isMissing: Bool = false) {
        self.init(path: path, reason: reason, isMissing: isMissing, isLink: false)
    }

    private init(path: String, reason: String, isMissing: Bool, isLink: Bool) {
        self.path = path
        self.reason = reason
        self.isMissing = isMissing
        self.isLink = isLink
    }

    /// The error for a failed system call's `errno`.
    init(path: String, code: Int32) {
        self.init(
            path: path, reason: String(cString: strerror(code)), isMissing: code == ENOENT, isLink: code == ELOOP)
    }

    public var description: String { "\(path): \(reason)" }
}

/// Reading files of the site from disk with the checks the loader relies on.
enum DiskFile {
    /// Text files (reviews, templates, YAML, metadata) larger than this are refused: no
    /// review is 64 MB, and reading a runaway file whole would exhaust memory.
    static let sizeLimit = 64 * 1024 * 1024
    /// Files copied as they are (static files, theme assets, images) may be larger.
    static let copiedSizeLimit = 1024 * 1024 * 1024
    /// sitegen's own records (an output folder's record, a build manifest) grow with the site,
    /// by about 125 bytes a file (17 MB at 100,000 reviews), past ``sizeLimit`` at about 400,000
    /// reviews; they are read up to this size, and a larger one is not read at all.
    static let recordSizeLimit = copiedSizeLimit

    /// What is at `path`, links followed; nil when nothing is.
    static func kind(_ path: String) -> FileSystem.Kind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        default: return .special
        }
    }

    /// The bytes of the regular file at `path`; refuses FIFOs, devices and oversized files,
    /// and, given the real path of a folder `root`, a file that once opened is not in it.
    /// Without `followingLink`, a link at `path` itself is refused (``FileSystemError/isLink``).
    static func read(
        _ path: String, limit: Int = sizeLimit, within root: String? = nil, followingLink: Bool = true
    ) throws(FileSystemError) -> Data {
        try read(opened: try openForReading(path, within: root, followingLink: followingLink), path: path, limit: limit)
    }

    /// The bytes of the file open as `descriptor` (at `path`, for errors), with
    /// ``checked(_:path:limit:)``'s checks, read to its end; closes the descriptor in every case.
    static func read(opened descriptor: Int32, path: String, limit: Int) throws(FileSystemError) -> Data {
        defer { close(descriptor) }
        let size = try checked(descriptor, path: path, limit: limit)
        var data = Data(count: size)
        var total = 0
        let failure: Int32? = data.withUnsafeMutableBytes { buffer in
            while total < size {
                let count = Glibc.read(descriptor, buffer.baseAddress! + total, size - total)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if count == 0 { break }
                total += count
            }
            return nil
        }
        if let failure { throw FileSystemError(path: path, code: failure) }
        // A file that shrank while read is read as it now is.
        if total < size { data.removeSubrange(total...) }
        return data
    }

    /// Writes all of `bytes` to `descriptor`, again after an interruption or a short write;
    /// nil when done, else the system's error (`EIO` for a write that wrote nothing).
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? errno : EIO }
            offset += count
        }
        return nil
    }

    /// The regular file at `path` opened for reading, and its size, with ``read(_:limit:within:followingLink:)``'s
    /// checks; the caller closes the descriptor.
    static func openChecked(
        _ path: String, limit: Int, within root: String?, followingLink: Bool = true
    ) throws(FileSystemError) -> (Int32, Int) {
        let descriptor = try openForReading(path, within: root, followingLink: followingLink)
        do throws(FileSystemError) {
            return (descriptor, try checked(descriptor, path: path, limit: limit))
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// `path` opened for reading, refused (and closed) when, given the real path of a folder
    /// `root`, it is not in that folder once opened; the caller checks what it is.
    private static func openForReading(
        _ path: String, within root: String?, followingLink: Bool
    ) throws(FileSystemError) -> Int32 {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; the type is checked next.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingLink ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else { throw FileSystemError(path: path, code: errno) }
        // A path checked to lead inside the folder can be made a link out of it before it is
        // opened: what was opened is what is checked, by the kernel's name for it.
        if let root, let opened = openedPath(descriptor), !SafePath.isWithin(opened, root) {
            close(descriptor)
            throw FileSystemError(path: path, reason: "refused: it is a link to a place outside the site folder")
        }
        return descriptor
    }

    /// The size of the file open as `descriptor` (at `path`, for errors), once it is found to be
    /// a regular file of at most `limit` bytes: FIFOs, devices and folders are refused.
    static func checked(_ descriptor: Int32, path: String, limit: Int) throws(FileSystemError) -> Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileSystemError(path: path, code: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw FileSystemError(
                path: path,
                reason: (info.st_mode & S_IFMT) == S_IFDIR ? "is a folder, not a file" : "not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= limit else {
            throw FileSystemError(
                path: path,
                reason: "the file is \(size) bytes; files over \(limit / (1024 * 1024)) MiB are refused here")
        }
        return size
    }

    /// `/proc/self/fd`, open for the life of the process (-1 where there is none).
    private static let descriptorFolder = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC)

    /// Where the file open as `descriptor` is, links resolved (Linux's `/proc/self/fd`); nil
    /// where that cannot be told.
    static func openedPath(_ descriptor: Int32) -> String? {
        guard descriptorFolder >= 0 else { return nil }
        // Read in the folder opened once: walking /proc/self/fd for every file cost more.
        let path = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX)) { buffer in
            let count = readlinkat(descriptorFolder, String(descriptor), buffer.baseAddress!, buffer.count)
            // A name as long as the buffer may have been cut short.
            guard count > 0, count < buffer.count else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), as: UTF8.self)
        }
        // A file deleted since it was opened is named with " (deleted)" after its path.
        return path.hasPathPrefix("/") ? path : nil
    }
}
