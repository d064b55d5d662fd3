import Foundation
import SiteGenCLI

/// `sitegen-bench build-child (build|present) --source DIR --output DIR`: one measured run
/// of the pipeline in a fresh process, for `sitegen-bench build`. Prints its report as JSON.
struct BuildChild {
    let mode: String
    let source: URL
    let output: URL

    init(_ words: [String]) throws {
        let arguments = try Arguments(words, spec: ArgumentSpec(options: ["--source", "--output"], positional: 1...1))
        mode = arguments.positional[0]
        guard ["build", "present"].contains(mode) else { throw UsageError("build-child: unknown mode \"\(mode)\"") }
        guard let source = arguments.value("--source"), let output = arguments.value("--output") else {
            throw UsageError("build-child needs --source and --output")
        }
        self.source = URL(fileURLWithPath: source)
        self.output = URL(fileURLWithPath: output)
    }

    func run() throws {
        let report =
            mode == "build" ? try Pipeline.build(source: source, output: output) : try Pipeline.present(source: source)
        FileHandle.standardOutput.write(try JSONEncoder().encode(report) + Data("\n".utf8))
    }
}
