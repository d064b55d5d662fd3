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

    /// The resident memory of `pid` in kilobytes, from /proc/PID/statm (read with plain
    /// `open`/`read`: procfs files report a size of 0); 0 once the process is gone.
    static func residentKilobytes(of pid: pid_t) -> Int {
        let descriptor = open("/proc/\(pid)/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return 0 }
        let fields = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }
}
