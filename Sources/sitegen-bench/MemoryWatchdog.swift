import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Kills a child process whose resident memory passes a limit, so a benchmark that outgrows
/// the machine stops before the machine does.
final class MemoryWatchdog: Sendable {
    private let state = Mutex<(running: Bool, killedAt: Int?)>((true, nil))
    private let done = DispatchSemaphore(value: 0)

    /// Starts watching `pid` every 100 ms; `limit` in kilobytes.
    init(pid: pid_t, limit: Int) {
        Thread.detachNewThread { [self] in
            while state.withLock({ $0.running }) {
                let resident = Self.residentKilobytes(of: pid)
                if resident > limit {
                    kill(pid, SIGKILL)
                    state.withLock { $0.killedAt = resident }
                    break
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
            done.signal()
        }
    }

    /// Stops watching; returns the resident memory at which the child was killed, if it was.
    func stop() -> Int? {
        state.withLock { $0.running = false }
        done.wait()
        return state.withLock { $0.killedAt }
    }

    /// VmRSS from /proc/PID/status, 0 once the process is gone.
    static func residentKilobytes(of pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
}
