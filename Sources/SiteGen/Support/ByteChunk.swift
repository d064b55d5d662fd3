/// Eight bytes of text read as one number, for scans that pass over plain ASCII at once and
/// look at single bytes only where a chunk holds one they look for.
enum ByteChunk {
    private static let high: UInt64 = 0x8080_8080_8080_8080
    private static let ones: UInt64 = 0x0101_0101_0101_0101

    /// The eight bytes at `offset` of `raw`, the first one lowest.
    @inline(__always)
    static func load(_ raw: UnsafeRawPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Whether every byte of `chunk` is printable ASCII (0x20 to 0x7E).
    @inline(__always)
    static func isPrintableASCII(_ chunk: UInt64) -> Bool {
        // A byte below 0x20 borrows into its high bit when 0x20 is taken from it (bytes of
        // 0x80 and above are caught by their own high bit).
        let below = (chunk &- ones &* 0x20) & ~chunk & high
        return (chunk & high) | below == 0 && !contains(0x7F, chunk)
    }

    /// Whether a byte of `chunk` is `byte`.
    @inline(__always)
    static func contains(_ byte: UInt8, _ chunk: UInt64) -> Bool {
        let zeroed = chunk ^ (ones &* UInt64(byte))
        return (zeroed &- ones) & ~zeroed & high != 0
    }
}
