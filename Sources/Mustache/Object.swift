/// The members of an object value: string keys to values, looked up by a cheap
/// precomputed hash so rendering never runs a general-purpose hasher.
public struct Object: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence {
    let storage: ObjectStorage

    public init(_ members: [String: Value]) {
        storage = ObjectStorage(members.sorted { $0.key < $1.key })
    }

    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// The value for `key`, if the object has one.
    public subscript(key: String) -> Value? {
        storage.index(of: key, hash: ObjectStorage.hash(key)).map { storage.value(at: $0) }
    }

    public var count: Int { storage.keys.count }

    /// The keys, sorted.
    public var keys: [String] { storage.keys }

    /// The members as a dictionary.
    public var dictionary: [String: Value] {
        Dictionary(uniqueKeysWithValues: zip(storage.keys, storage.values))
    }

    public func makeIterator() -> Zip2Sequence<[String], [Value]>.Iterator {
        zip(storage.keys, storage.values).makeIterator()
    }

    public static func == (lhs: Object, rhs: Object) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.storage.keys == rhs.storage.keys && lhs.storage.values == rhs.storage.values)
    }
}

/// Keys sorted, their hashes, values, and for larger objects an open-addressing index.
///
/// Immutable after `init`; the member tables live in buffers it owns so that lookups
/// during rendering read them without reference counting.
final class ObjectStorage: @unchecked Sendable {
    let keys: [String]
    let values: [Value]
    private let hashBuffer: UnsafeMutableBufferPointer<Int>
    private let keyBuffer: UnsafeMutableBufferPointer<String>
    private let valueBuffer: UnsafeMutableBufferPointer<Value>
    /// Slots holding `index + 1` (0 is empty); only for objects above `linearLimit` members.
    private let table: UnsafeMutableBufferPointer<Int32>

    static let linearLimit = 12

    init(_ members: [(key: String, value: Value)]) {
        keys = members.map(\.key)
        values = members.map(\.value)
        hashBuffer = .allocate(capacity: max(keys.count, 1))
        _ = hashBuffer.initialize(from: keys.map(Self.hash))
        keyBuffer = .allocate(capacity: max(keys.count, 1))
        _ = keyBuffer.initialize(from: keys)
        valueBuffer = .allocate(capacity: max(keys.count, 1))
        _ = valueBuffer.initialize(from: values)
        guard keys.count > Self.linearLimit else {
            table = .allocate(capacity: 0)
            return
        }
        var capacity = 1
        while capacity < keys.count * 2 { capacity <<= 1 }
        table = .allocate(capacity: capacity)
        table.initialize(repeating: 0)
        for index in keys.indices {
            var slot = hashBuffer[index] & (capacity - 1)
            while table[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            table[slot] = Int32(index + 1)
        }
    }

    deinit {
        hashBuffer.deallocate()
        _ = keyBuffer.prefix(keys.count).deinitialize()
        keyBuffer.deallocate()
        _ = valueBuffer.prefix(values.count).deinitialize()
        valueBuffer.deallocate()
        table.deallocate()
    }

    /// The value at `index` (from ``index(of:hash:)``).
    @inline(__always)
    func value(at index: Int) -> Value { valueBuffer[index] }

    /// Where `key` (whose ``hash(_:)`` is `hash`) sits, if present.
    @inline(__always)
    func index(of key: String, hash: Int) -> Int? {
        if table.isEmpty {
            for index in 0..<keys.count where hashBuffer[index] == hash && keyBuffer[index] == key { return index }
            return nil
        }
        let mask = table.count - 1
        var slot = hash & mask
        while table[slot] != 0 {
            let index = Int(table[slot]) - 1
            if hashBuffer[index] == hash && keyBuffer[index] == key { return index }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// FNV-1a over the UTF-8 bytes: stable, fast for the short keys templates use.
    static func hash(_ key: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }
}
