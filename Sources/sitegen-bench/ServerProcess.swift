import Foundation
import Synchronization

/// `sitegen serve --port 0` running as a child process, with the lines it logs (each with the
/// time it arrived), so the benchmark can wait for rebuilds and count the files they changed.
final class ServerProcess {
    /// One line of the server's output.
    struct Line: Sendable {
        let time: ContinuousClock.Instant
        let text: String
    }

    let port: Int
    let pid: Int32
    /// From starting the process to its "Serving" line: the first build, in memory.
    let startup: Duration
    private let process: Process
    private let log = LineLog()

    init(binary: String, site: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--source", site.path, "--port", "0"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let log = self.log
        let clock = ContinuousClock()
        let start = clock.now
        try process.run()
        for handle in [output.fileHandleForReading, errors.fileHandleForReading] {
            Thread.detachNewThread {
                var pending = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    pending += chunk
                    while let newline = pending.firstIndex(of: 0x0A) {
                        let text = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        pending = Data(pending[(newline + 1)...])
                        log.lines.withLock { $0.append(Line(time: clock.now, text: text)) }
                    }
                }
            }
        }
        self.process = process
        pid = process.processIdentifier
        var found: Int?
        while found == nil {
            guard process.isRunning else { throw BenchError("sitegen serve stopped before serving") }
            found = log.lines.withLock { lines in
                lines.lazy.compactMap { line -> Int? in
                    guard line.text.hasPrefix("Serving "), let range = line.text.range(of: "http://127.0.0.1:") else {
                        return nil
                    }
                    return Int(line.text[range.upperBound...].prefix { $0.isNumber })
                }.first
            }
            if found == nil { Thread.sleep(forTimeInterval: 0.01) }
            if clock.now - start > .seconds(3600) { throw BenchError("sitegen serve did not start within an hour") }
        }
        port = found!
        startup = clock.now - start
    }

    /// Lines logged after `instant`.
    func lines(after instant: ContinuousClock.Instant) -> [Line] {
        log.lines.withLock { $0.filter { $0.time > instant } }
    }

    /// Waits until a rebuild after `instant` has been logged and then `quiet` seconds pass with no
    /// new line; returns the rebuild lines ("Rebuilt (N files changed) in M ms", "1 file" for one, "Rebuild failed…").
    func settle(after instant: ContinuousClock.Instant, quiet: Double = 0.3, timeout: Double = 600) -> [Line] {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(timeout * 1000))
        while clock.now < deadline {
            let recent = lines(after: instant)
            let rebuilds = recent.filter { $0.text.hasPrefix("Rebuil") }
            if let last = recent.last, !rebuilds.isEmpty, clock.now - last.time > .milliseconds(Int(quiet * 1000)) {
                return rebuilds
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return lines(after: instant).filter { $0.text.hasPrefix("Rebuil") }
    }

    /// The server's peak and current resident memory, in kilobytes (from /proc).
    var memory: (peak: Int, current: Int) {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let value = { (key: String) in
            status.split(separator: "\n").first { $0.hasPrefix(key) }.flatMap { line in
                Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
            } ?? 0
        }
        return (value("VmHWM:"), value("VmRSS:"))
    }

    /// Stops the server (SIGTERM) and waits for it.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

/// The lines a server logged, shared with the threads that read its output.
final class LineLog: Sendable {
    let lines = Mutex<[ServerProcess.Line]>([])
}
