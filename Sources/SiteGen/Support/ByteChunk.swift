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

    /// The eight bytes at `offset` of a buffer of `count` bytes (first byte lowest), those at
    /// `count` and past it zero: the buffer must be readable to the next multiple of eight.
    @inline(__always)
    static func load(_ raw: UnsafeRawPointer, at offset: Int, count: Int) -> UInt64 {
        let chunk = load(raw, at: offset)
        let left = count - offset
        return left < 8 ? chunk & ((1 << (UInt64(left) * 8)) - 1) : chunk
    }

    /// How many of `chunk`'s bytes, from the first (lowest), are ASCII letters or digits (0 to 8).
    @inline(__always)
    static func letterOrDigitRun(_ chunk: UInt64) -> Int {
        // Each byte below 0x80, so that no sum below carries into the next byte; bytes of 0x80
        // and above are left out by their own high bit at the end.
        let low = chunk & ~high
        let digits = within(low, UInt8(ascii: "0"), UInt8(ascii: "9"))
        let letters = within(low | (ones &* 0x20), UInt8(ascii: "a"), UInt8(ascii: "z"))
        let found = (digits | letters) & ~chunk & high
        return (~found & high).trailingZeroBitCount >> 3
    }

    /// The high bit of each byte of `low` (every byte below 0x80) that is from `first` to `last`.
    @inline(__always)
    private static func within(_ low: UInt64, _ first: UInt8, _ last: UInt8) -> UInt64 {
        let atLeastFirst = low &+ ones &* UInt64(0x80 - first)
        let pastLast = low &+ ones &* UInt64(0x7F - last)
        return atLeastFirst & ~pastLast & high
    }

    /// Whether every byte of `chunk` is printable ASCII (0x20 to 0x7E).
    @inline(__always)
    static func isPrintableASCII(_ chunk: UInt64) -> Bool {
        // Bytes of 0x80 and above are caught by their own high bit.
        (chunk & high) == 0 && !hasByteBelowSpace(chunk) && !contains(0x7F, chunk)
    }

    /// Whether no byte of `chunk` is below 0x20, 0x7F, C2, EF or F0 and above: in UTF-8, the
    /// only bytes that may start a control character or a noncharacter (see
    /// ``Swift/String/replacingUnshowable()``). Other letters pass, Hangul's among them.
    @inline(__always)
    static func holdsNoControlOrNoncharacterStart(_ chunk: UInt64) -> Bool {
        // A byte of F0 and above keeps F0 when masked with it.
        !hasByteBelowSpace(chunk) && !contains(0xF0, chunk & (ones &* 0xF0)) && !contains(0x7F, chunk)
            && !contains(0xC2, chunk) && !contains(0xEF, chunk)
    }

    /// Whether a byte of `chunk` may need an escape in a JSON string inside a `<script>`
    /// element: one below 0x20, `"`, `\\`, `<`, `>`, `&`, or E2 (which starts U+2028 and U+2029).
    /// A chunk that says yes is read byte by byte; one that says no certainly needs nothing.
    @inline(__always)
    static func mayNeedScriptEscape(_ chunk: UInt64) -> Bool {
        hasByteBelowSpace(chunk) || contains(0x22, chunk) || contains(0x5C, chunk) || contains(0x3C, chunk)
            || contains(0x3E, chunk) || contains(0x26, chunk) || contains(0xE2, chunk)
    }

    /// Whether a byte of `chunk` is below 0x20: such a byte borrows into its high bit when
    /// 0x20 is taken from it (a borrow passed on from a lower byte needs one there first).
    @inline(__always)
    private static func hasByteBelowSpace(_ chunk: UInt64) -> Bool {
        (chunk &- ones &* 0x20) & ~chunk & high != 0
    }

    /// Whether a byte of `chunk` is `byte`.
    @inline(__always)
    static func contains(_ byte: UInt8, _ chunk: UInt64) -> Bool {
        let zeroed = chunk ^ (ones &* UInt64(byte))
        return (zeroed &- ones) & ~zeroed & high != 0
    }
}
