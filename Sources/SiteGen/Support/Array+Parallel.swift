import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

extension Array where Element: Sendable {
    /// `map` spread over every core; the results keep the input's order.
    func parallelMap<T: Sendable>(_ transform: @Sendable (Element) -> T) -> [T] {
        guard count > 1 else { return map(transform) }
        let results = ResultSlots<T>(count: count)
        let chunk = Swift.max(1, count / (ProcessInfoCores.count * 4))
        let chunks = (count + chunk - 1) / chunk
        self.withUnsafeBufferPointer { elements in
            let input = UnsafeSendable(elements)
            DispatchQueue.concurrentPerform(iterations: chunks) { index in
                let lower = index * chunk
                for position in lower..<Swift.min(lower + chunk, input.value.count) {
                    results.set(position, transform(input.value[position]))
                }
            }
        }
        return results.collect()
    }
}

/// The number of cores to spread work over.
enum ProcessInfoCores {
    static let count: Int = {
        #if canImport(Glibc)
            return Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
            return 4
        #endif
    }()
}

/// Write-once slots filled from several threads, each slot by exactly one of them.
private final class ResultSlots<T>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<T?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        _ = slots.deinitialize()
        slots.deallocate()
    }

    func set(_ index: Int, _ value: T) { slots[index] = value }

    func collect() -> [T] { slots.map { $0! } }
}

/// A read-only buffer handed to worker threads that only read it.
private struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
