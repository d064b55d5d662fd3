import CommonMark
import Foundation
import Testing

@Suite("Markdown adapter: bytes")
struct MarkdownBytesTests {
    @Test("the byte entry point renders what the text one renders")
    func sameAsText() {
        let text = "# 기생충\n\nThe *stairs* and `code`\n"
        let fromBytes = Array(text.utf8).withUnsafeBytes { Markdown.render($0, allowRawHTML: false) }
        #expect(fromBytes == Markdown.render(text, allowRawHTML: false))
        #expect(fromBytes.firstParagraph == "The stairs and code")
        #expect(fromBytes.wordCount == 5)
    }

    @Test("NUL and bytes that are not UTF-8 become U+FFFD; no bytes is an empty document")
    func hostileBytes() {
        let bytes: [UInt8] = Array("a".utf8) + [0x00, 0xFF, 0xC3] + Array(" b\n".utf8)
        let rendered = bytes.withUnsafeBytes { Markdown.render($0, allowRawHTML: true) }
        #expect(rendered.html == "<p>a\u{FFFD}\u{FFFD}\u{FFFD} b</p>\n")
        #expect(rendered.wordCount == 2)
        let empty = Markdown.render(UnsafeRawBufferPointer(start: nil, count: 0), allowRawHTML: false)
        #expect(empty == RenderedMarkdown(html: "", firstParagraph: "", wordCount: 0))
    }
}
