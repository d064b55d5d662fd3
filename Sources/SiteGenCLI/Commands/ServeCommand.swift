import EventHTTP
import Foundation
import SiteGen

/// `sitegen serve`: a live preview that rebuilds what changed and reloads the browser.
struct ServeCommand: Command {
    static let name = "serve"
    static let summary = "Preview the site with live reload while you write"
    static let help = """
        Usage: sitegen serve [--source DIR] [--host 127.0.0.1] [--port 1313] [--drafts] [--future] [--verbose]

        Builds the site in memory, serves it over HTTP and prints the address. It
        watches content/, Templates/, static/, site.yml and metadata/; after a burst of
        saves settles it rebuilds only what the change touches, and open pages reload
        (a stylesheet change swaps stylesheets without a reload). A failed rebuild keeps
        the last good site served, prints the errors and shows them over the page until
        a rebuild succeeds; a site that does not build at start is served as its errors
        until a change builds it. Reviews dated after today (the day it starts;
        SITEGEN_TODAY, YYYY-MM-DD, when the environment sets it) are left out. Ctrl-C
        stops it.

        Options:
          --source DIR    The site folder (default: the current folder)
          --host HOST     The address or name to listen on (default: 127.0.0.1, this
                          machine only; 0.0.0.0: every network interface, and the
                          addresses other devices open are printed)
          --port PORT     The port (default: 1313; 0 takes any free port)
          --drafts        Include reviews marked draft: true
          --future        Include reviews dated after today
          --verbose       List each review with nothing in the metadata cache,
                          not only how many there are
          -h, --help      Show this help

        """
    static let arguments = ArgumentSpec(
        flags: ["--drafts", "--future", "--verbose"], options: ["--source", "--host", "--port"])

    let source: String?
    let host: String
    let port: Int
    let drafts: Bool
    let future: Bool
    let verbose: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        source = arguments.value("--source")
        let given = arguments.value("--host") ?? "127.0.0.1"
        // An IPv6 address as URLs write it, `[::1]`, is the address.
        host =
            given.count > 2 && given.hasPrefix("[") && given.hasSuffix("]")
            ? String(given.dropFirst().dropLast()) : given
        port = try arguments.integer("--port", in: 0...65535) ?? 1313
        drafts = arguments.has("--drafts")
        future = arguments.has("--future")
        verbose = arguments.has("--verbose")
    }

    func run(_ environment: CommandEnvironment) async throws -> Int32 {
        let here = URL(fileURLWithPath: environment.currentDirectory, isDirectory: true)
        let folder = (source.map { URL(fileURLWithPath: $0, relativeTo: here) } ?? here).standardizedFileURL
        let console = environment.console
        // Every open connection takes a file descriptor; the usual soft limit (1,024) is low for a server.
        HTTPServer.raiseOpenFileLimit()
        let today = future ? nil : try BuildCommand.today(environment)
        let server: PreviewServer
        do {
            server = try PreviewServer(
                options: .init(
                    source: folder, output: folder.appendingPathComponent("public"), includeDrafts: drafts,
                    today: today),
                host: host, port: port, log: { console.error($0) })
        } catch let error as HTTPServerError {
            throw CommandError("sitegen serve: \(error)")
        }
        let signals = SignalWaiter(SIGINT, SIGTERM)
        let verbose = verbose
        let report = { @Sendable (warnings: [Diagnostic]) in
            for line in WarningReport.lines(warnings, verbose: verbose) { console.error(line) }
        }
        server.onWarnings = report
        try server.start()
        report(server.warnings)
        console.line("Serving \(source ?? ".") at \(server.url) (Ctrl-C to stop)")
        if !server.networkURLs.isEmpty {
            console.line("On other devices of your network: \(server.networkURLs.joined(separator: ", "))")
        }
        await signals.wait()
        server.stop()
        console.line("Stopped.")
        return ExitCode.success
    }
}
