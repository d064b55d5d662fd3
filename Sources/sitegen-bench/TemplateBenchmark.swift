import Foundation
import Mustache
import SiteGenCLI

/// Renders one compiled template many times on one thread.
struct TemplateBenchmark {
    let file: String
    let data: String
    let partials: String?
    let iterations: Int

    init(_ words: [String]) throws {
        let spec = ArgumentSpec(options: ["--data", "--partials", "--iterations"], positional: 1...1)
        let arguments = try Arguments(words, spec: spec)
        guard let data = arguments.value("--data") else { throw UsageError("--data DATA.json is required") }
        file = arguments.positional[0]
        self.data = data
        partials = arguments.value("--partials")
        iterations = try arguments.integer("--iterations", in: 1...100_000_000) ?? 100_000
    }

    func run() throws {
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let value = try JSONDecoder().decode(
            Value.self, from: Data(contentsOf: URL(fileURLWithPath: data, relativeTo: base)))
        let text = try String(contentsOf: URL(fileURLWithPath: file, relativeTo: base), encoding: .utf8)
        let folderPath = partials ?? file.parentPath
        let folder = TemplateFolder(
            displayPath: folderPath,
            url: URL(fileURLWithPath: folderPath.isEmpty ? "." : folderPath, relativeTo: base))
        let template = try Template(text, name: "bench", path: file)
        let library = TemplateLibrary(missingPartials: .fail, loader: folder.loader)

        var bytes = 0
        for _ in 0..<min(1000, iterations) { bytes = try template.renderBytes(value, partials: library).count }
        let clock = ContinuousClock()
        var checksum = 0
        let elapsed = try clock.measure {
            for _ in 0..<iterations {
                checksum &+= try template.renderBytes(value, partials: library).count
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("template: \(file) (\(text.utf8.count) bytes), output \(bytes) bytes")
        print("iterations: \(iterations), seconds: \(String(format: "%.3f", seconds)), checksum: \(checksum)")
        print("µs/render: \(String(format: "%.2f", seconds / Double(iterations) * 1e6))")
        print("renders/s: \(Int((Double(iterations) / seconds).rounded()))")
    }
}
