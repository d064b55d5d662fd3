/// Immutable bytes that several responses can send at once without copying them.
///
/// `@unchecked Sendable` because the buffer is written once, in `init`, and only read afterwards.
public final class SharedBytes: @unchecked Sendable {
    let bytes: UnsafeMutableBufferPointer<UInt8>

    /// How many bytes.
    public let count: Int

    public init(_ array: [UInt8]) {
        bytes = .allocate(capacity: max(array.count, 1))
        _ = bytes.initialize(from: array)
        count = array.count
    }

    public var isEmpty: Bool { count == 0 }

    /// The bytes as an array.
    public var array: [UInt8] { Array(bytes.prefix(count)) }

    deinit {
        bytes.deallocate()
    }
}
