import Foundation
import Testing

@testable import SiteGen

/// Characters no page or feed may hold (HTML's forbidden code points, XML's disallowed ones)
/// are replaced where text enters the site: front matter, `site.yml` and Markdown.
@Suite("Characters no page may hold")
struct UnshowableCharactersTests {
    /// Text of these scalars.
    static func text(_ values: UInt32...) -> String {
        var scalars = String.UnicodeScalarView()
        for value in values { scalars.append(Unicode.Scalar(value)!) }
        return String(scalars)
    }

    @Test("controls but tab and line breaks, DEL, C1 controls and noncharacters are replaced; breaks become spaces")
    func replaced() {
        let cases: [(String, String)] = [
            ("plain text, 한국어, café, 🎬", "plain text, 한국어, café, 🎬"),
            ("tab\tline\nreturn\r", "tab\tline\nreturn\r"),
            ("Word\u{0B}break, page\u{0C}break, next\u{85}line", "Word break, page break, next line"),
            ("a\u{01}b\u{1F}c\u{7F}d\u{80}e\u{9F}f", "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{FFFD}f"),
            // Noncharacters (Swift refuses U+FDD0 to U+FDEF in a literal).
            (Self.text(0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF), "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
            (Self.text(0x1FFFE, 0x78, 0x10FFFF), "\u{FFFD}x\u{FFFD}"),
            // Their neighbours stay: U+00A0, U+FDCF, U+FDF0, U+FFFD, U+FFFC, U+1FFFD.
            ("\u{A0}\u{FDCF}\u{FDF0}\u{FFFD}\u{FFFC}\u{1FFFD}", "\u{A0}\u{FDCF}\u{FDF0}\u{FFFD}\u{FFFC}\u{1FFFD}"),
        ]
        for (text, expected) in cases {
            #expect(text.replacingUnshowable().unicodeScalars.elementsEqual(expected.unicodeScalars), "\(text)")
        }
    }

    @Test("found at every place in a long text, across the 16-byte runs it is read in, and only there")
    func everyPlace() {
        let unshowable: [(UInt32, String)] = [
            (0x0B, " "), (0x01, "\u{FFFD}"), (0x85, " "), (0x9F, "\u{FFFD}"), (0xFDD0, "\u{FFFD}"),
            (0xFFFF, "\u{FFFD}"), (0x1FFFE, "\u{FFFD}"),
        ]
        let shown: [UInt32] = [0x09, 0x0A, 0xA0, 0xFDCF, 0xFFFD, 0x1F3AC, 0xD55C]
        for before in 0..<40 {
            for filler in ["a", "한"] {
                let head = String(repeating: filler, count: before)
                let tail = String(repeating: "b\n", count: 12)
                for (value, replacement) in unshowable {
                    let text = head + Self.text(value) + tail
                    #expect(text.replacingUnshowable() == head + replacement + tail, "\(before) \(filler) \(value)")
                }
                for value in shown {
                    let text = head + Self.text(value) + tail
                    #expect(text.replacingUnshowable() == text, "\(before) \(filler) \(value)")
                }
            }
        }
    }

    @Test("a review with a pasted vertical tab, a control character and a noncharacter builds pages without them")
    func pagesHoldNone() throws {
        let folder = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        try folder.write("site.yml", "title: \"Site\\x85Name\"\nbase_url: https://example.org/\n")
        try folder.write(
            "content/movies/vt.md",
            "---\ntitle: \"A\\x85B\\uFDD0\"\ndate: 2025-01-01\ntags: [\"x\\x85y\"]\nsummary: \"One\\x85two\"\n---\n"
                + "Pasted from Word:\u{0B}second line \u{01} and \u{FFFF}.\n")
        let builder = SiteBuilder(
            options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")))
        let site = try LiveSite.build(builder)
        let unshowable = { (scalar: Unicode.Scalar) in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: false
            case 0..<0x20, 0x7F...0x9F, 0xFDD0...0xFDEF: true
            default: scalar.value & 0xFFFE == 0xFFFE
            }
        }
        var checked = 0
        for (path, data) in site.files where path.hasSuffix(".html") || path.hasSuffix(".xml") {
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.unicodeScalars.contains(where: unshowable), "\(path)")
            checked += 1
        }
        #expect(checked > 5)
        let page = try #require(site.files["movies/vt/index.html"].map { String(decoding: $0, as: UTF8.self) })
        #expect(page.contains("Pasted from Word: second line \u{FFFD} and \u{FFFD}."))
        #expect(page.contains("<title>A B\u{FFFD} · Site Name</title>"), "\(page.prefix(600))")
        #expect(page.contains("One two"))
    }

    @Test("written raw in the front matter and site.yml (not as escapes), they are replaced too, lines kept")
    func rawInFrontMatter() throws {
        let folder = try ScratchFolder()
        try folder.write("site.yml", "title: Site\u{85}Name\nbase_url: https://example.org/\n")
        try folder.write(
            "content/movies/vt.md",
            "---\ntitle: A\u{0B}B\u{01}C\u{85}D\u{FFFE}\ndate: 2025-01-01\nsummary: One\u{0C}two\n---\nWords.\n")
        let builder = SiteBuilder(
            options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")))
        let page = try #require(try LiveSite.build(builder).files["movies/vt/index.html"])
        let text = String(decoding: page, as: UTF8.self)
        #expect(text.contains("<title>A B\u{FFFD}C D\u{FFFD} · Site Name</title>"), "\(text.prefix(600))")
        #expect(text.contains("One two"))
        // A mistake after them is still at its line and column.
        try folder.write(
            "content/movies/vt.md", "---\ntitle: A\u{85}B\u{0B}C\ndate: 2025-01-01\nrating: 9\n---\nWords.\n")
        let error = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        #expect(error?.diagnostics.first?.description.hasPrefix("content/movies/vt.md:4:9: \"rating\"") == true)
    }
}
