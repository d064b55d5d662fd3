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

    /// Whether no byte of `chunk` is below 0x20, 0x7F, C2, EF or F0 and above: in UTF-8, the
    /// only bytes that may start a control character or a noncharacter (see
    /// ``Swift/String/replacingUnshowable()``). Other letters pass, Hangul's among them.
    @inline(__always)
    static func holdsNoControlOrNoncharacterStart(_ chunk: UInt64) -> Bool {
        let below = (chunk &- ones &* 0x20) & ~chunk & high
        // A byte of F0 and above keeps F0 when masked with it.
        let top = (chunk & (ones &* 0xF0)) ^ (ones &* 0xF0)
        let isTop = (top &- ones) & ~top & high
        return below | isTop == 0 && !contains(0x7F, chunk) && !contains(0xC2, chunk) && !contains(0xEF, chunk)
    }

    /// Whether a byte of `chunk` is `byte`.
    @inline(__always)
    static func contains(_ byte: UInt8, _ chunk: UInt64) -> Bool {
        let zeroed = chunk ^ (ones &* UInt64(byte))
        return (zeroed &- ones) & ~zeroed & high != 0
    }
}
