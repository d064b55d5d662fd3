import Foundation
import SiteGenCLI
import Synchronization
import Testing

/// A console that keeps what commands write, for assertions.
///
/// When `SITEGEN_BINARY` names a built `sitegen` (the test script sets it to
/// `.build/release/sitegen`, the binary the Quick start builds and users run), every
/// command runs that binary as a separate process; otherwise it runs in this process.
final class TestConsole: Sendable {
    private let streams = Mutex<(out: String, err: String)>(("", ""))

    var out: String { streams.withLock { $0.out } }
    var err: String { streams.withLock { $0.err } }

    var console: Console {
        Console(
            out: { text in self.streams.withLock { $0.out += text } },
            err: { text in self.streams.withLock { $0.err += text } })
    }

    /// The binary commands run as, when the environment names one.
    static let binary: BuiltBinary? = ProcessInfo.processInfo.environment["SITEGEN_BINARY"].map {
        BuiltBinary(url: URL(fileURLWithPath: $0))
    }

    /// Runs `sitegen` with `arguments` in `directory`, with exactly `variables` as its
    /// environment (and the sanitizers' options, when set); returns the exit code.
    func run(_ arguments: [String], in directory: URL, variables: [String: String] = [:]) async -> Int32 {
        if let binary = Self.binary {
            do {
                // Sanitizer settings (Scripts/sanitize) reach the binary; nothing else does.
                let sanitizers = ProcessInfo.processInfo.environment.filter {
                    ["ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"].contains($0.key)
                }
                let environment = sanitizers.merging(variables) { _, given in given }
                let result = try await binary.runDetached(arguments, in: directory, environment: environment)
                streams.withLock {
                    $0.out += result.outText
                    $0.err += result.err
                }
                return result.status
            } catch {
                streams.withLock { $0.err += "could not run \(binary.url.path): \(error)" }
                return -1
            }
        }
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
        // Tests may leave unreadable folders behind; make them removable first.
        if let walker = FileManager.default.enumerator(atPath: url.path) {
            for case let path as String in walker {
                chmod(url.appendingPathComponent(path).path, 0o755)
            }
        }
        try? FileManager.default.removeItem(at: url)
    }
}

/// What `sitegen build` printed when it failed, and whether it made an output folder.
struct FailedBuild {
    let out: String
    let err: String
    let madeOutput: Bool
}

/// `sitegen build` of a site of `files`, which must fail with status 1.
func buildThatFails(_ files: [String: String]) async throws -> FailedBuild {
    let site = try TemporaryFolder(files)
    let console = TestConsole()
    #expect(await console.run(["build"], in: site.url) == 1)
    return FailedBuild(
        out: console.out, err: console.err,
        madeOutput: FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
}
