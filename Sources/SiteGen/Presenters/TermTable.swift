import Foundation

/// The keys of one family met in a run of reviews (taken in ascending rank), each with the
/// ranks of the reviews that have it: an open-addressing table over the keys' FNV hashes, so
/// that a word already met costs one hash of its few bytes and no allocation.
struct TermTable: SearchKeySink {
    private var keys: [SearchKey] = []
    private var hashes: [UInt64] = []
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

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        let hash = SearchText.hash(bytes)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let number = Int(slots[slot] - 1)
            if hashes[number] == hash && Self.equal(keys[number].bytes, bytes) {
                if ranks[number].last != rank {
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
        ranks.append([rank])
        if keepsTerms { current.append(key) }
        if keys.count * 2 > slots.count { grow() }
    }

    private static func equal(_ key: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        key.count == bytes.count
            && key.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
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
