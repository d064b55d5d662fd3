import CommonMark
import Foundation
import SiteGen

#if canImport(Glibc)
    import Glibc
#endif

/// The one place the benchmark calls SiteGen's build pipeline, so a new pipeline needs
/// changes here only. It relies on `SiteBuilder(options:)`, `SiteBuilder.build()` and its
/// `Report`, `SiteBuilder.load()`, `SiteBuilder.presentAll(_:)`, `Markdown.render(_:allowRawHTML:)`
/// and `Theme.builtIn`.
enum Pipeline {
    /// One timed step of a build.
    struct Step: Codable {
        var name: String
        var wall: Double
        var cpu: Double
        /// The process's peak memory after the step, in kilobytes.
        var maxRSS: Int
    }

    /// What a build in this process did.
    struct Report: Codable {
        var steps: [Step] = []
        var pages = 0
        var files = 0
        var written = 0
        var unchanged = 0
        var removed = 0
        var warnings = 0
    }

    /// A build exactly as `sitegen build` runs it (`SiteBuilder.build()`: load, enrich, present,
    /// render and write streamed together, or the manifest's early stop).
    static func build(source: URL, output: URL) throws -> Report {
        let builder = SiteBuilder(options: .init(source: source, output: output))
        var report = Report()
        let built = try measure("build", into: &report) { try builder.build() }
        for step in built.steps {
            report.steps.append(Step(name: "  " + step.name, wall: step.seconds, cpu: 0, maxRSS: 0))
        }
        report.pages = built.pages
        report.files = built.files
        report.written = built.output.written
        report.unchanged = built.output.unchanged
        report.removed = built.output.removed
        report.warnings = built.warnings.count
        return report
    }

    /// Loads the site, then times the present step alone and cmark alone on every review body.
    static func present(source: URL) throws -> Report {
        let builder = SiteBuilder(options: .init(source: source, output: source.appendingPathComponent("public")))
        var report = Report()
        let content = try measure("load", into: &report) { try builder.load() }
        report.pages = measure("present", into: &report) { builder.presentAll(content) }
        let bodies = try reviewBodies(in: source)
        _ = measure("cmark alone, one thread", into: &report) {
            bodies.reduce(0) { $0 + Markdown.render($1, allowRawHTML: false).html.utf8.count }
        }
        return report
    }

    /// The default theme's template `name` (the serve benchmark overrides it to edit it).
    static func builtInTemplate(_ name: String) -> String? {
        Theme.builtIn.templates[name]?.text
    }
}

private extension Pipeline {
    static func measure<T>(_ name: String, into report: inout Report, _ body: () throws -> T) rethrows -> T {
        let clock = ContinuousClock()
        let cpuBefore = cpuSeconds()
        let start = clock.now
        let result = try body()
        let wall = (clock.now - start).seconds
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        report.steps.append(
            Step(name: name, wall: wall, cpu: cpuSeconds() - cpuBefore, maxRSS: Int(usage.ru_maxrss)))
        return result
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_utime.seconds + usage.ru_stime.seconds
    }

    /// The Markdown of every review (front matter removed).
    static func reviewBodies(in source: URL) throws -> [String] {
        let content = source.appendingPathComponent("content")
        var bodies: [String] = []
        for section in try FileManager.default.contentsOfDirectory(atPath: content.path).sorted() {
            let folder = content.appendingPathComponent(section)
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for file in files.sorted() where file.hasSuffix(".md") && file != "_index.md" {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let parts = text.components(separatedBy: "\n---\n")
                bodies.append(parts.count > 1 ? parts.dropFirst().joined(separator: "\n---\n") : text)
            }
        }
        return bodies
    }
}
