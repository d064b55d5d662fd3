import Dispatch
import EventHTTP
import Foundation
import SiteGen
import Synchronization

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

/// Waits for the first of some signals: they no longer stop the process, and the first one to
/// arrive (or one that arrived before ``wait()``) ends the wait; the same signal again stops
/// the process at once, as it would have (for a stop that hangs).
///
/// A handler of its own writes to a pipe that a thread of its own reads, so the signal counts
/// whichever thread the kernel hands it to. libdispatch's signal sources lost one now and then
/// (about one stop in twenty-five under load, at most 64 open files): a signal handed to one of
/// its worker threads was raised again on that thread, where the descriptor it reads signals
/// from, read on another thread, never saw it, and the server waited for good.
private final class SignalWaiter {
    private let arrival = Arrival()

    init(_ signals: Int32...) {
        var ends: [Int32] = [-1, -1]
        // Without a pipe (no file descriptor left), the signals keep stopping the process.
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        SignalPipe.writeEnd.store(ends[1], ordering: .releasing)
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = SignalPipe.handler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        let (readEnd, arrival) = (ends[0], arrival)
        Thread.detachNewThread {
            // The writing end stays open for the life of the process: this returns with a signal.
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
            arrival.arrive()
        }
    }

    /// Returns once a signal has arrived.
    func wait() async {
        await arrival.wait()
    }
}

/// The writing end of ``SignalWaiter``'s pipe, and the handler that writes to it.
private enum SignalPipe {
    static let writeEnd = Atomic<Int32>(-1)

    /// Async-signal-safe: an atomic load, `write`, `signal` and `errno`. The next such signal
    /// stops the process, as it would without the waiter.
    static let handler: @convention(c) (Int32) -> Void = { number in
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(writeEnd.load(ordering: .acquiring), &byte, 1)
        signal(number, SIG_DFL)
        errno = saved
    }
}

/// Whether a signal arrived, and who waits for one.
private final class Arrival: Sendable {
    private struct State {
        var arrived = false
        var waiting: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func arrive() {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.arrived = true
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let arrived = state.withLock { state -> Bool in
                if !state.arrived { state.waiting = continuation }
                return state.arrived
            }
            if arrived { continuation.resume() }
        }
    }
}
