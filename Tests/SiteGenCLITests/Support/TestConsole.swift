import Foundation
import SiteGenCLI
import Synchronization

/// A console that keeps what commands write, for assertions.
final class TestConsole: Sendable {
    private let streams = Mutex<(out: String, err: String)>(("", ""))

    var out: String { streams.withLock { $0.out } }
    var err: String { streams.withLock { $0.err } }

    var console: Console {
        Console(
            out: { text in self.streams.withLock { $0.out += text } },
            err: { text in self.streams.withLock { $0.err += text } })
    }

    /// Runs `sitegen` with `arguments` in `directory`; returns the exit code.
    func run(_ arguments: [String], in directory: URL, variables: [String: String] = [:]) async -> Int32 {
        let environment = CommandEnvironment(console: console, variables: variables, currentDirectory: directory.path)
        return await SiteGenTool.run(arguments, environment: environment)
    }
}

/// A temporary folder with files, removed when the test is done with it.
struct TemporaryFolder: ~Copyable {
    let url: URL

    init(_ files: [String: String] = [:]) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sitegen-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (path, text) in files { try write(path, text) }
    }

    func write(_ path: String, _ text: String) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
