internal import CCmark

#if canImport(Glibc)
    import Glibc
#endif

/// Markdown rendered to HTML by libcmark; the only file that sees cmark.
public enum Markdown {
    /// The version of the linked libcmark, such as "0.30.2".
    public static var libraryVersion: String { String(cString: cmark_version_string()) }

    /// Renders CommonMark to HTML. Without `allowRawHTML`, raw HTML and dangerous
    /// links (`javascript:` and the like) are left out of the output.
    public static func render(_ text: String, allowRawHTML: Bool) -> RenderedMarkdown {
        var text = text
        return text.withUTF8 { render(UnsafeRawBufferPointer($0), allowRawHTML: allowRawHTML) }
    }

    /// Renders CommonMark bytes to HTML (an entry point for fuzzing): invalid UTF-8 and NUL
    /// bytes become U+FFFD, as CommonMark says.
    public static func render(_ bytes: UnsafeRawBufferPointer, allowRawHTML: Bool) -> RenderedMarkdown {
        let options = allowRawHTML ? CMARK_OPT_UNSAFE : CMARK_OPT_DEFAULT
        let parsed =
            if let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) {
                cmark_parse_document(base, bytes.count, options)
            } else {
                cmark_parse_document("", 0, options)
            }
        guard let document = parsed else {
            return RenderedMarkdown(html: "", firstParagraph: "", wordCount: 0, rawHTML: [])
        }
        defer { cmark_node_free(document) }
        let html: String
        if let rendered = cmark_render_html(document, options) {
            html = String(cString: rendered)
            free(rendered)
        } else {
            html = ""
        }
        let summary = summarize(document)
        return RenderedMarkdown(
            html: html, firstParagraph: summary.firstParagraph, wordCount: summary.words, rawHTML: summary.rawHTML)
    }
}

/// A Markdown document as HTML, with the plain text of its first paragraph, its length in
/// words and where it has raw HTML.
public struct RenderedMarkdown: Sendable, Equatable {
    public let html: String
    public let firstParagraph: String
    public let wordCount: Int
    /// Where each piece of raw HTML starts (a block, or an inline tag), in document order,
    /// whether or not it reached `html` (without `allowRawHTML` each became
    /// `<!-- raw HTML omitted -->`).
    public let rawHTML: [Position]

    /// A place in the Markdown text: the line (from 1) and the byte in that line (from 1), as cmark counts.
    public struct Position: Sendable, Equatable {
        public let line: Int
        public let byteColumn: Int

        public init(line: Int, byteColumn: Int) {
            self.line = line
            self.byteColumn = byteColumn
        }
    }

    public init(html: String, firstParagraph: String, wordCount: Int, rawHTML: [Position] = []) {
        self.html = html
        self.firstParagraph = firstParagraph
        self.wordCount = wordCount
        self.rawHTML = rawHTML
    }
}

private extension Markdown {
    /// What one walk of the tree finds.
    struct Summary {
        var firstParagraph = ""
        var words = 0
        var rawHTML: [RenderedMarkdown.Position] = []
    }

    /// Walks the tree once: the text of the first paragraph, the number of words, and where raw HTML is.
    static func summarize(_ document: OpaquePointer) -> Summary {
        guard let iterator = cmark_iter_new(document) else { return Summary() }
        defer { cmark_iter_free(iterator) }
        var first = ""
        var inFirst = false
        var firstDone = false
        var words = 0
        var rawHTML: [RenderedMarkdown.Position] = []
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_PARAGRAPH, !firstDone {
                if event == CMARK_EVENT_ENTER {
                    inFirst = true
                } else {
                    inFirst = false
                    firstDone = true
                }
            }
            guard event == CMARK_EVENT_ENTER else { continue }
            switch type {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                guard let literal = cmark_node_get_literal(node) else { continue }
                words += countWords(literal)
                if inFirst { first += String(cString: literal) }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                if inFirst { first += " " }
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE:
                rawHTML.append(
                    RenderedMarkdown.Position(
                        line: Int(cmark_node_get_start_line(node)), byteColumn: Int(cmark_node_get_start_column(node))))
            default:
                break
            }
        }
        return Summary(firstParagraph: first, words: words, rawHTML: rawHTML)
    }

    /// Words in a C string: runs of bytes other than ASCII spaces, tabs and line breaks.
    static func countWords(_ text: UnsafePointer<CChar>) -> Int {
        var count = 0
        var inWord = false
        var pointer = text
        while pointer.pointee != 0 {
            let byte = UInt8(bitPattern: pointer.pointee)
            let blank = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
            if !blank && !inWord { count += 1 }
            inWord = !blank
            pointer += 1
        }
        return count
    }
}
