/// Immutable bytes that several responses can send at once without copying them.
///
/// `@unchecked Sendable` because the buffer is written once, in `init`, and only read afterwards.
public final class SharedBytes: @unchecked Sendable {
    let bytes: UnsafeMutableBufferPointer<UInt8>

    /// How many bytes.
    public let count: Int

    /// A copy of `array`. (The copy is made while the array's storage is lent: a pointer
    /// taken out of `withUnsafeBytes` may outlive the array, and did in release builds.)
    public init(_ array: [UInt8]) {
        bytes = .allocate(capacity: max(array.count, 1))
        _ = bytes.initialize(from: array)
        count = array.count
    }

    /// A copy of `source`.
    public init(copying source: UnsafeRawBufferPointer) {
        bytes = .allocate(capacity: max(source.count, 1))
        if let base = source.baseAddress {
            bytes.baseAddress!.initialize(from: base.assumingMemoryBound(to: UInt8.self), count: source.count)
        }
        count = source.count
    }

    /// The bytes of `parts`, one after another, in one copy.
    public init(joining parts: [UnsafeRawBufferPointer]) {
        count = parts.reduce(0) { $0 + $1.count }
        bytes = .allocate(capacity: max(count, 1))
        var offset = 0
        for part in parts {
            if let base = part.baseAddress {
                let source = base.assumingMemoryBound(to: UInt8.self)
                (bytes.baseAddress! + offset).initialize(from: source, count: part.count)
            }
            offset += part.count
        }
    }

    public var isEmpty: Bool { count == 0 }

    /// The bytes as an array.
    public var array: [UInt8] { Array(bytes.prefix(count)) }

    /// Calls `body` with the bytes, which it must not keep.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: bytes.baseAddress, count: count))
    }

    deinit {
        bytes.deallocate()
    }
}
