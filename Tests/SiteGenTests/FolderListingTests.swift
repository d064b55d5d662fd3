import Foundation
import Testing

@testable import SiteGen

/// Reading folders fast must not change what is read: control characters are found in a
/// name's bytes as in its characters.
@Suite("Folder listing")
struct FolderListingTests {
    static let pieces = [
        "a", "B", "z", "-", "_", "0", "9", ".", "review", "é", "e\u{301}", "É", "ß", "기생충", "\u{1100}\u{1161}",
        "😀", "Z", "aa", "", "~", "\u{7F}", "\u{85}", "\t", "ﬁ", "İ",
    ]

    static func names(_ count: Int, seed: UInt64) -> [String] {
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        return (0..<count).map { _ in (0..<(1 + next() % 4)).map { _ in pieces[next() % pieces.count] }.joined() }
    }

    @Test("a control character is found in any name, as in its characters")
    func controlCharacters() {
        func byCharacters(_ name: String) -> Bool {
            name.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }
        for name in Self.names(3000, seed: 99) + ["plain.md", "tab\there.md", "del\u{7F}.md", "nel\u{85}.md", "\u{0}"] {
            #expect(SiteFolder.hasControlCharacter(name) == byCharacters(name), "\(name.debugDescription)")
        }
        #expect(SiteFolder.hasControlCharacter("a\tb") && SiteFolder.hasControlCharacter("e\u{301}\u{9F}"))
        #expect(!SiteFolder.hasControlCharacter("기생충-review.md"))
    }
}
