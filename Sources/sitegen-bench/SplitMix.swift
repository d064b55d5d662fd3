/// A small deterministic random number generator (SplitMix64), so a seed always gives the same site.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A generator for one item, independent of how many items come before it.
    init(seed: UInt64, stream: Int) {
        var mixer = SplitMix(seed: seed ^ (UInt64(truncatingIfNeeded: stream) &* 0xD6E8_FEB8_6659_FD93))
        state = mixer.next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < probability
    }

    /// One element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T {
        items[Int(next() % UInt64(items.count))]
    }

    /// `count` different elements of `items`, in the order drawn.
    mutating func pick<T>(_ count: Int, of items: [T]) -> [T] {
        var indices = Array(items.indices)
        var chosen: [T] = []
        for _ in 0..<min(count, items.count) {
            chosen.append(items[indices.remove(at: Int(next() % UInt64(indices.count)))])
        }
        return chosen
    }

    /// `count` different elements of `items` like ``pick(_:of:)`` (the same draws), without
    /// copying the indices of a long list for each pick: past 64 items, drawn again on a repeat.
    mutating func pickFew<T>(_ count: Int, of items: [T]) -> [T] {
        guard items.count > 64 else { return pick(count, of: items) }
        var chosen: Set<Int> = []
        var order: [Int] = []
        while order.count < count {
            let index = Int(next() % UInt64(items.count))
            if chosen.insert(index).inserted { order.append(index) }
        }
        return order.map { items[$0] }
    }
}
