import Testing

@testable import SiteGen

/// The helpers that spread work over the cores give what their serial counterparts give.
@Suite("Work on every core")
struct ParallelTests {
    @Test(
        "parallelMap keeps the order, for any count and any number of runs per core",
        arguments: [0, 1, 2, 7, 1_000, 20_001])
    func mapKeepsOrder(count: Int) {
        let numbers = Array(0..<count)
        for runs in [1, 4, 256] {
            #expect(numbers.parallelMap(chunksPerCore: runs) { $0 * 3 + 1 } == numbers.map { $0 * 3 + 1 })
        }
    }

    @Test("parallelSorted equals a stable sort: ties keep their order", arguments: [10, 300, 5_000, 40_000])
    func sortIsStable(count: Int) {
        var generator = SplitMix(seed: UInt64(count))
        // Few distinct keys, so that most elements tie with many others.
        let items = (0..<count).map { (key: Int.random(in: 0..<50, using: &generator), position: $0) }
        let sorted = items.parallelSorted { $0.key < $1.key }
        let expected = items.sorted { ($0.key, $0.position) < ($1.key, $1.position) }
        #expect(sorted.map(\.key) == expected.map(\.key))
        #expect(sorted.map(\.position) == expected.map(\.position))
    }
}
