import Foundation

/// Runs a binary that `swift build` put beside the test bundle, as a user would.
struct BuiltBinary {
    let url: URL

    init(_ name: String) throws {
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

    struct Result {
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
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, out: outData, err: String(decoding: errData, as: UTF8.self))
    }
}
