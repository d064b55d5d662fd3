import Synchronization

/// Records the names a loader was asked for, from any thread.
final class AskedNames: Sendable {
    private let storage = Mutex<[String]>([])

    var names: [String] { storage.withLock { $0 } }

    func add(_ name: String) {
        storage.withLock { $0.append(name) }
    }
}
