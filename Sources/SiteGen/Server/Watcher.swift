import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Watches folders (recursively) and files of the site with inotify, and reports the
/// changed paths once a burst of saves has settled.
public final class Watcher: @unchecked Sendable {
    /// Paths relative to the root that changed since the last report.
    public typealias Handler = @Sendable (Set<String>) -> Void

    private let root: String
    private let watched: [String]
    private let settle: Double
    private let handler: Handler
    private let descriptor: Int32
    private var folders: [Int32: String] = [:]
    private let running = Mutex(true)
    private var thread: pthread_t?

    /// Watches `watched` (folders or files, relative to `root`); reports after `settle` seconds without events.
    public init(root: String, watched: [String], settle: Double = 0.05, handler: @escaping Handler) throws {
        self.root = root
        self.watched = watched
        self.settle = settle
        self.handler = handler
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw WatcherError(reason: String(cString: strerror(errno))) }
        addWatch("")
        for path in watched { addTree(path) }
    }

    deinit {
        close(descriptor)
    }

    public func start() {
        thread = startThread { [self] in loop() }
    }

    public func stop() {
        running.withLock { $0 = false }
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private static let mask = UInt32(
        IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO
            | IN_ATTRIB | IN_DELETE_SELF)

    private func addWatch(_ relative: String) {
        let path = relative.isEmpty ? root : root + "/" + relative
        let watch = inotify_add_watch(descriptor, path, Self.mask)
        if watch >= 0 { folders[watch] = relative }
    }

    /// Watches a folder and every folder below it.
    private func addTree(_ relative: String) {
        var info = stat()
        guard stat(root + "/" + relative, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return }
        addWatch(relative)
        for entry in Directory.entries(root + "/" + relative) ?? [] where entry.kind == .folder {
            addTree(relative + "/" + entry.name)
        }
    }

    /// Whether a changed path matters: inside a watched folder or a watched file, not an editor's temporary file.
    private func relevant(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".tmp")
            || name == "4913"
        {
            return false
        }
        return watched.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    private func loop() {
        var pending = Set<String>()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while running.withLock({ $0 }) {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, pending.isEmpty ? 100 : Int32(settle * 1000))
            if ready > 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 { pending.formUnion(parse(buffer, count: count)) }
                continue
            }
            if !pending.isEmpty {
                let batch = pending
                pending.removeAll()
                handler(batch)
            }
        }
    }

    /// The relevant paths in a buffer of inotify events; new folders get watched (and their files count).
    private func parse(_ buffer: [UInt8], count: Int) -> Set<String> {
        var changed = Set<String>()
        var offset = 0
        while offset + MemoryLayout<inotify_event>.size <= count {
            let (watch, mask, length) = buffer.withUnsafeBytes { raw in
                let event = raw.load(fromByteOffset: offset, as: inotify_event.self)
                return (event.wd, event.mask, Int(event.len))
            }
            let nameStart = offset + MemoryLayout<inotify_event>.size
            let nameBytes = buffer[nameStart..<min(count, nameStart + length)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            offset = nameStart + length
            guard let folder = folders[watch] else { continue }
            let path = name.isEmpty ? folder : folder.isEmpty ? name : folder + "/" + name
            if mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 && relevant(path) {
                addTree(path)
                for file in Directory.files(under: root + "/" + path) { changed.insert(path + "/" + file) }
                continue
            }
            // A folder deleted or moved away (a page bundle): the folder itself, as its files send nothing.
            if mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 && relevant(path) {
                changed.insert(path)
                continue
            }
            if mask & UInt32(IN_ISDIR) == 0, relevant(path) { changed.insert(path) }
        }
        return changed
    }
}

/// inotify could not be started.
public struct WatcherError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "cannot watch the site folder: \(reason)" }
}
