import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Watches folders (recursively) and files of the site with inotify, and reports the
/// changed paths once a burst of saves has settled.
///
/// A folder that leaves a watched tree (moved out, deleted, renamed) is reported by its path
/// and its watches are removed, so that later changes at its new place are not taken for
/// changes to the site; a folder that arrives is watched and its files are reported.
public final class Watcher: Sendable {
    /// Paths relative to the root that changed since the last report.
    public typealias Handler = @Sendable (Set<String>) -> Void

    private let settle: Double
    private let handler: Handler
    private let descriptor: Int32
    private let table: Mutex<WatchTable>
    private let phase = Mutex(Phase.ready)
    private let loopEnded = DispatchSemaphore(value: 0)

    private enum Phase {
        case ready, running, stopped
    }

    /// Watches `watched` (folders or files, relative to `root`); reports after `settle` seconds without events.
    public init(root: String, watched: [String], settle: Double = 0.05, handler: @escaping Handler) throws {
        self.settle = settle
        self.handler = handler
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw WatcherError(reason: String(cString: strerror(errno))) }
        var table = WatchTable(descriptor: descriptor, root: root, watched: watched)
        table.watchEverything()
        self.table = Mutex(table)
    }

    deinit {
        close(descriptor)
    }

    /// The folders being watched, relative to the root (`""` is the root), sorted.
    var watchedFolders: [String] { table.withLock { $0.folders.values.sorted() } }

    /// Starts watching on a new thread.
    public func start() {
        let first = phase.withLock { phase -> Bool in
            defer { if phase == .ready { phase = .running } }
            return phase == .ready
        }
        guard first else { return }
        Thread.detachNewThread { [self] in
            loop()
            loopEnded.signal()
        }
    }

    /// Stops watching; returns once the watching thread has ended.
    public func stop() {
        let previous = phase.withLock { phase -> Phase in
            defer { phase = .stopped }
            return phase
        }
        if previous == .running { loopEnded.wait() }
    }
}

private extension Watcher {
    func loop() {
        var pending = Set<String>()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while phase.withLock({ $0 == .running }) {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, pending.isEmpty ? 100 : Int32(settle * 1000))
            if ready > 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    let events = WatchEvent.parse(buffer, count: count)
                    pending.formUnion(table.withLock { table in events.flatMap { table.apply($0) } })
                }
                continue
            }
            if !pending.isEmpty {
                let batch = pending
                pending.removeAll()
                handler(batch)
            }
        }
    }
}

/// One inotify event.
struct WatchEvent {
    let watch: Int32
    let mask: UInt32
    let name: String

    func has(_ flags: Int32) -> Bool { mask & UInt32(flags) != 0 }

    /// The events in the first `count` bytes of `buffer`, as `read` returned them.
    static func parse(_ buffer: [UInt8], count: Int) -> [WatchEvent] {
        var events: [WatchEvent] = []
        var offset = 0
        while offset + MemoryLayout<inotify_event>.size <= count {
            let (watch, mask, length) = buffer.withUnsafeBytes { raw in
                let event = raw.load(fromByteOffset: offset, as: inotify_event.self)
                return (event.wd, event.mask, Int(event.len))
            }
            let nameStart = offset + MemoryLayout<inotify_event>.size
            let nameBytes = buffer[nameStart..<min(count, nameStart + length)].prefix { $0 != 0 }
            events.append(WatchEvent(watch: watch, mask: mask, name: String(decoding: nameBytes, as: UTF8.self)))
            offset = nameStart + length
        }
        return events
    }
}

/// The watched folders by watch descriptor, and what an event means for them.
struct WatchTable {
    let descriptor: Int32
    let root: String
    let watched: [String]
    /// Watched folders by watch descriptor, relative to the root (`""` is the root itself).
    private(set) var folders: [Int32: String] = [:]

    init(descriptor: Int32, root: String, watched: [String]) {
        self.descriptor = descriptor
        self.root = root
        self.watched = watched
    }

    static let mask = UInt32(
        IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
            | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// Watches the root (for `site.yml` and folders that appear) and every watched tree.
    mutating func watchEverything() {
        addWatch("")
        for path in watched { addTree(path) }
    }

    /// Updates the watches for `event` and returns the paths it changed that matter to the site.
    mutating func apply(_ event: WatchEvent) -> Set<String> {
        if event.has(IN_Q_OVERFLOW) {
            // Events were lost: watch everything afresh and have everything rebuilt.
            for watch in folders.keys { inotify_rm_watch(descriptor, watch) }
            folders.removeAll()
            watchEverything()
            return Set(watched)
        }
        if event.has(IN_IGNORED) {
            folders[event.watch] = nil
            return []
        }
        guard let folder = folders[event.watch] else { return [] }
        if event.name.isEmpty {
            // The watched folder itself moved away (its old parent usually said so first).
            guard event.has(IN_MOVE_SELF), !folder.isEmpty else { return [] }
            removeTree(folder)
            return relevant(folder) ? [folder] : []
        }
        let path = folder.isEmpty ? event.name : folder + "/" + event.name
        guard event.has(IN_ISDIR) else { return relevant(path) ? [path] : [] }
        if event.has(IN_DELETE | IN_MOVED_FROM) {
            removeTree(path)
            return relevant(path) ? [path] : []
        }
        guard event.has(IN_CREATE | IN_MOVED_TO), relevant(path) else { return [] }
        addTree(path)
        return Set(Directory.files(under: root + "/" + path).map { path + "/" + $0 })
    }
}

private extension WatchTable {
    mutating func addWatch(_ relative: String) {
        let path = relative.isEmpty ? root : root + "/" + relative
        let watch = inotify_add_watch(descriptor, path, Self.mask)
        if watch >= 0 { folders[watch] = relative }
    }

    /// Watches a folder and every folder below it (not following links below it).
    mutating func addTree(_ relative: String) {
        var info = stat()
        guard stat(root + "/" + relative, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return }
        addWatch(relative)
        for entry in Directory.entries(root + "/" + relative) ?? [] where entry.kind == .folder {
            addTree(relative + "/" + entry.name)
        }
    }

    /// Stops watching a folder that left the site, and every folder below it.
    mutating func removeTree(_ relative: String) {
        for (watch, folder) in folders where folder == relative || folder.hasPrefix(relative + "/") {
            inotify_rm_watch(descriptor, watch)
            folders[watch] = nil
        }
    }

    /// Whether a changed path matters: inside a watched folder or a watched file, not an editor's temporary file.
    func relevant(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".tmp")
            || name == "4913"
        {
            return false
        }
        return watched.contains { path == $0 || path.hasPrefix($0 + "/") }
    }
}

/// inotify could not be started.
public struct WatcherError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "cannot watch the site folder: \(reason)" }
}
