import Foundation
import Testing

@testable import SiteGen

/// The fingerprint that tells whether a file changed between builds.
@Suite("Content hash")
struct ContentHashTests {
    @Test("every length up to 300 bytes and every single-bit change give a different fingerprint; equal bytes the same")
    func distinguishesChanges() {
        var random = SplitMix(seed: 9)
        let base = (0..<300).map { _ in UInt8.random(in: 0...255, using: &random) }
        var seen: [ContentHash: String] = [:]
        for length in 0...base.count {
            let bytes = Array(base.prefix(length))
            let hash = ContentHash(Data(bytes))
            #expect(seen.updateValue("prefix \(length)", forKey: hash) == nil, "prefix \(length)")
            #expect(bytes.withUnsafeBytes { ContentHash($0) } == hash)
        }
        for length in [7, 8, 9, 31, 63, 64, 65, 96, 100, 300] {
            for bit in 0..<(length * 8) {
                var bytes = Array(base.prefix(length))
                bytes[bit / 8] ^= 1 << UInt8(bit % 8)
                let hash = ContentHash(Data(bytes))
                #expect(seen.updateValue("\(length) flip \(bit)", forKey: hash) == nil, "\(length) flip \(bit)")
            }
        }
        #expect(ContentHash("sitegen") == ContentHash(Data("sitegen".utf8)))
        #expect(ContentHash(hex: ContentHash("x").description[...]) == ContentHash("x"))
    }

    @Test("the fingerprints are those builds have always written into output records and manifests")
    func pinned() {
        let pins: [Int: String] = [
            0: "bd86178ee6f62d82865cb92caaf4f047", 5: "d7dc019f1be047a8a704f1f4fbc89bd1",
            8: "46badbe17e564ad7e110af8091a0ec72", 31: "6c1b97b7e0b637628e052a5ce66e911c",
            32: "e59db34da950ea953101f893f292bd68", 63: "1eca3db137055beef51aaa3b776f59aa",
            64: "a6629df8606a946ea1289219208edd36", 65: "24398555ebe05fbaf91268c8959975b6",
            100: "b12a0f8077d053805ce64f75b95f9591", 1000: "a636d805b3fdff5bb785cefb2b6e4b8a",
            4099: "eb9ceb96df7012fd9f0144572068b57f",
        ]
        for (length, hex) in pins {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
            #expect(ContentHash(Data(bytes)).description == hex, "\(length) bytes")
        }
    }

    @Test("handed over in parts of multiples of 32 bytes, any bytes get the fingerprint of them all at once")
    func streamed() {
        var random = SplitMix(seed: 21)
        for length in Array(0...300) + [4096, 65_536 + 17, 1_048_576 + 5] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let whole = ContentHash(Data(bytes))
            var stream = ContentHash.Stream(count: length)
            var at = 0
            bytes.withUnsafeBytes { buffer in
                repeat {
                    // Parts of 0 to 8 blocks of 32 bytes, the rest as the last part.
                    let part = min(length - at, 32 * Int.random(in: 0...8, using: &random))
                    let end = length - at - part < 1 ? length : at + part
                    stream.take(UnsafeRawBufferPointer(rebasing: buffer[at..<end]))
                    at = end
                } while at < length
            }
            #expect(stream.hash == whole, "\(length) bytes")
        }
    }
}
