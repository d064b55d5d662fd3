import Foundation
import Synchronization

/// Waits for the first of some signals: they no longer stop the process, and the first one to
/// arrive (or one that arrived before ``wait()``) ends the wait; the same signal again stops
/// the process at once, as it would have (for a stop that hangs).
///
/// A handler of its own writes to a pipe that a thread of its own reads, so the signal counts
/// whichever thread the kernel hands it to. libdispatch's signal sources lost one now and then
/// (about one stop in twenty-five under load, at most 64 open files): a signal handed to one of
/// its worker threads was raised again on that thread, where the descriptor it reads signals
/// from, read on another thread, never saw it, and the server waited for good.
final class SignalWaiter {
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
