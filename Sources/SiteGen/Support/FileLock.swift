import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An `flock` on a file of sitegen's own in a site's `.sitegen/` (made if missing, mode 600,
/// so no other user can hold it, and never opened through a link), held while a piece of work
/// runs. Where the file cannot be had (`.sitegen` cannot be written, a file system without
/// `flock`), the work runs unlocked.
enum FileLock {
    /// Runs `body` holding the lock on the file at `path`, alongside other shared holders when
    /// `shared`, else alone; calls `waiting` first when it must wait.
    static func holding<T>(_ path: String, shared: Bool, waiting: () -> Void, _ body: () throws -> T) throws -> T {
        try? Directory.make(path.parentPath)
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        // Closing the file lets the lock go.
        defer { if descriptor >= 0 { close(descriptor) } }
        let mode = shared ? LOCK_SH : LOCK_EX
        if descriptor >= 0, flock(descriptor, mode | LOCK_NB) != 0, errno == EWOULDBLOCK {
            waiting()
            while flock(descriptor, mode) != 0 && errno == EINTR {}
        }
        return try body()
    }
}
