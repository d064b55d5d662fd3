import Foundation
import Mustache
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a new site into the output folder all at once or not at all.
///
/// Pages are handed over as they are rendered (from any thread) and are not kept in
/// memory: a page whose bytes did not change is left alone; a changed one is written to a
/// staging folder inside the output folder. ``commit()`` then moves every staged file
/// into place, removes the files the site no longer has (only files sitegen wrote, as the
/// folder's ``OutputRecord`` says) and writes the new record; if any step fails, every step
/// already taken is undone. A new or empty output folder is built beside it and renamed
/// into place instead. ``discard()`` drops everything staged.
public final class OutputTransaction: Sendable {
    /// The output folder, links resolved.
    let folder: String
    /// Where this transaction writes before committing.
    private let staging: String
    /// The staging folder, open: files and folders are made relative to it, so that the
    /// kernel walks only their path inside it (at 100,000 reviews, walking the full path of
    /// every page's folder and file twice was a tenth of the time spent making them).
    private let stagingFolder: Int32
    /// True when the whole folder is new: files go straight to their place inside `staging`,
    /// which replaces the (missing or empty) output folder on commit.
    private let isFresh: Bool
    /// Files sitegen may replace or remove.
    private let owned: Set<String>
    private let previous: [String: OutputRecord.Entry]
    /// Whether the folder has a record to keep when nothing changed.
    private let hasRecord: Bool
    /// The output folder's access and modification times before the staging folder was made
    /// in it, which ``discard()`` puts back (nil for a fresh build, which stages beside it).
    private let folderTimes: FolderTimes?
    private let state = Mutex(State())

    private struct State {
        /// Changed files: path → the staged file's name (fresh folders: nil, it is in place).
        var staged: [String: String?] = [:]
        /// Every file of the new site with what the record will say of it.
        var entries: [String: OutputRecord.Entry] = [:]
        var unchanged = 0
        var nextNumber = 0
        /// Folders made under `staging` in a fresh build.
        var folders: Set<String> = []
        /// The paths ``expect(_:)`` was given, being sorted.
        var expectedOrder: Background<[String]>?
    }

    /// What a commit did.
    public struct Report: Sendable, Equatable {
        public var written = 0
        public var unchanged = 0
        public var removed = 0
    }

    static let stagingName = ".sitegen-staging"

    /// Opens the output folder `output` for a new site; refuses a non-empty folder that
    /// sitegen did not write unless `force`, and a damaged record.
    init(output: URL, force: Bool) throws(BuildError) {
        let path = OutputFolder.realPath(of: output.standardizedFileURL.path)
        folder = path
        let parent = path.parentPath
        let fail = { (message: String) -> BuildError in
            BuildError(step: "checking the output folder", diagnostics: [Diagnostic(message, file: output.path)])
        }
        switch lstatKind(path) {
        case nil:
            isFresh = true
        case .folder:
            guard let entries = Directory.entries(path) else {
                throw fail("cannot read the output folder: \(String(cString: strerror(errno)))")
            }
            isFresh = entries.isEmpty
        default:
            throw fail("the output folder is a file, not a folder")
        }
        if isFresh {
            staging = parent + "/." + (path as NSString).lastPathComponent + ".sitegen-new"
            owned = []
            previous = [:]
            hasRecord = false
            folderTimes = nil
            stagingFolder = try Self.makeStaging(staging, parent: parent, fail: fail)
            return
        }
        staging = path + "/" + Self.stagingName
        folderTimes = FolderTimes(of: path)
        var undecodable: [String] = []
        let visible = Set(Self.visibleFiles(in: path, undecodable: &undecodable))
        // With --force every visible file is replaced or removed: one no path can name cannot be.
        if force, let name = undecodable.first {
            throw fail(
                "the output folder holds \(name), whose name is not valid UTF-8 (shown with �): sitegen cannot name "
                    + "it to replace or remove it; rename or remove it first")
        }
        switch OutputRecord.read(in: path) {
        case .record(let record):
            previous = record.entries
            hasRecord = true
            owned = force ? visible : visible.intersection(record.entries.keys)
        case .damaged(let reason) where !force:
            throw fail(
                "\(OutputRecord.fileName) in the output folder is damaged (\(reason)), so sitegen cannot tell its "
                    + "own files from others: build into an empty folder, or pass --force to replace and remove "
                    + "every file there")
        case .none where !force && !(visible.isEmpty && undecodable.isEmpty):
            throw fail(
                "refusing to write into a folder that is not empty and that sitegen did not make (it has no "
                    + "\(OutputRecord.fileName) record): choose a new or empty folder, or pass --force to let sitegen "
                    + "replace and remove every file in it")
        default:
            previous = [:]
            hasRecord = false
            owned = visible
        }
        stagingFolder = try Self.makeStaging(staging, parent: path, fail: fail)
    }

    deinit {
        close(stagingFolder)
    }

    /// Says which files will be handed over: the tables get room for all of them at once (at
    /// 100,000 reviews, growing them step by step held their lock for a tenth of a second while
    /// another core waited to hand a page over), and the paths are sorted on another thread for
    /// the record, which the commit would otherwise sort with one core idle. The record is the
    /// same whether or not the files handed over are these.
    func expect(_ paths: [String]) {
        state.withLock {
            $0.entries.reserveCapacity(paths.count)
            $0.staged.reserveCapacity(paths.count)
            $0.expectedOrder = Background { paths.sorted() }
        }
    }

    /// Hands over the bytes of the file at `path` (relative to the output folder).
    func put(_ data: Data, at path: String) throws(BuildError) {
        try data.withUnsafeBytes { bytes in Result { () throws(BuildError) in try put(bytes: bytes, at: path) } }.get()
    }

    /// Hands over the bytes of the file at `path`, lent for the call (they are written or
    /// compared before it returns, never kept).
    func put(bytes: UnsafeRawBufferPointer, at path: String) throws(BuildError) {
        let hash = ContentHash(bytes)
        if !isFresh, let entry = unchangedEntry(path, bytes, hash) {
            keep(path, entry)
            return
        }
        let (target, staged) = try stagingTarget(for: path)
        let stamp: FileStamp
        do {
            stamp = try Self.write(bytes, in: stagingFolder, at: target, shownAs: staging)
        } catch {
            throw writeError(path, error)
        }
        stage(path, as: staged, OutputRecord.Entry(stamp: stamp, hash: hash))
    }

    /// Copies the large file `file` to `path` a chunk at a time, so that it is never held
    /// whole: one unchanged is only read (against the file there when the record cannot say).
    func put(copying file: CopiedFile, at path: String) throws(BuildError) {
        let (source, size) = try file.open()
        defer { close(source) }
        do throws(FileCopy.Failure) {
            if !isFresh, let entry = try unchangedEntry(path, copying: source, size: size) {
                keep(path, entry)
                return
            }
        } catch {
            throw copyError(error, file, path)
        }
        let (target, staged) = try stagingTarget(for: path)
        do throws(FileCopy.Failure) {
            let (stamp, hash) = try FileCopy.copy(source, size: size, to: staging + "/" + target)
            stage(path, as: staged, OutputRecord.Entry(stamp: stamp, hash: hash))
        } catch {
            throw copyError(error, file, path)
        }
    }

    /// Puts every staged file in place and removes stale ones; on failure, undoes it all.
    func commit() throws(BuildError) -> Report {
        let (staged, unchanged, expectedOrder) = state.withLock { ($0.staged, $0.unchanged, $0.expectedOrder) }
        var entries = state.withLock { $0.entries }
        let sortedPaths = expectedOrder?.value
        if isFresh {
            return try commitFresh(entries, sortedPaths: sortedPaths)
        }
        var journal = Journal(staging: staging)
        do throws(OutputFailure) {
            let stale = owned.subtracting(entries.keys).sorted()
            for path in stale {
                try journal.moveAside(folder + "/" + path)
            }
            for (path, name) in staged.sorted(by: { $0.key < $1.key }) {
                guard let name else { continue }
                try place(staging + "/" + name, at: path, journal: &journal)
                // A rename changes the file's status time: the record keeps the stamp it has now.
                if let entry = entries[path], let stamp = FileStamp.of(folder + "/" + path) {
                    entries[path] = OutputRecord.Entry(stamp: stamp, hash: entry.hash)
                }
            }
            let recordChanged = !hasRecord || entries != previous
            if recordChanged {
                try journal.replace(
                    folder + "/" + OutputRecord.fileName,
                    with: OutputRecord(entries: entries).bytes(sortedPaths: sortedPaths))
            }
            journal.finish()
            // The folder's own dates go back only when nothing in it changed: a file written or
            // removed (the record at least) is a real change, and its date should say so.
            if staged.isEmpty && stale.isEmpty && !recordChanged {
                discard()
            } else {
                Self.removeTree(staging)
            }
            removeEmptyFolders(around: stale)
            return Report(written: staged.count, unchanged: unchanged, removed: stale.count)
        } catch {
            journal.undo()
            discard()
            throw BuildError(step: "writing", diagnostics: [error.diagnostic])
        }
    }

    /// Drops everything staged; the output folder stays as it was, its own dates too (making
    /// and removing the staging folder inside it changed them).
    func discard() {
        Self.removeTree(staging)
        folderTimes?.restore(on: folder)
    }
}

/// A folder's access and modification times, to be put back.
private struct FolderTimes: Sendable {
    let accessed: (seconds: Int, nanoseconds: Int)
    let modified: (seconds: Int, nanoseconds: Int)

    init?(of path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        accessed = (info.st_atim.tv_sec, info.st_atim.tv_nsec)
        modified = (info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
    }

    /// Sets them on `path` again; a folder that cannot take them keeps the new ones.
    func restore(on path: String) {
        let times = [
            timespec(tv_sec: accessed.seconds, tv_nsec: accessed.nanoseconds),
            timespec(tv_sec: modified.seconds, tv_nsec: modified.nanoseconds),
        ]
        _ = utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW)
    }
}

private extension OutputTransaction {
    /// The record entry of `path` when the file there already holds exactly `bytes`.
    func unchangedEntry(_ path: String, _ bytes: UnsafeRawBufferPointer, _ hash: ContentHash) -> OutputRecord.Entry? {
        let full = folder + "/" + path
        guard let stamp = FileStamp.of(full), stamp.size == bytes.count else { return nil }
        if let entry = previous[path], entry.stamp == stamp {
            return entry.hash == hash ? entry : nil
        }
        guard let existing = try? DiskFile.read(full, limit: Int.max),
            existing.withUnsafeBytes({ $0.elementsEqual(bytes) })
        else { return nil }
        return OutputRecord.Entry(stamp: stamp, hash: hash)
    }

    /// The record entry of `path` when the file there already holds exactly the `size` bytes of `source`.
    func unchangedEntry(_ path: String, copying source: Int32, size: Int) throws(FileCopy.Failure)
        -> OutputRecord.Entry?
    {
        let full = folder + "/" + path
        guard let stamp = FileStamp.of(full), stamp.size == size else { return nil }
        if let entry = previous[path], entry.stamp == stamp {
            return try FileCopy.hash(source, size: size) == entry.hash ? entry : nil
        }
        return try FileCopy.hash(source, size: size, ifSameAs: full).map { OutputRecord.Entry(stamp: stamp, hash: $0) }
    }

    /// Records that the file at `path` stays as it is.
    func keep(_ path: String, _ entry: OutputRecord.Entry) {
        state.withLock {
            $0.entries[path] = entry
            $0.unchanged += 1
        }
    }

    /// Where the new bytes of `path` go, relative to the staging folder: its place in a fresh
    /// build's staging folder (its folders made), else a numbered file there, with that number.
    func stagingTarget(for path: String) throws(BuildError) -> (target: String, staged: String?) {
        if isFresh {
            try makeParents(of: path)
            return (path, nil)
        }
        let number = state.withLock { state in
            defer { state.nextNumber += 1 }
            return state.nextNumber
        }
        return (String(number), String(number))
    }

    /// Records the new file of `path`, written at its staged name.
    func stage(_ path: String, as staged: String?, _ entry: OutputRecord.Entry) {
        state.withLock {
            $0.staged[path] = staged
            $0.entries[path] = entry
        }
    }

    /// The error of a copy of `file` to `path` that failed.
    func copyError(_ failure: FileCopy.Failure, _ file: CopiedFile, _ path: String) -> BuildError {
        switch failure {
        case .reading(let reason): file.problem(reason)
        case .changed: file.problem("it changed while it was copied: build again")
        case .writing(let error): writeError(path, error)
        }
    }

    /// Makes the folders `path` sits in, inside a fresh build's staging folder.
    func makeParents(of path: String) throws(BuildError) {
        guard let slash = path.lastSlashIndex else { return }
        try makeFolder(String(path[..<slash]))
    }

    /// Makes `folder` (relative) inside the staging folder, and the folders it sits in when
    /// they are missing: most pages sit in a folder of their own whose parent is there, so a
    /// page usually costs one `mkdir` and no walk of its path. When it fails, the folders it
    /// sits in are made first, so an error names the outermost folder that cannot be made.
    func makeFolder(_ folder: String) throws(BuildError) {
        if state.withLock({ $0.folders.contains(folder) }) { return }
        if mkdirat(stagingFolder, folder, 0o755) != 0 {
            var code = errno
            if code != EEXIST, let slash = folder.lastSlashIndex {
                try makeFolder(String(folder[..<slash]))
                code = mkdirat(stagingFolder, folder, 0o755) == 0 ? 0 : errno
            }
            if code != 0 && code != EEXIST {
                throw writeError(folder, OutputFailure(path: staging + "/" + folder, code: code))
            }
        }
        state.withLock { _ = $0.folders.insert(folder) }
    }

    /// A fresh build: the staging folder becomes the output folder.
    func commitFresh(_ entries: [String: OutputRecord.Entry], sortedPaths: [String]?) throws(BuildError) -> Report {
        do throws(OutputFailure) {
            let record = OutputRecord(entries: entries).bytes(sortedPaths: sortedPaths)
            try Self.write(record, to: staging + "/" + OutputRecord.fileName)
            if lstatKind(folder) == .folder, rmdir(folder) != 0 {
                throw OutputFailure(path: folder, code: errno)
            }
            guard rename(staging, folder) == 0 else { throw OutputFailure(path: folder, code: errno) }
        } catch {
            discard()
            throw BuildError(step: "writing", diagnostics: [error.diagnostic])
        }
        return Report(written: entries.count, unchanged: 0, removed: 0)
    }

    /// Moves the staged file `source` to `path`, making folders and moving aside what is in the way.
    func place(_ source: String, at path: String, journal: inout Journal) throws(OutputFailure) {
        let parts = path.pathSegments()
        var current = folder
        for part in parts.dropLast() {
            current += "/" + part
            switch lstatKind(current) {
            case .folder?:
                continue
            case nil:
                try journal.makeFolder(current)
            default:
                throw OutputFailure(
                    path: current,
                    reason: "a file sitegen did not write is where a folder is needed: move it away, or pass --force")
            }
        }
        let target = folder + "/" + path
        switch lstatKind(target) {
        case nil:
            break
        case .folder?:
            guard Directory.entries(target)?.isEmpty == true else {
                throw OutputFailure(
                    path: target, reason: "a folder with files sitegen did not write is where a page goes")
            }
            try journal.removeFolder(target)
        default:
            guard owned.contains(path) else {
                throw OutputFailure(
                    path: target,
                    reason: "a file sitegen did not write is in the way: move it away, or pass --force to replace it")
            }
            try journal.moveAside(target)
        }
        try journal.move(source, to: target)
    }

    /// Removes folders that removing `stale` files left empty, deepest first.
    func removeEmptyFolders(around stale: [String]) {
        var candidates: Set<String> = []
        for path in stale {
            var parent = path.parentPath
            while !parent.isEmpty, parent != "/" {
                candidates.insert(parent)
                parent = parent.parentPath
            }
        }
        for path in candidates.sorted(by: { $0.count > $1.count }) {
            rmdir(folder + "/" + path)
        }
    }

    func writeError(_ path: String, _ error: OutputFailure) -> BuildError {
        BuildError(
            step: "writing",
            diagnostics: [
                Diagnostic("cannot write: \(error.reason)", file: (folder as NSString).appendingPathComponent(path))
            ])
    }

    /// Writes `data` to a new file at `path`; returns its stamp.
    @discardableResult
    static func write(_ data: Data, to path: String) throws(OutputFailure) -> FileStamp {
        try data.withUnsafeBytes { bytes in Result { () throws(OutputFailure) in try write(bytes, to: path) } }.get()
    }

    /// Writes `bytes` to a new file at `path`; returns its stamp.
    @discardableResult
    static func write(_ bytes: UnsafeRawBufferPointer, to path: String) throws(OutputFailure) -> FileStamp {
        try write(bytes, in: AT_FDCWD, at: path, shownAs: nil)
    }

    /// Writes `bytes` to a new file at `path` relative to the open folder `folder`, which
    /// errors name as `shownAs` (nil: `path` is the full path); returns its stamp.
    static func write(
        _ bytes: UnsafeRawBufferPointer, in folder: Int32, at path: String, shownAs folderPath: String?
    ) throws(OutputFailure) -> FileStamp {
        let shown = { folderPath.map { $0 + "/" + path } ?? path }
        let descriptor = openat(folder, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputFailure(path: shown(), code: errno) }
        defer { close(descriptor) }
        let failure = DiskFile.writeAll(descriptor, bytes)
        if let failure {
            unlinkat(folder, path, 0)
            throw OutputFailure(path: shown(), code: failure)
        }
        guard let stamp = FileStamp.of(descriptor: descriptor) else { throw OutputFailure(path: shown(), code: errno) }
        return stamp
    }

    /// Makes the staging folder `path` (and `parent` when missing) and returns it open, locked
    /// for this build: another build's staging folder there is never taken over (two sites built
    /// into one output folder at once, which the lock beside each site's manifest cannot tell
    /// apart), and one that an interrupted build left, unlocked, is removed first.
    static func makeStaging(_ path: String, parent: String, fail: (String) -> BuildError) throws(BuildError) -> Int32 {
        let busy =
            "another sitegen build is writing this output folder now (its files are being staged in \(path)): "
            + "wait for it to finish, then build again"
        if lstatKind(path) != nil {
            let left = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if left >= 0 {
                defer { close(left) }
                if flock(left, LOCK_EX | LOCK_NB) != 0, errno == EWOULDBLOCK { throw fail(busy) }
            }
            removeTree(path)
        }
        if lstatKind(parent) == nil {
            do {
                try Directory.make(parent)
            } catch {
                throw fail("cannot make the folder \(error.path): \(error.reason)")
            }
        }
        guard mkdir(path, 0o755) == 0 else {
            if errno == EEXIST { throw fail(busy) }
            throw fail("cannot write in \(parent): \(String(cString: strerror(errno)))")
        }
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw fail("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        // Another build that found the folder between the two calls above, and took it for one
        // left behind, holds it now (or has removed it, and this build's writes fail).
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0, errno == EWOULDBLOCK {
            close(descriptor)
            throw fail(busy)
        }
        return descriptor
    }

    static func removeTree(_ path: String) {
        if lstatKind(path) != nil { try? FileManager.default.removeItem(atPath: path) }
    }
}

extension OutputTransaction {
    /// Whether the output folder at `path` holds a staging folder: a build was killed before it
    /// could clear it (the next build that writes clears it).
    static func hasStaging(in path: String) -> Bool {
        lstatKind(path + "/" + stagingName) != nil
    }

    /// The visible files and links below `path` (no name on the way starts with a dot: those
    /// are never touched); visible entries whose names are not valid UTF-8 go to `undecodable`.
    static func visibleFiles(in path: String, undecodable: inout [String]) -> [String] {
        let visible = { (relative: String) in !relative.pathSegments().contains(where: \.isHiddenName) }
        var found: [String] = []
        let files = Directory.files(under: path, undecodable: &found)
        undecodable = found.filter(visible)
        return files.filter(visible)
    }
}

/// A file operation that failed, with the real path and the system's reason.
struct OutputFailure: Error, Sendable {
    let path: String
    let reason: String

    init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    init(path: String, code: Int32) {
        self.init(path: path, reason: String(cString: strerror(code)))
    }

    /// A diagnostic naming the file.
    var diagnostic: Diagnostic {
        Diagnostic(reason, file: path)
    }
}

/// The steps of a commit, so that a failure can undo them in reverse.
private struct Journal {
    let staging: String
    private var steps: [Step] = []
    private var asideCount = 0

    enum Step {
        case moved(from: String, to: String)
        case madeFolder(String)
        case removedFolder(String)
    }

    init(staging: String) {
        self.staging = staging
    }

    mutating func move(_ source: String, to target: String) throws(OutputFailure) {
        guard rename(source, target) == 0 else { throw OutputFailure(path: target, code: errno) }
        steps.append(.moved(from: source, to: target))
    }

    /// Moves the file at `path` into the staging folder, where undo can find it.
    mutating func moveAside(_ path: String) throws(OutputFailure) {
        asideCount += 1
        let aside = staging + "/aside-\(asideCount)"
        guard rename(path, aside) == 0 else { throw OutputFailure(path: path, code: errno) }
        steps.append(.moved(from: path, to: aside))
    }

    mutating func makeFolder(_ path: String) throws(OutputFailure) {
        guard mkdir(path, 0o755) == 0 else { throw OutputFailure(path: path, code: errno) }
        steps.append(.madeFolder(path))
    }

    mutating func removeFolder(_ path: String) throws(OutputFailure) {
        guard rmdir(path) == 0 else { throw OutputFailure(path: path, code: errno) }
        steps.append(.removedFolder(path))
    }

    /// Writes `data` as the file at `path` (a temporary file, then a rename), keeping the old one aside.
    mutating func replace(_ path: String, with data: Data) throws(OutputFailure) {
        let temporary = staging + "/replacement-\(steps.count)"
        _ = try OutputTransaction.write(data, to: temporary)
        if lstatKind(path) != nil { try moveAside(path) }
        try move(temporary, to: path)
    }

    /// Forgets the steps: they stand.
    mutating func finish() {
        steps = []
    }

    /// Undoes every step, newest first, as far as the system lets it.
    mutating func undo() {
        for step in steps.reversed() {
            switch step {
            case .moved(let from, let to): rename(to, from)
            case .madeFolder(let path): rmdir(path)
            case .removedFolder(let path): mkdir(path, 0o755)
            }
        }
        steps = []
    }
}
