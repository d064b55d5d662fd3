import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The folders a build reads many files from (a section of reviews, a kind of metadata entry),
/// each opened once and checked to be inside a root folder then: a file in one of them,
/// opened by its name in the open folder without following a link, is inside the root, with
/// nothing to check once it is open and no walk of its whole path. (A file opened by its path
/// is checked by the kernel's name for it, a `readlinkat` for each file.) Made for one build or
/// one update of `serve`, and closed with it: a folder replaced later is opened afresh.
final class OpenFolders: Sendable {
    /// The real path of the folder every file read here is in.
    let realRoot: String
    /// Each folder asked for, by its path's bytes (two folders whose names differ only in how
    /// an accent is encoded are equal Swift strings): its descriptor, or -1 when it is not
    /// inside ``realRoot``, cannot be opened, or came after ``capacity`` others.
    private let descriptors = Mutex<[[UInt8]: Int32]>([:])

    /// The most folders kept open at once, far below the usual limit of 1,024 descriptors a
    /// process has: a site of many small folders reads the rest by path, as before.
    static let capacity = 64

    init(realRoot: String) {
        self.realRoot = realRoot
    }

    deinit {
        for descriptor in descriptors.withLock({ Array($0.values) }) where descriptor >= 0 {
            close(descriptor)
        }
    }

    /// The bytes of the regular file at the absolute `path`, with ``DiskFile/read(_:limit:within:followingLink:)``'s
    /// checks, when its folder is inside the root and the file is not a link; nil when the
    /// caller must read it by its path and check where it leads (a link, a folder outside the
    /// root or that cannot be opened, a name this cannot take).
    func read(_ path: String, limit: Int) throws(FileSystemError) -> Data? {
        guard let (folder, name) = place(of: path) else { return nil }
        // O_NONBLOCK: opening a FIFO must not wait for a writer; the type is checked next.
        let descriptor = openat(folder, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard descriptor >= 0 else {
            let code = errno
            // A link (ELOOP under O_NOFOLLOW) is followed and checked by the caller.
            if code == ELOOP { return nil }
            throw FileSystemError(path: path, code: code)
        }
        return try DiskFile.read(opened: descriptor, path: path, limit: limit)
    }

    /// Whether something other than a link is at `path` in an open folder inside the root;
    /// nil when that cannot be told here (nothing there, or no open folder for it).
    func holdsPlainEntry(_ path: String) -> Bool? {
        guard let (folder, name) = place(of: path) else { return nil }
        var status = stat()
        guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return status.st_mode & S_IFMT != S_IFLNK
    }

    /// The open folder `path` is in and its name there; nil when there is none.
    private func place(of path: String) -> (folder: Int32, name: String)? {
        guard let slash = path.lastSlashIndex else { return nil }
        let name = path.suffix(afterSlash: slash)
        guard !name.isEmpty, name != ".", name != "..", !name.utf8.contains(0) else { return nil }
        let folder = descriptor(of: path[..<slash])
        return folder >= 0 ? (folder, String(name)) : nil
    }

    /// The descriptor of `folder`, opened (following links) and checked the first time.
    private func descriptor(of folder: Substring) -> Int32 {
        let key = Array(folder.utf8)
        if let known = descriptors.withLock({ $0[key] }) { return known }
        guard !folder.utf8.contains(0), descriptors.withLock({ $0.count }) < Self.capacity else { return -1 }
        var opened = open(folder.isEmpty ? "/" : String(folder), SafePath.openPathOnly | O_DIRECTORY | O_CLOEXEC)
        if opened >= 0, !(DiskFile.openedPath(opened).map { SafePath.isWithin($0, realRoot) } ?? false) {
            close(opened)
            opened = -1
        }
        return descriptors.withLock { table in
            if let first = table[key] {
                // Another core opened it meanwhile.
                if opened >= 0 { close(opened) }
                return first
            }
            table[key] = opened
            return opened
        }
    }
}
