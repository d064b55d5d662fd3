import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps two builds from writing one output folder at once (a build on save in an editor
/// and one typed in a terminal): their staged files and moves would mix, and both could fail
/// with the folder left neither old nor new. A build holds an exclusive `flock` on the folder
/// that holds the output folder (the output folder itself may not exist yet: a fresh build
/// renames it into place) from before it reads the build manifest until its last file is in
/// place; a second build waits, then finds the first one's manifest. Builds into two folders
/// side by side wait for each other too. Where the file system has no `flock`, a build goes
/// on unlocked, as it did before.
enum OutputLock {
    /// Runs `body` holding the lock for builds into `output`, calling `waiting` first when
    /// another build holds it.
    static func holding<T>(_ output: URL, waiting: () -> Void, _ body: () throws -> T) throws -> T {
        // The nearest folder that exists: `--output new/deeper` makes its folders as it builds.
        var folder = OutputFolder.realPath(of: output.standardizedFileURL.path).parentPath
        var descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        while descriptor < 0 && errno == ENOENT && folder != "/" {
            folder = folder.parentPath
            descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        // Closing the folder lets the lock go.
        defer { if descriptor >= 0 { close(descriptor) } }
        if descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) != 0, errno == EWOULDBLOCK {
            waiting()
            while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        }
        return try body()
    }
}
