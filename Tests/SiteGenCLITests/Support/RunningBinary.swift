import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The built `sitegen` running in the background, as a user leaves `sitegen serve` running:
/// its output collected as it comes, signals sent to it, and a kill if a test leaves it running.
final class RunningBinary {
    private let process = Process()
    private let streams = Streams()

    /// What the two pipes have delivered, and whether each has reached its end.
    private final class Streams: Sendable {
        let state = Mutex<(out: String, err: String, closed: Int)>(("", "", 0))
    }

    /// Starts `sitegen arguments` in `directory`, with this process's environment and `variables`
    /// over it; with `openFiles`, through a shell that first limits the number of files it may
    /// open (soft and hard limit) to that.
    init(_ arguments: [String], in directory: URL, variables: [String: String] = [:], openFiles: Int? = nil) throws {
        let binary = try BuiltBinary("sitegen").url
        if let openFiles {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(openFiles) && exec \"$0\" \"$@\"", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        if !variables.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(variables) { _, new in new }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let streams = self.streams
        for (pipe, isOut) in [(out, true), (err, false)] {
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                streams.state.withLock { state in
                    if data.isEmpty {
                        handle.readabilityHandler = nil
                        state.closed += 1
                    } else if isOut {
                        state.out += String(decoding: data, as: UTF8.self)
                    } else {
                        state.err += String(decoding: data, as: UTF8.self)
                    }
                }
            }
        }
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Standard output so far.
    var out: String { streams.state.withLock { $0.out } }
    /// Standard error so far.
    var err: String { streams.state.withLock { $0.err } }

    /// Waits up to `timeout` seconds for the output so far to satisfy `condition`.
    func waitForOutput(timeout: Double = 10, _ condition: (_ out: String, _ err: String) -> Bool) async throws -> Bool {
        // The test pool may be busy for longer than the timeout (2 cores, tests in parallel, some
        // of them waiting synchronously): a wait that wakes late still looks once more before it
        // gives up, and time spent waiting for a thread does not count against the server.
        var waited = 0.0
        while true {
            let (out, err) = streams.state.withLock { ($0.out, $0.err) }
            if condition(out, err) { return true }
            if waited >= timeout || (!process.isRunning && streams.state.withLock({ $0.closed == 2 })) {
                let (out, err) = streams.state.withLock { ($0.out, $0.err) }
                return condition(out, err)
            }
            try await Task.sleep(for: .milliseconds(10))
            waited += 0.01
        }
    }

    /// The address from `Serving … at http://…/ (Ctrl-C to stop)`, once it is printed.
    func servedURL(timeout: Double = 30) async throws -> String? {
        guard
            try await waitForOutput(timeout: timeout, { out, _ in out.contains(" (Ctrl-C to stop)\n") })
        else { return nil }
        return out.firstMatch(of: /at (http:\/\/\S+\/) \(Ctrl-C to stop\)/).map { String($0.output.1) }
    }

    /// The port from the address ``servedURL(timeout:)`` finds.
    func servedPort(timeout: Double = 10) async throws -> Int? {
        try await servedURL(timeout: timeout)?.firstMatch(of: /:(\d+)\/$/).flatMap { Int($0.output.1) }
    }

    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// The exit status once the process has ended and its output is read; nil after `timeout` seconds.
    func waitForExit(timeout: Double = 30) async throws -> Int32? {
        var waited = 0.0
        var endedAt: Double?
        while true {
            if !process.isRunning {
                if streams.state.withLock({ $0.closed == 2 }) { return process.terminationStatus }
                // A process another test started at the same moment may hold a copy of a pipe's
                // writing end (inherited while both were being spawned), so the end of the
                // output may not come until that one stops: once this process has ended, what it
                // wrote is in the pipes, and a second is enough to read it.
                endedAt = endedAt ?? waited
                if let endedAt, waited - endedAt >= 1 { return process.terminationStatus }
            }
            if waited >= timeout { return nil }
            try await Task.sleep(for: .milliseconds(10))
            waited += 0.01
        }
    }
}
