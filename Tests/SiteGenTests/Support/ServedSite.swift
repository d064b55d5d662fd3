import EventHTTP
import Foundation
import Synchronization

@testable import SiteGen

/// A site folder on disk served by a ``PreviewServer`` on a free loopback port, recording
/// what the server logs and each rebuild; stops the server and removes the folder at the end.
final class ServedSite: Sendable {
    /// One finished rebuild: the update, or the errors that stopped it.
    struct Rebuild: Sendable {
        let update: LiveSite.Update?
        let errors: String?
    }

    let folder: URL
    let server: PreviewServer
    private let record = Record()

    /// What the server's callbacks write to, behind a lock.
    private final class Record: Sendable {
        let state = Mutex<(log: [String], rebuilds: [Rebuild])>(([], []))
    }

    /// Writes `files` into a new folder and starts serving it on `host`, port 0.
    init(
        _ files: [String: String], host: String = "127.0.0.1", drafts: Bool = false,
        limits: HTTPLimits = HTTPLimits(), heartbeatSeconds: Double = 25
    ) throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("sitegen-serve-test-\(UUID().uuidString)", isDirectory: true)
        for (path, text) in files { try Self.write(text, to: folder.appendingPathComponent(path)) }
        let record = self.record
        do {
            server = try PreviewServer(
                options: .init(
                    source: folder, output: folder.appendingPathComponent("public"), includeDrafts: drafts),
                host: host, port: 0, limits: limits, heartbeatSeconds: heartbeatSeconds,
                log: { line in record.state.withLock { $0.log.append(line) } })
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        server.onRebuild = { update, errors in
            record.state.withLock { $0.rebuilds.append(Rebuild(update: update, errors: errors)) }
        }
        try server.start()
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var port: Int { server.port }

    /// What the server logged so far.
    var log: [String] { record.state.withLock { $0.log } }

    /// The rebuilds so far, oldest first.
    var rebuilds: [Rebuild] { record.state.withLock { $0.rebuilds } }

    /// Replaces a file the way an editor saves (write aside, then rename over it).
    func write(_ path: String, _ text: String) throws {
        try Self.write(text, to: folder.appendingPathComponent(path))
    }

    func remove(_ path: String) throws {
        try FileManager.default.removeItem(at: folder.appendingPathComponent(path))
    }

    /// One request over a new connection.
    func request(_ method: String = "GET", _ target: String, headers: [(String, String)] = []) throws -> RawResponse {
        try RawConnection.request(port: port, method, target, headers: headers)
    }

    /// Waits up to `timeout` seconds for a rebuild after the first `after` that satisfies `condition`.
    func waitForRebuild(after: Int = 0, timeout: Double = 5, where condition: (Rebuild) -> Bool = { _ in true })
        async throws -> Rebuild?
    {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let found = rebuilds.dropFirst(after).first(where: condition) { return found }
            try await Task.sleep(for: .milliseconds(10))
        }
        // A sleep can outlast the deadline when other tests keep every thread busy: look once more.
        return rebuilds.dropFirst(after).first(where: condition)
    }

    /// ``waitForRebuild(after:timeout:where:)`` for the first rebuild that changed files or
    /// failed: a save can reach the watcher in two parts (a new folder, then the file renamed
    /// into it, later than the quiet wait on a busy machine), and the part before the file
    /// changes nothing.
    func waitForChange(after: Int = 0, timeout: Double = 5) async throws -> Rebuild? {
        try await waitForRebuild(after: after, timeout: timeout) { $0.update?.changedFiles.isEmpty != true }
    }

    private static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
