import Dispatch
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
        a rebuild succeeds. Reviews dated after today (the day it starts; SITEGEN_TODAY,
        YYYY-MM-DD, when the environment sets it) are left out. Ctrl-C stops it.

        Options:
          --source DIR    The site folder (default: the current folder)
          --host HOST     The address to listen on (default: 127.0.0.1, this machine only)
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
        host = arguments.value("--host") ?? "127.0.0.1"
        port = try arguments.integer("--port", in: 0...65535) ?? 1313
        drafts = arguments.has("--drafts")
        future = arguments.has("--future")
        verbose = arguments.has("--verbose")
    }

    func run(_ environment: CommandEnvironment) async throws -> Int32 {
        let here = URL(fileURLWithPath: environment.currentDirectory, isDirectory: true)
        let folder = (source.map { URL(fileURLWithPath: $0, relativeTo: here) } ?? here).standardizedFileURL
        let console = environment.console
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
        try server.start()
        for line in WarningReport.lines(server.warnings, verbose: verbose) { console.error(line) }
        console.line("Serving \(source ?? ".") at \(server.url) (Ctrl-C to stop)")
        await Self.waitForInterrupt()
        server.stop()
        console.line("Stopped.")
        return ExitCode.success
    }

    /// Waits for SIGINT or SIGTERM.
    static func waitForInterrupt() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queue = DispatchQueue(label: "sitegen.signals")
            let resumed = ResumeOnce(continuation)
            var sources: [DispatchSourceSignal] = []
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
                source.setEventHandler { resumed.resume() }
                source.resume()
                sources.append(source)
            }
            SignalSources.keep(sources)
        }
    }
}

/// Resumes a continuation at most once.
private final class ResumeOnce: @unchecked Sendable {
    private var continuation: CheckedContinuation<Void, Never>?
    private let lock = NSLock()

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = continuation
    }

    func resume() {
        lock.lock()
        let pending = continuation
        continuation = nil
        lock.unlock()
        pending?.resume()
    }
}

/// Keeps signal sources alive while the command runs.
private enum SignalSources {
    nonisolated(unsafe) static var kept: [DispatchSourceSignal] = []
    static func keep(_ sources: [DispatchSourceSignal]) { kept = sources }
}
