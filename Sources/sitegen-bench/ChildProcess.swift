import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program as a child process and measures it alone: wall time, CPU time and peak
/// memory from `wait4`, so each measured build starts from an empty heap.
enum ChildProcess {
    /// What a finished child used and printed.
    struct Result {
        var wall: Double
        var user: Double
        var system: Double
        /// The child's peak resident memory (`ru_maxrss`), in kilobytes.
        var maxRSS: Int
        var status: Int32
        /// Its standard output (standard error goes to ours).
        var output: String
        /// Set when the child was killed for using more memory than allowed: its resident memory then, in kilobytes.
        var killedAt: Int?

        var cpu: Double { user + system }
    }

    /// Runs `path` with `arguments`; fails when it cannot start, not when it exits non-zero.
    /// With `memoryLimit` (kilobytes), the child is killed when its resident memory passes it.
    static func run(_ path: String, _ arguments: [String], memoryLimit: Int? = nil) throws -> Result {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw BenchError("cannot create a pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let clock = ContinuousClock()
        let start = clock.now
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(fds[1])
        guard spawned == 0 else {
            close(fds[0])
            throw BenchError("cannot run \(path): \(String(cString: strerror(spawned)))")
        }
        let watchdog = memoryLimit.map { MemoryWatchdog(pid: pid, limit: $0) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if count > 0 {
                output += buffer[0..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(fds[0])
        // Stop watching before the child is reaped: its pid cannot be reused until then.
        let killedAt = watchdog?.stop()
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = (clock.now - start).seconds
        let exited = status & 0x7F == 0
        return Result(
            wall: wall, user: usage.ru_utime.seconds, system: usage.ru_stime.seconds, maxRSS: Int(usage.ru_maxrss),
            status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
            output: String(decoding: output, as: UTF8.self), killedAt: killedAt)
    }

    /// This program's own executable, for running it again as a child.
    static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

extension timeval {
    var seconds: Double { Double(tv_sec) + Double(tv_usec) / 1e6 }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// A benchmark that could not run, with the reason.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
