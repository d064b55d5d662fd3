import Foundation

/// The keys of one family met in a run of reviews (taken in ascending rank), each with the
/// ranks of the reviews that have it: an open-addressing table over the keys' hashes, so
/// that a word already met costs one hash of its few bytes and no allocation.
struct TermTable: SearchKeySink {
    private var keys: [SearchKey] = []
    private var hashes: [UInt64] = []
    /// Every key's bytes one after another, each padded with zeros to a multiple of eight
    /// bytes, and where each key starts: a key met again is compared here eight bytes at a
    /// time, without reading (and retaining) its ``SearchKey``.
    private var arena: [UInt64] = []
    private var starts: [Int32] = []
    private var lengths: [Int32] = []
    /// The rank each key was last met in.
    private var lastRanks: [Int32] = []
    /// The key number of each time a review met a key for the first time, in the order met,
    /// and the rank of the review each run of them belongs to (with where the run starts):
    /// flat lists, grouped by key only when the postings are asked for.
    private var hits: [Int32] = []
    private var runs: [(rank: Int32, start: Int)] = []
    /// For each slot, the key's hash (high 32 bits) and its number + 1 (low 32 bits), 0 when
    /// empty: a slot of another key is nearly always told apart here. The count is a power of two.
    private var slots = [UInt64](repeating: 0, count: 1 << 12)
    /// The part of a slot (and of a key's hash) that is the hash's tag.
    private static let tagBits: UInt64 = 0xFFFF_FFFF_0000_0000
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
        runs.append((rank, hits.count))
        if keepsTerms { current = [] }
    }

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) {
        let mask = slots.count - 1
        let tag = hash & Self.tagBits
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            if entry & Self.tagBits == tag {
                let number = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
                if holds(number, bytes) {
                    if lastRanks[number] != rank {
                        lastRanks[number] = rank
                        hits.append(Int32(truncatingIfNeeded: number))
                        if keepsTerms { current.append(keys[number]) }
                    }
                    return
                }
            }
            slot = (slot + 1) & mask
        }
        let number = keys.count
        let key = SearchKey(bytes: Array(bytes))
        slots[slot] = tag | UInt64(number + 1)
        keys.append(key)
        hashes.append(hash)
        starts.append(Int32(arena.count))
        lengths.append(Int32(bytes.count))
        let raw = UnsafeRawPointer(bytes.baseAddress!)
        var at = 0
        while at < bytes.count {
            arena.append(ByteChunk.load(raw, at: at, count: bytes.count))
            at += 8
        }
        lastRanks.append(rank)
        hits.append(Int32(number))
        if keepsTerms { current.append(key) }
        if keys.count * 2 > slots.count { grow() }
    }

    /// Whether key `number` is `bytes`.
    @inline(__always)
    private func holds(_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard Int(lengths[number]) == bytes.count else { return false }
        let raw = UnsafeRawPointer(bytes.baseAddress!)
        var chunk = Int(starts[number])
        var at = 0
        while at < bytes.count {
            if arena[chunk] != ByteChunk.load(raw, at: at, count: bytes.count) { return false }
            chunk += 1
            at += 8
        }
        return true
    }

    /// Every key with its ranks, ascending.
    var postings: [SearchKey: [Int32]] {
        // How many reviews met each key, then each key's ranks in rank order (the runs are).
        var counts = [Int](repeating: 0, count: keys.count + 1)
        for number in hits { counts[Int(number) + 1] += 1 }
        for number in keys.indices { counts[number + 1] += counts[number] }
        var ranks = [Int32](repeating: 0, count: hits.count)
        var next = counts
        for (index, run) in runs.enumerated() {
            let end = index + 1 < runs.count ? runs[index + 1].start : hits.count
            for at in run.start..<end {
                let number = Int(hits[at])
                ranks[next[number]] = run.rank
                next[number] += 1
            }
        }
        var postings: [SearchKey: [Int32]] = [:]
        postings.reserveCapacity(keys.count)
        for (number, key) in keys.enumerated() {
            postings[key] = Array(ranks[counts[number]..<counts[number + 1]])
        }
        return postings
    }

    private mutating func grow() {
        slots = [UInt64](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (number, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = hash & Self.tagBits | UInt64(number + 1)
        }
    }
}
