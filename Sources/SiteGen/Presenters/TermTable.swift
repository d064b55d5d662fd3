import Foundation

/// The keys of one family met in a run of reviews (taken in ascending rank), each with the
/// ranks of the reviews that have it: an open-addressing table over the keys' hashes, so
/// that a word already met costs one hash of its few bytes and no allocation.
struct TermTable: SearchKeySink {
    private var keys: [SearchKey] = []
    private var hashes: [UInt64] = []
    /// Every key's bytes one after another, and where each key starts (one more for the end):
    /// a key met again is compared here, without reading (and retaining) its ``SearchKey``.
    private var arena: [UInt8] = []
    private var starts: [Int32] = [0]
    /// The rank each key was last met in, beside its list of ranks.
    private var lastRanks: [Int32] = []
    private var ranks: [[Int32]] = []
    /// Key number + 1 in each slot, 0 when empty; the count is a power of two.
    private var slots = [Int32](repeating: 0, count: 1 << 12)
    private var rank: Int32 = -1
    private let keepsTerms: Bool
    /// The distinct keys of the review being read (only when `keepsTerms`).
    private(set) var current: [SearchKey] = []

    init(keepsTerms: Bool) {
        self.keepsTerms = keepsTerms
    }

    /// Starts reading the review ranked `rank` (higher than any before).
    mutating func start(_ rank: Int32) {
        self.rank = rank
        if keepsTerms { current = [] }
    }

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let number = Int(slots[slot] - 1)
            if hashes[number] == hash && holds(number, bytes) {
                if lastRanks[number] != rank {
                    lastRanks[number] = rank
                    ranks[number].append(rank)
                    if keepsTerms { current.append(keys[number]) }
                }
                return
            }
            slot = (slot + 1) & mask
        }
        let key = SearchKey(bytes: Array(bytes))
        slots[slot] = Int32(keys.count + 1)
        keys.append(key)
        hashes.append(hash)
        arena.append(contentsOf: bytes)
        starts.append(Int32(arena.count))
        lastRanks.append(rank)
        ranks.append([rank])
        if keepsTerms { current.append(key) }
        if keys.count * 2 > slots.count { grow() }
    }

    /// Whether key `number` is `bytes`.
    private func holds(_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(starts[number])
        guard Int(starts[number + 1]) - start == bytes.count else { return false }
        return arena.withUnsafeBufferPointer { memcmp($0.baseAddress! + start, bytes.baseAddress!, bytes.count) == 0 }
    }

    /// Every key with its ranks, ascending.
    var postings: [SearchKey: [Int32]] {
        Dictionary(uniqueKeysWithValues: zip(keys, ranks))
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (number, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number + 1)
        }
    }
}
