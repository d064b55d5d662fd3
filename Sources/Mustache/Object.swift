/// The members of an object value: string keys to values, looked up by a cheap
/// precomputed hash so rendering never runs a general-purpose hasher.
public struct Object: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence {
    let storage: ObjectStorage

    /// An object with the dictionary's members, in key order.
    public init(_ members: [String: Value]) {
        storage = ObjectStorage(members.sorted { $0.key < $1.key })
    }

    /// An object with these members in this order; a repeated key keeps its last value.
    ///
    /// With `keepsRenderings`, for an object that many renders include (a card on many
    /// pages): what a partial renders with it on top of the context stack is kept with it, and
    /// where the same partial is included with it again, as long as every name the partial
    /// looked up outside the object finds the same value, those bytes are written again.
    public init(pairs: [(key: String, value: Value)], keepsRenderings: Bool = false) {
        self.init(storing: pairs, keepsRenderings: keepsRenderings)
    }

    /// ``init(pairs:keepsRenderings:)`` from pairs written in place (a page model's members),
    /// read straight into the object: no array of them is made first.
    public init(members: KeyValuePairs<String, Value>, keepsRenderings: Bool = false) {
        self.init(storing: members, keepsRenderings: keepsRenderings)
    }

    private init<Pairs: Collection<(key: String, value: Value)>>(storing pairs: Pairs, keepsRenderings: Bool) {
        let storage = ObjectStorage(pairs, keepsRenderings: keepsRenderings)
        guard storage.hasRepeatedKeys else {
            self.storage = storage
            return
        }
        var unique: [(key: String, value: Value)] = []
        for pair in pairs {
            if let index = unique.firstIndex(where: { $0.key == pair.key }) {
                unique[index].value = pair.value
            } else {
                unique.append(pair)
            }
        }
        self.storage = ObjectStorage(unique, keepsRenderings: keepsRenderings)
    }

    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(pairs: elements.map { (key: $0.0, value: $0.1) })
    }

    /// The value for `key`, if the object has one.
    public subscript(key: String) -> Value? {
        storage.index(of: key, hash: ObjectStorage.hash(key)).map { storage.value(at: $0) }
    }

    public var count: Int { storage.count }

    /// The keys, in the object's order.
    public var keys: [String] { (0..<storage.count).map { storage.key(at: $0) } }

    /// The members as a dictionary.
    public var dictionary: [String: Value] {
        Dictionary(
            (0..<storage.count).map { (storage.key(at: $0), storage.value(at: $0)) },
            uniquingKeysWith: { _, last in last })
    }

    public func makeIterator() -> AnyIterator<(key: String, value: Value)> {
        var index = 0
        let storage = self.storage
        return AnyIterator {
            guard index < storage.count else { return nil }
            defer { index += 1 }
            return (storage.key(at: index), storage.value(at: index))
        }
    }

    /// Equal when they have the same keys with equal values, in any order.
    public static func == (lhs: Object, rhs: Object) -> Bool {
        if lhs.storage === rhs.storage { return true }
        guard lhs.count == rhs.count else { return false }
        let left = lhs.storage
        let right = rhs.storage
        for index in 0..<left.count {
            // Objects made by the same code list their keys in the same order: look across first.
            guard let other = right.index(matching: index, of: left) else { return false }
            if left.value(at: index) != right.value(at: other) { return false }
        }
        return true
    }
}

/// The members in one buffer of (hash, key, value) entries, and for larger objects an
/// open-addressing index; immutable after `init`, so lookups while rendering read it
/// without reference counting the tables.
final class ObjectStorage: @unchecked Sendable {
    private struct Entry {
        let hash: Int
        let key: String
        let value: Value
    }

    let count: Int
    /// One bit per key, at its hash modulo 64: a key whose bit is clear is not here, which
    /// a lookup through the contexts of a template learns without reading the entries.
    private let keyBits: UInt64
    private let entries: UnsafeMutableBufferPointer<Entry>
    /// Slots holding `index + 1` (0 is empty); empty for objects of up to `linearLimit` members.
    private let table: UnsafeMutableBufferPointer<Int32>

    static let linearLimit = 12

    /// What partials rendered with this object, when it keeps renderings.
    let memo: RenderMemo?

    init<Pairs: Collection<(key: String, value: Value)>>(_ members: Pairs, keepsRenderings: Bool = false) {
        memo = keepsRenderings ? RenderMemo() : nil
        count = members.count
        entries = .allocate(capacity: max(count, 1))
        var bits: UInt64 = 0
        var index = 0
        for member in members {
            let hash = Self.hash(member.key)
            bits |= 1 << UInt64(hash & 63)
            (entries.baseAddress! + index).initialize(to: Entry(hash: hash, key: member.key, value: member.value))
            index += 1
        }
        keyBits = bits
        guard count > Self.linearLimit else {
            table = UnsafeMutableBufferPointer(start: nil, count: 0)
            return
        }
        var capacity = 1
        while capacity < count * 2 { capacity <<= 1 }
        table = .allocate(capacity: capacity)
        table.initialize(repeating: 0)
        for index in 0..<count {
            var slot = entries[index].hash & (capacity - 1)
            while table[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            table[slot] = Int32(index + 1)
        }
    }

    deinit {
        _ = entries.prefix(count).deinitialize()
        entries.deallocate()
        if table.count > 0 { table.deallocate() }
    }

    /// Whether two members share a key (the first one would hide the other).
    var hasRepeatedKeys: Bool {
        // Keys whose hashes set as many bits as there are keys are all different (most objects).
        guard keyBits.nonzeroBitCount < count else { return false }
        return (0..<count).contains { index in self.index(of: entries[index].key, hash: entries[index].hash) != index }
    }

    @inline(__always)
    func value(at index: Int) -> Value { entries[index].value }

    /// The storage of the value at `index` when it is an object, unretained (this storage
    /// holds it).
    @inline(__always)
    func object(at index: Int) -> Unmanaged<ObjectStorage>? {
        if case .object(let members) = entries[index].value { return .passUnretained(members.storage) }
        return nil
    }

    /// Lends the value at `index` to `body` where it is stored.
    @inline(__always)
    func withValue<Result>(at index: Int, _ body: (borrowing Value) -> Result) -> Result {
        body(entries[index].value)
    }

    func key(at index: Int) -> String { entries[index].key }

    /// Where the key of `other`'s member at `index` sits here: at the same index when the
    /// two list their keys alike, else wherever the lookup finds it.
    func index(matching index: Int, of other: ObjectStorage) -> Int? {
        let entry = other.entries[index]
        if index < count, entries[index].hash == entry.hash, entries[index].key == entry.key { return index }
        return self.index(of: entry.key, hash: entry.hash)
    }

    /// Where `key` (whose ``hash(_:)`` is `hash`) sits, if present.
    @inline(__always)
    func index(of key: String, hash: Int) -> Int? {
        guard keyBits & (1 << UInt64(hash & 63)) != 0 else { return nil }
        if table.count == 0 {
            for index in 0..<count where entries[index].hash == hash && entries[index].key == key { return index }
            return nil
        }
        let mask = table.count - 1
        var slot = hash & mask
        while table[slot] != 0 {
            let index = Int(table[slot]) - 1
            if entries[index].hash == hash && entries[index].key == key { return index }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// A hash of the UTF-8 bytes read eight at a time, then mixed so that every byte reaches
    /// the low bits a lookup uses: stable, and fast for the short keys templates use (every
    /// member of every object a page is made of is hashed once; byte by byte that was a
    /// hundredth of a large site's build).
    static func hash(_ key: String) -> Int {
        var key = key
        var hash = key.withUTF8 { bytes in
            // An empty key reads nothing, whether or not it has a buffer, and hashes alike.
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
            guard let base = bytes.baseAddress else { return hash }
            let (raw, count) = (UnsafeRawPointer(base), bytes.count)
            var at = 0
            while at + 8 <= count {
                hash =
                    (hash ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
                    &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 32
                at += 8
            }
            // The last 0 to 7 bytes in at most two reads that may overlap: a byte read twice
            // lands in the same place both times.
            let left = count - at
            if left >= 4 {
                let low = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
                let high = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
                hash ^= low | high << (UInt64(left - 4) * 8)
            } else if left > 0 {
                hash ^=
                    UInt64(base[at]) | UInt64(base[at + left / 2]) << (UInt64(left / 2) * 8)
                    | UInt64(base[count - 1]) << (UInt64(left - 1) * 8)
            }
            return hash
        }
        hash &*= 0x9E37_79B9_7F4A_7C15
        // Murmur3's finish: each bit of the input reaches each bit of the output.
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash)
    }
}
