import Foundation

/// A 128-bit fingerprint of bytes, for telling whether a file changed between builds.
///
/// Not cryptographic: the bytes come from the site's own author, and a build compares
/// fingerprints only to skip work it would redo with the same result. Independent 64-bit
/// lanes (four over long inputs) read eight bytes each at a time, so hashing costs far
/// less than writing.
public struct ContentHash: Sendable, Hashable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The fingerprint of `bytes`.
    public init(_ bytes: UnsafeRawBufferPointer) {
        var stream = Stream(count: bytes.count)
        stream.take(bytes)
        self = stream.hash!
    }

    public init(_ data: Data) {
        self = data.withUnsafeBytes { ContentHash($0) }
    }

    public init(_ text: String) {
        var text = text
        self = text.withUTF8 { ContentHash(UnsafeRawBufferPointer($0)) }
    }

    /// The fingerprint of several parts, each kept apart from its neighbours.
    public init(combining parts: [ContentHash]) {
        var bytes: [UInt64] = []
        bytes.reserveCapacity(parts.count * 2)
        for part in parts {
            bytes.append(part.high)
            bytes.append(part.low)
        }
        self = bytes.withUnsafeBytes { ContentHash($0) }
    }

    /// 32 hexadecimal digits.
    public var description: String {
        Self.hex(high) + Self.hex(low)
    }

    /// Reads 32 hexadecimal digits back.
    public init?(hex text: Substring) {
        var text = String(text)
        guard let hash = text.withUTF8({ ContentHash(hex: $0[...]) }) else { return nil }
        self = hash
    }

    /// Reads 32 hexadecimal digits back from a record's bytes.
    init?(hex bytes: RecordBytes) {
        guard bytes.count == 32, let high = bytes.prefix(16).hexadecimal, let low = bytes.suffix(16).hexadecimal
        else { return nil }
        self.init(high: high, low: low)
    }

    /// The fingerprint of `count` bytes handed over in parts (a large file read a chunk at a
    /// time), the same as of all of them at once: every part but the last must be a multiple
    /// of 32 bytes, so that parts end where the lanes' blocks do.
    struct Stream {
        let count: Int
        /// How many bytes were taken so far.
        private(set) var taken = 0
        /// The fingerprint, once `count` bytes were taken.
        private(set) var hash: ContentHash?
        private var a: UInt64
        private var b: UInt64
        private var c: UInt64
        private var d: UInt64

        init(count: Int) {
            self.count = count
            a = 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)
            b = 0xC2B2_AE3D_27D4_EB4F &+ UInt64(count)
            c = 0x1656_67B1_9E37_79F9 ^ UInt64(count)
            d = 0x27D4_EB2F_1656_67C5 &+ UInt64(count)
        }

        /// Takes the next part.
        @inline(__always)
        mutating func take(_ bytes: UnsafeRawBufferPointer) {
            let last = taken + bytes.count == count
            precondition(hash == nil && taken + bytes.count <= count && (last || bytes.count % 32 == 0))
            taken += bytes.count
            var offset = 0
            let end = bytes.count
            if count >= 64 {
                // Four lanes over 32 bytes at a time, so that the multiplications overlap.
                while offset + 32 <= end {
                    let word = { (at: Int) in bytes.loadUnaligned(fromByteOffset: offset + at, as: UInt64.self) }
                    a = ContentHash.mix(a ^ word(0), 0xFF51_AFD7_ED55_8CCD)
                    b = ContentHash.mix(b &+ word(8), 0xC4CE_B9FE_1A85_EC53)
                    c = ContentHash.mix(c ^ word(16), 0x9FB2_1C65_1E98_DF25)
                    d = ContentHash.mix(d &+ word(24), 0xD6E8_FEB8_6659_FD93)
                    offset += 32
                }
                guard last else { return }
                a = ContentHash.mix(a ^ c, 0xFF51_AFD7_ED55_8CCD)
                b = ContentHash.mix(b &+ d, 0xC4CE_B9FE_1A85_EC53)
            }
            while offset + 8 <= end {
                let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                a = ContentHash.mix(a ^ word, 0xFF51_AFD7_ED55_8CCD)
                b = ContentHash.mix(b &+ word, 0xC4CE_B9FE_1A85_EC53)
                offset += 8
            }
            guard last else { return }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while offset < end {
                tail |= UInt64(bytes[offset]) << shift
                shift += 8
                offset += 1
            }
            hash = ContentHash(
                high: ContentHash.finish(ContentHash.mix(a ^ tail, 0xFF51_AFD7_ED55_8CCD)),
                low: ContentHash.finish(ContentHash.mix(b &+ tail, 0xC4CE_B9FE_1A85_EC53)))
        }
    }

    @inline(__always)
    private static func mix(_ value: UInt64, _ multiplier: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: multiplier)
        return product.high ^ product.low
    }

    @inline(__always)
    private static func finish(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x = x &* 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x = x &* 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return x
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
