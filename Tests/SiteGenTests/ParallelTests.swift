import Dispatch
import Synchronization
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

    @Test("parallelFilter keeps what filter keeps, in order", arguments: [0, 1, 2, 7, 1_000, 20_001])
    func filterKeepsOrder(count: Int) {
        let numbers = Array(0..<count)
        #expect(numbers.parallelFilter { $0 % 3 == 1 } == numbers.filter { $0 % 3 == 1 })
        #expect(numbers.parallelFilter { _ in false } == [])
        #expect(numbers.parallelFilter { _ in true } == numbers)
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

    @Test("a shared part asked for on every core at once is made once, and each gets it")
    func sharedPartMadeOnce() {
        let parts = Mutex<[Int: Presentation.SharedParts.Slot<[Int]>]>([:])
        let made = Mutex<[Int: Int]>([:])
        let seen = Mutex<[[Int]]>([])
        // 64 askers, 16 in a row for each of four parts: making a part takes a while, so on
        // two cores a second asker of a part comes while the first is still making it.
        DispatchQueue.concurrentPerform(iterations: 64) { asker in
            let key = asker / 16
            let part = Presentation.SharedParts.value(in: parts, for: key) {
                made.withLock { $0[key, default: 0] += 1 }
                var spin = 0
                for step in 0..<200_000 { spin &+= step }
                return [key, spin == 0 ? -1 : key * 10]
            }
            seen.withLock { $0.append(part) }
        }
        #expect(made.withLock { $0 } == [0: 1, 1: 1, 2: 1, 3: 1])
        let got = seen.withLock { $0 }
        #expect(got.count == 64)
        #expect(Set(got) == [[0, 0], [1, 10], [2, 20], [3, 30]])
    }
}
