import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Files that `sitegen init`, `new` and `theme eject` create: made only where nothing is yet
/// (no file, folder or link), so that nothing of the user's is ever replaced.
enum NewFile {
    /// Creates the folders leading to `url`, then the file holding `data`, unless something is
    /// already at `url` (then returns false, and nothing changed). With `replacing`, an existing
    /// file is replaced atomically instead.
    static func create(_ data: Data, at url: URL, replacing: Bool = false) throws(AuthoringError) -> Bool {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw AuthoringError("\(folder.path): cannot create the folder: \(ErrorText.reason(error))")
        }
        if replacing {
            do {
                try AtomicFile.write(data, to: url)
                return true
            } catch {
                throw AuthoringError("\(url.path): cannot write: \(ErrorText.reason(error))")
            }
        }
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw AuthoringError("\(url.path): cannot create: \(String(cString: strerror(errno)))")
        }
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    failure = count < 0 ? errno : EIO
                    return
                }
                offset += count
            }
        }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        guard failure == 0 else {
            // Only a file this call made is removed.
            unlink(url.path)
            throw AuthoringError("\(url.path): cannot write: \(String(cString: strerror(failure)))")
        }
        return true
    }
}
