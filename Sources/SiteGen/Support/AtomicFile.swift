import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writing a file so that readers see the old bytes or the new ones, never half of either.
enum AtomicFile {
    /// Writes `data` to a temporary file beside `url`, then renames it over `url`.
    /// (No fsync: a crash may lose the newest write, never leave a torn file.)
    static func write(_ data: Data, to url: URL) throws {
        try Staged(data, for: url).commit()
    }

    /// The name a temporary file of ``Staged`` (`.name.sitegen-tmp-<random>`) holds new bytes
    /// for (`name`); nil for any other name.
    static func temporaryTarget(of name: String) -> Substring? {
        guard name.hasPrefix("."), let range = name.range(of: ".sitegen-tmp-", options: .backwards) else {
            return nil
        }
        let suffix = name[range.upperBound...]
        guard range.lowerBound > name.index(after: name.startIndex), !suffix.isEmpty,
            suffix.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) })
        else { return nil }
        return name[name.index(after: name.startIndex)..<range.lowerBound]
    }

    /// Whether `name` is the temporary name ``Staged`` gives new bytes.
    static func isTemporary(_ name: String) -> Bool { temporaryTarget(of: name) != nil }

    /// Removes what a writer killed before it could clean up left in `folder`: the plain files
    /// that `isLeftover` names (by default ``isTemporary(_:)``), only those over a minute old
    /// (never one being written now).
    static func removeLeftovers(
        in folder: String, now: Date = Date(), isLeftover: (String) -> Bool = AtomicFile.isTemporary
    ) {
        guard let entries = Directory.entries(folder) else { return }
        let cutoff = Int(now.timeIntervalSince1970) - 60
        for entry in entries where entry.kind == .file && isLeftover(entry.name) {
            let path = folder + "/" + entry.name
            guard let stamp = FileStamp.of(path), stamp.seconds < cutoff else { continue }
            unlink(path)
        }
    }

    /// New bytes for `url` in a temporary file beside it, of a name no other writer uses
    /// (`.name.sitegen-tmp-<random>`), created afresh: never a file or a link that was already
    /// there, so nothing is written through a link planted at the temporary name. Several
    /// files are staged first and committed together when all were written.
    final class Staged {
        let url: URL
        let temporary: URL
        private var done = false

        init(_ data: Data, for url: URL) throws {
            self.url = url
            let folder = url.deletingLastPathComponent()
            var descriptor: Int32 = -1
            var temporary = url
            for _ in 0..<8 {
                let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
                temporary = folder.appendingPathComponent(".\(url.lastPathComponent).sitegen-tmp-\(suffix)")
                descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
                if descriptor >= 0 || errno != EEXIST { break }
            }
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            self.temporary = temporary
            let failure = data.withUnsafeBytes { DiskFile.writeAll(descriptor, $0) }
            close(descriptor)
            if let code = failure {
                unlink(temporary.path)
                done = true
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
        }

        /// Renames the bytes over `url`.
        func commit() throws {
            guard !done else { return }
            done = true
            guard rename(temporary.path, url.path) == 0 else {
                let code = errno
                unlink(temporary.path)
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
        }

        /// Removes the temporary file unless it was committed.
        deinit {
            if !done { unlink(temporary.path) }
        }
    }
}
