/// Prints what `sitegen-bench build` measured: a table of builds, the steps, the output.
struct BuildReport {
    let site: SyntheticSite
    let results: [(name: String, outcomes: [BuildRunner.Outcome])]
    let output: OutputSummary
    let present: Pipeline.Report?
    let editedFile: String?

    func print() {
        Swift.print("")
        Swift.print(
            Show.pad("", 30) + Show.pad("wall", 10) + Show.pad("user+sys", 10) + Show.pad("peak memory", 13) + "files")
        for (name, outcomes) in results {
            let walls = outcomes.map(\.process.wall).sorted()
            let median = outcomes.sorted { $0.process.wall < $1.process.wall }[outcomes.count / 2]
            let report = median.report
            var line =
                Show.pad(name, 30) + Show.pad(Show.seconds(median.process.wall), 10)
                + Show.pad(Show.seconds(median.process.cpu), 10) + Show.pad(Show.memory(median.process.maxRSS), 13)
                + "\(Show.count(report.written)) written, \(Show.count(report.unchanged)) unchanged, "
                + "\(Show.count(report.removed)) removed"
            if outcomes.count > 1 {
                line +=
                    " (median of \(outcomes.count), \(Show.seconds(walls[0]))-\(Show.seconds(walls[walls.count - 1])))"
            }
            Swift.print(line)
            if !report.steps.isEmpty {
                Swift.print("    steps: " + report.steps.map(describe).joined(separator: "; "))
            }
        }
        if let present {
            Swift.print("separate process (not a build): " + present.steps.map(describe).joined(separator: "; "))
        }
        let first = results.first?.outcomes.first?.report
        Swift.print(
            "output: \(Show.count(output.files)) files (\(Show.count(first?.pages ?? 0)) pages), "
                + "\(Show.bytes(output.bytes)); largest \(output.largest.path) (\(Show.bytes(output.largest.bytes)))")
        if let editedFile { Swift.print("edited: \(editedFile) (a sentence added at the end)") }
        if let warnings = first?.warnings, warnings > 0 { Swift.print("warnings: \(warnings)") }
        let figures = results.map { name, outcomes in
            let median = outcomes.map(\.process.wall).sorted()[outcomes.count / 2]
            let key = name.hasPrefix("full") ? "full" : name.hasSuffix("edited") ? "edited" : "unchanged"
            return "\(key)=\(String(format: "%.2f", median))"
        }
        Swift.print(
            "summary: reviews=\(site.reviews) " + figures.joined(separator: " ")
                + " peak_mb=\(Show.memory(results.map { $0.outcomes.map(\.process.maxRSS).max() ?? 0 }.max() ?? 0).dropLast(3))"
                + " files=\(output.files) bytes=\(output.bytes) largest=\(output.largest.path):\(output.largest.bytes)")
    }

    private func describe(_ step: Pipeline.Step) -> String {
        // The build's own steps (indented) are timed inside it, with no CPU or memory figure.
        if step.cpu == 0 && step.maxRSS == 0 { return "\(step.name.drop { $0 == " " }) \(Show.seconds(step.wall))" }
        let usage = "cpu \(Show.seconds(step.cpu)), peak \(Show.memory(step.maxRSS))"
        return "\(step.name) \(Show.seconds(step.wall)) (\(usage))"
    }
}
