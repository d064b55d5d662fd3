import Foundation

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
        try FileLock.holding(path(source: source, output: output), shared: shared, waiting: waiting, body)
    }
}
