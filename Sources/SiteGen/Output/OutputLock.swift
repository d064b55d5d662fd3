import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps two builds from writing one output folder at once (a build on save in an editor
/// and one typed in a terminal): their staged files and moves would mix, and both could fail
/// with the folder left neither old nor new. A build holds an exclusive `flock` on a lock file
/// beside its build manifest (`.sitegen/build-<output>.lock`, which only its owner may open,
/// so no other user can hold it) from before it reads the manifest until its last file is in
/// place; a second build waits, then finds the first one's manifest. Where the lock cannot be
/// had (`.sitegen` cannot be written, a file system without `flock`), a build goes on
/// unlocked, as it did before. `sitegen check` reads the folder holding the lock shared, so it
/// never reads a folder a build is halfway through changing.
enum OutputLock {
    /// The lock file of builds of `source` into `output`.
    static func path(source: URL, output: URL) -> String {
        let manifest = BuildManifest.location(source: source, output: output)
        return manifest.deletingPathExtension().appendingPathExtension("lock").path
    }

    /// Runs `body` holding the lock for builds of `source` into `output` (`shared`: alongside
    /// other readers, never alongside a build), calling `waiting` first when it is held.
    static func holding<T>(
        source: URL, output: URL, shared: Bool = false, waiting: () -> Void, _ body: () throws -> T
    ) throws -> T {
        try holding(path(source: source, output: output), shared: shared, waiting: waiting, body)
    }

    /// Runs `body` holding an `flock` on the file at `path` (in a site's `.sitegen/`, made if
    /// missing, mode 600, never through a link), shared or not, calling `waiting` first when
    /// it is held; unlocked where the file cannot be had.
    static func holding<T>(_ path: String, shared: Bool, waiting: () -> Void, _ body: () throws -> T) throws -> T {
        try? Directory.make(path.parentPath)
        // Never through a link: the file is sitegen's own, made here if missing.
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
