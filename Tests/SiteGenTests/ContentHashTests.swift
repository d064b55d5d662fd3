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
}
