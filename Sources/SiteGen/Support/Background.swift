import Dispatch

/// A value made on another thread while the caller goes on with other work; ``value`` waits
/// for it. For serial work that would otherwise run at the end of a build with one core idle.
final class Background<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchGroup()
    /// Written once by the worker before it leaves `done`; read only after waiting on it.
    private var result: Value?

    init(_ make: @escaping @Sendable () -> Value) {
        done.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            result = make()
            done.leave()
        }
    }

    /// The value, once made.
    var value: Value {
        done.wait()
        return result!
    }
}
