import EventHTTP
import Testing

/// The bytes the preview server sends: copied while the source is still alive.
@Suite("Shared bytes")
struct SharedBytesTests {
    @Test("bytes made from arrays that die at once keep their own copy (served pages crashed in release builds)")
    func copiesTemporaryArrays() {
        // Many short-lived arrays of various sizes, each dropped as soon as it is copied: a copy
        // that read the array's storage after it was freed would see other arrays' bytes.
        let copies = (0..<2_000).map { number in
            SharedBytes([UInt8](repeating: UInt8(number % 251), count: 1 + number * 37 % 70_000))
        }
        for (number, copy) in copies.enumerated() {
            #expect(copy.count == 1 + number * 37 % 70_000)
            #expect(copy.withUnsafeBytes { $0.allSatisfy { $0 == UInt8(number % 251) } })
        }
        #expect(SharedBytes([]).isEmpty)
        #expect(SharedBytes(Array("abc".utf8)).array == Array("abc".utf8))
    }
}
