import Foundation
import SiteGen

/// `sitegen build`: the site folder to a complete static site in `public/`.
struct BuildCommand: Command {
    static let name = "build"
    static let summary = "Build the site into public/"
    static let help = """
        Usage: sitegen build [--source DIR] [--output DIR] [--drafts] [--future] [--base-url URL] [--force] [--verbose] [--timings]

        Reads the site folder (site.yml, content/, Templates/, static/) and writes the
        complete site to the output folder: only files whose bytes changed are written,
        and files the site no longer has are removed. A build with errors prints each
        one as path:line:column: message, exits with status 1 and leaves the output
        folder as it was. Reviews dated after today are left out until their day comes
        (today is SITEGEN_TODAY, YYYY-MM-DD, when the environment sets it).

        sitegen only removes files it wrote itself (the output folder keeps a hidden
        .sitegen-output record of them), and refuses to write into a non-empty folder it
        did not make, into the site's own folders, the home folder or a system folder.

        Options:
          --source DIR     The site folder (default: the current folder)
          --output DIR     Where the site goes (default: public/ inside the site folder)
          --drafts         Include reviews marked draft: true
          --future         Include reviews dated after today
          --base-url URL   Publish under this address instead of site.yml's base_url
          --force          Write into a non-empty output folder sitegen did not make:
                           DANGER, every visible file there that the site does not
                           have is removed (hidden files such as .git are kept)
          --timings        Print how long each step took (load, present, render and
                           write, commit)
          --verbose        List each review with nothing in the metadata cache,
                           not only how many there are
          -h, --help       Show this help

        """
    static let arguments = ArgumentSpec(
        flags: ["--drafts", "--future", "--force", "--verbose", "--timings"],
        options: ["--source", "--output", "--base-url"])

    let source: String?
    let output: String?
    let drafts: Bool
    let future: Bool
    let force: Bool
    let verbose: Bool
    let timings: Bool
    let baseURL: BaseURL?

    init(_ arguments: Arguments) throws(UsageError) {
        source = arguments.value("--source")
        output = arguments.value("--output")
        drafts = arguments.has("--drafts")
        future = arguments.has("--future")
        force = arguments.has("--force")
        verbose = arguments.has("--verbose")
        timings = arguments.has("--timings")
        if let text = arguments.value("--base-url") {
            guard let url = BaseURL(text) else {
                throw UsageError("--base-url \(BaseURL.refusal(of: text, example: false))")
            }
            baseURL = url
        } else {
            baseURL = nil
        }
    }

    func run(_ environment: CommandEnvironment) async throws -> Int32 {
        let clock = ContinuousClock()
        let start = clock.now
        let here = URL(fileURLWithPath: environment.currentDirectory, isDirectory: true)
        let sourceURL = source.map { URL(fileURLWithPath: $0, relativeTo: here) } ?? here
        let outputURL =
            output.map { URL(fileURLWithPath: $0, relativeTo: here) }
            ?? sourceURL.appendingPathComponent("public", isDirectory: true)
        let today = future ? nil : try Self.today(environment)
        var options = SiteBuilder.Options(
            source: sourceURL.standardizedFileURL, output: outputURL.standardizedFileURL,
            includeDrafts: drafts, baseURL: baseURL, force: force, environment: environment.variables,
            today: today)
        // The process ends with the build: its memory is reclaimed at the exit.
        options.freesMemory = false
        let console = environment.console
        let waitingFor = Self.shownOutput(output, source: source)
        options.waitingForOutput = {
            console.error("waiting for another sitegen build writing into \(waitingFor) to finish")
        }
        let builder = SiteBuilder(options: options)
        let report = try builder.build()
        for line in WarningReport.lines(report.warnings, verbose: verbose) { environment.console.error(line) }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let shown = Self.shownOutput(output, source: source)
        environment.console.line(
            "Built \(report.pages) pages (\(report.files) files) into \(shown)/ in \(String(format: "%.2f", seconds)) s: "
                + "\(report.output.written) written, \(report.output.unchanged) unchanged, \(report.output.removed) removed"
                + (report.upToDate ? " (nothing changed since the last build)" : "")
        )
        if timings {
            let steps = report.steps.map { "\($0.name) \(String(format: "%.2f", $0.seconds)) s" }
            environment.console.line(
                "Steps: " + (steps.isEmpty ? "none (the build stopped early)" : steps.joined(separator: ", ")))
        }
        return ExitCode.success
    }

    /// The output folder as the command line names it: `--output`, else `public` in `--source`
    /// or in the current folder; without a final slash (`public/` → `public`), as messages
    /// add one before the names of its files.
    static func shownOutput(_ output: String?, source: String?) -> String {
        var shown = output ?? (source.map { ($0 as NSString).appendingPathComponent("public") } ?? "public")
        while shown.utf8.count > 1 && shown.utf8.last == UInt8(ascii: "/") {
            shown = String(decoding: shown.utf8.dropLast(), as: UTF8.self)
        }
        return shown
    }

    /// Today's date, for leaving out reviews dated after it (see ``Day/today(environment:now:timeZone:)``).
    static func today(_ environment: CommandEnvironment) throws -> Day {
        guard let today = Day.today(environment: environment.variables) else {
            let text = environment.variables[Day.todayVariable] ?? ""
            throw CommandError("\(Day.todayVariable) must be a date written YYYY-MM-DD, not \"\(text)\"")
        }
        return today
    }
}
