import Foundation
import Synchronization

/// Runs a built `sitegen` as a user would: `SITEGEN_BINARY` when the environment names one
/// (the test script points it at `.build/release/sitegen`), else the binary `swift build`
/// put beside the test bundle.
struct BuiltBinary: Sendable {
    let url: URL

    init(url: URL) {
        self.url = url
    }

    init(_ name: String) throws {
        if name == "sitegen", let binary = TestConsole.binary {
            url = binary.url
            return
        }
        let products = Bundle.main.bundleURL
        let candidates = [
            products.appendingPathComponent(name),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw BinaryNotFound(name: name, looked: candidates.map(\.path))
        }
        url = found
    }

    struct BinaryNotFound: Error, CustomStringConvertible {
        let name: String
        let looked: [String]
        var description: String { "\(name) is not built; looked in \(looked.joined(separator: ", "))" }
    }

    struct Result: Sendable {
        let status: Int32
        let out: Data
        let err: String
        var outText: String { String(decoding: out, as: UTF8.self) }
    }

    /// Runs the binary in `directory` and waits for it to exit.
    func run(_ arguments: [String], in directory: URL, environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes at once: a child that fills one while we wait on the other would stall.
        let errData = Collected()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData.data.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() }
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let errText = errData.data.withLock { String(decoding: $0, as: UTF8.self) }
        return Result(status: process.terminationStatus, out: outData, err: errText)
    }

    /// Bytes one thread reads for another.
    private final class Collected: Sendable {
        let data = Mutex(Data())
    }

    /// ``run(_:in:environment:)`` on another thread, so a test's own loopback servers keep serving.
    func runDetached(_ arguments: [String], in directory: URL, environment: [String: String]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Swift.Result { try self.run(arguments, in: directory, environment: environment) })
            }
        }
    }
}
