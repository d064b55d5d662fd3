import Foundation
import SiteGen

/// `sitegen check`: every link of the built site leads somewhere.
struct CheckCommand: Command {
    static let name = "check"
    static let summary = "Build, then check every link, fragment, image and stylesheet of the site"
    static let help = """
        Usage: sitegen check [--source DIR] [--output DIR] [--base-url URL] [--no-build] [--external] [--timeout SECONDS] [--concurrency N]

        Builds the site as sitegen build does (at once when nothing changed), then reads
        every page of the output folder, sitemap.xml and the feeds, and checks that each
        link, #fragment, image, srcset entry, stylesheet, script and icon inside the site
        leads to a file there (and a fragment to an element with that id). Each broken
        one is printed with its page, and the command exits 1:

          public/movies/x/index.html: broken link /movies/y/ (no such page)

        Links to other sites are checked only with --external: HEAD, then GET when HEAD
        is refused, a few at a time, each given up after a time-out. A link that answered
        with success is remembered for a day in .sitegen/external-links.json in the site
        folder; failures are always asked again.

        Options:
          --source DIR          The site folder (default: the current folder)
          --output DIR          The built site (default: public/ inside the site folder)
          --base-url URL        The address the site is built for (default: site.yml's base_url)
          --no-build            Check the output folder as it is, without building first
          --external            Also check links to other sites
          --timeout SECONDS     Give up an external link after this long (default 10)
          --concurrency N       External requests at once (default 8)
          -h, --help            Show this help

        """
    static let arguments = ArgumentSpec(
        flags: ["--no-build", "--external"],
        options: ["--source", "--output", "--base-url", "--timeout", "--concurrency"])

    let source: String?
    let output: String?
    let baseURL: String?
    let builds: Bool
    let external: Bool
    let timeout: Double
    let concurrency: Int

    init(_ arguments: Arguments) throws(UsageError) {
        source = arguments.value("--source")
        output = arguments.value("--output")
        baseURL = arguments.value("--base-url")
        if let baseURL, BaseURL(baseURL) == nil {
            throw UsageError("--base-url \(BaseURL.refusal(of: baseURL, example: false))")
        }
        builds = !arguments.has("--no-build")
        external = arguments.has("--external")
        if let text = arguments.value("--timeout") {
            guard let seconds = Double(text), seconds > 0, seconds <= 600 else {
                throw UsageError("--timeout must be a number of seconds above 0 and at most 600, not \"\(text)\"")
            }
            timeout = seconds
        } else {
            timeout = 10
        }
        concurrency = try arguments.integer("--concurrency", in: 1...64) ?? 8
    }

    func run(_ environment: CommandEnvironment) async throws -> Int32 {
        let clock = ContinuousClock()
        let start = clock.now
        let here = URL(fileURLWithPath: environment.currentDirectory, isDirectory: true)
        let site = (source.map { URL(fileURLWithPath: $0, relativeTo: here) } ?? here).standardizedFileURL
        let folder =
            (output.map { URL(fileURLWithPath: $0, relativeTo: here) } ?? site.appendingPathComponent("public"))
            .standardizedFileURL
        if builds {
            var words = source.map { ["--source", $0] } ?? []
            words += output.map { ["--output", $0] } ?? []
            words += baseURL.map { ["--base-url", $0] } ?? []
            _ = try await BuildCommand(Arguments(words, spec: BuildCommand.arguments)).run(environment)
        }
        let console = environment.console
        let shown = BuildCommand.shownOutput(output, source: source)
        let report: LinkChecker.Report
        do {
            let base = try baseURL.flatMap(BaseURL.init) ?? LinkChecker.baseURL(ofSite: site)
            report = try LinkChecker(output: folder, base: base).run(lockingBuildsOf: site) {
                console.error("waiting for a sitegen build writing into \(shown) to finish")
            }
        } catch {
            throw CommandError("sitegen check: \(error)")
        }
        var problems = report.problems
        var externalNote = ""
        let externalCount = report.external.values.reduce(0) { $0 + $1.count }
        if external && !report.external.isEmpty {
            let checker = ExternalLinkChecker(
                client: CurlHTTPClient(headOnly: true),
                cacheFile: site.appendingPathComponent(StateFolder.name).appendingPathComponent(
                    ExternalLinkChecker.cacheName),
                concurrency: concurrency, timeout: timeout)
            let outcomes = await checker.check(report.external.keys.sorted())
            for (url, uses) in report.external {
                guard let problem = outcomes[url]?.problem else { continue }
                problems += uses.map { LinkChecker.Problem(page: $0.page, kind: $0.kind, url: $0.url, reason: problem) }
            }
            let cached = outcomes.values.filter(\.cached).count
            externalNote =
                ", \(Self.count(externalCount, "link")) to \(Self.count(report.external.count, "other address", "other addresses"))"
                + (cached > 0 ? " (\(cached) answered within the last day, not asked again)" : "")
        } else if externalCount > 0 {
            externalNote = ", \(Self.count(externalCount, "link")) to other sites not checked (use --external)"
        }
        for page in report.unreadable { console.error("\(shown)/\(page)") }
        for problem in problems.sorted() { console.error("\(shown)/\(problem)") }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        console.line(
            "Checked \(Self.count(report.pages, "page")) in \(shown)/: \(Self.count(report.links, "link")) "
                + "to \(Self.count(report.targets, "file")) of the site\(externalNote); "
                + "\(problems.isEmpty ? "none" : String(problems.count)) broken"
                + (report.unreadable.isEmpty ? "" : ", \(Self.count(report.unreadable.count, "file")) not read")
                + ", in \(String(format: "%.2f", seconds)) s."
        )
        return problems.isEmpty && report.unreadable.isEmpty ? ExitCode.success : ExitCode.failure
    }

    static func count(_ number: Int, _ noun: String, _ plural: String? = nil) -> String {
        "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
    }
}
