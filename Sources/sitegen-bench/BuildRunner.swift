import Foundation

/// Runs one measured build of a site in a fresh process: this program's `build-child`
/// (the pipeline step by step) or, with `binary`, `sitegen build` itself.
struct BuildRunner: CustomStringConvertible {
    let source: URL
    let output: URL
    /// A `sitegen` executable to run instead of the in-process pipeline.
    let binary: String?
    /// Kill a build whose resident memory passes this many kilobytes.
    let memoryLimit: Int?

    /// One build: the process's figures and, when it reports them, its steps.
    struct Outcome {
        let process: ChildProcess.Result
        let report: Pipeline.Report
    }

    var description: String {
        binary.map { "\($0) build" } ?? "the SiteBuilder pipeline (sitegen-bench build-child)"
    }

    func build() throws -> Outcome {
        if let binary {
            let result = try check(
                ChildProcess.run(
                    binary, ["build", "--source", source.path, "--output", output.path], memoryLimit: memoryLimit),
                "sitegen build")
            return Outcome(process: result, report: Self.parseBuiltLine(result.output))
        }
        let result = try check(
            ChildProcess.run(
                ChildProcess.ownExecutable, ["build-child", "build", "--source", source.path, "--output", output.path],
                memoryLimit: memoryLimit),
            "build-child build")
        return Outcome(process: result, report: try decode(result.output))
    }

    /// Load, then present alone, and cmark alone (a separate process; its figures are not a build's).
    func presentAlone() throws -> Pipeline.Report {
        let result = try check(
            ChildProcess.run(
                ChildProcess.ownExecutable,
                ["build-child", "present", "--source", source.path, "--output", output.path],
                memoryLimit: memoryLimit),
            "build-child present")
        return try decode(result.output)
    }

    private func check(_ result: ChildProcess.Result, _ what: String) throws -> ChildProcess.Result {
        if let killedAt = result.killedAt {
            throw BenchError(
                "\(what) was stopped after \(Show.seconds(result.wall)) (\(Show.seconds(result.cpu)) of CPU): "
                    + "it used \(Show.memory(killedAt)), more than --max-memory allows")
        }
        guard result.status == 0 else { throw BenchError("\(what) failed with status \(result.status)") }
        return result
    }

    private func decode(_ output: String) throws -> Pipeline.Report {
        guard let line = output.split(separator: "\n").last else { throw BenchError("build-child printed nothing") }
        return try JSONDecoder().decode(Pipeline.Report.self, from: Data(line.utf8))
    }

    /// Reads `Built 51 pages (56 files) into public/ in 0.10 s: 3 written, 53 unchanged, 0 removed`.
    static func parseBuiltLine(_ output: String) -> Pipeline.Report {
        var report = Pipeline.Report()
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("Built ") }) else { return report }
        let words = line.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "(),:")) }
        for (index, word) in words.enumerated().dropFirst() {
            guard let number = Int(words[index - 1]) else { continue }
            switch word {
            case "pages": report.pages = number
            case "files": report.files = number
            case "written": report.written = number
            case "unchanged": report.unchanged = number
            case "removed": report.removed = number
            default: break
            }
        }
        return report
    }
}
