import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Watches folders (recursively) and files of the site with inotify, and reports the
/// changed paths once a burst of saves has settled: `quiet` seconds after the last event when
/// every changed file was closed, moved into place or deleted (a save is complete), `settle`
/// seconds when a file is still open for writing (another write may follow).
///
/// A folder that leaves a watched tree (moved out, deleted, renamed) is reported by its path
/// and its watches are removed, so that later changes at its new place are not taken for
/// changes to the site; a folder that arrives is watched and its files are reported.
public final class Watcher: Sendable {
    /// Paths relative to the root that changed since the last report.
    public typealias Handler = @Sendable (Set<String>) -> Void

    private let settle: Double
    private let quiet: Double
    private let handler: Handler
    private let descriptor: Int32
    private let table: Mutex<WatchTable>
    private let phase = Mutex(Phase.ready)
    private let loopEnded = DispatchSemaphore(value: 0)

    private enum Phase {
        case ready, running, stopped
    }

    /// Watches `watched` (folders or files, relative to `root`); reports after `quiet` seconds
    /// without events once every save is complete, after `settle` seconds while a file is being written.
    public init(
        root: String, watched: [String], settle: Double = 0.05, quiet: Double = 0.01,
        handler: @escaping Handler
    ) throws {
        self.settle = settle
        self.quiet = quiet
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
        // Files written to and not yet closed: their save may not be complete.
        var writing = Set<String>()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while phase.withLock({ $0 == .running }) {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let wait = pending.isEmpty ? 0.1 : writing.isEmpty ? quiet : settle
            let ready = poll(&poller, 1, Int32(wait * 1000))
            if ready > 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    table.withLock { table in
                        for event in WatchEvent.parse(buffer, count: count) {
                            let paths = table.apply(event)
                            pending.formUnion(paths)
                            if event.isComplete {
                                writing.subtract(paths)
                            } else if event.isWriting {
                                writing.formUnion(paths)
                            }
                        }
                    }
                }
                continue
            }
            // The site folder was deleted or moved away: watched again once it is back.
            if table.withLock({ $0.lostRoot }) { pending.formUnion(table.withLock { $0.rewatchIfBack() }) }
            if !pending.isEmpty {
                let batch = pending
                pending.removeAll()
                writing.removeAll()
                handler(batch)
            }
        }
    }
}

/// inotify could not be started.
public struct WatcherError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "cannot watch the site folder: \(reason)" }
}
