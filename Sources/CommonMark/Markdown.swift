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

    /// Renders CommonMark to HTML, handing every link and image to `rewrite` first: the
    /// destination it returns replaces the written one (nil keeps it). Destinations are as
    /// cmark reads them (entities and backslash escapes undone, percent escapes kept), and the
    /// HTML escapes what `rewrite` returns as it escapes any destination.
    public static func render(
        _ text: String, allowRawHTML: Bool, rewritingLinks rewrite: (MarkdownLink) -> String?
    ) -> RenderedMarkdown {
        var text = text
        return text.withUTF8 { bytes in
            withoutActuallyEscaping(rewrite) { rewrite in
                render(UnsafeRawBufferPointer(bytes), allowRawHTML: allowRawHTML, rewrite: rewrite)
            }
        }
    }

    /// Renders CommonMark bytes to HTML (an entry point for fuzzing): invalid UTF-8 and NUL
    /// bytes become U+FFFD, as CommonMark says.
    public static func render(_ bytes: UnsafeRawBufferPointer, allowRawHTML: Bool) -> RenderedMarkdown {
        render(bytes, allowRawHTML: allowRawHTML, rewrite: nil)
    }
}

/// A Markdown document as HTML, with the plain text of its first paragraph, its length in
/// words and in Chinese and Japanese characters, and where it has raw HTML.
public struct RenderedMarkdown: Sendable, Equatable {
    public let html: String
    public let firstParagraph: String
    /// Runs of characters between white space, Chinese and Japanese characters left out.
    public var wordCount: Int { Int(words) }
    /// Han characters, kana and other characters of scripts written without spaces between
    /// words (Chinese, Japanese), each counted on its own: their text has no words to count.
    public var characterCount: Int { Int(characters) }
    /// Both counts in the space of one number, as every review keeps them: a review is read
    /// only up to 64 MB, far from 2³¹ words (a larger count is clamped).
    private let words: Int32
    private let characters: Int32
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

    public init(
        html: String, firstParagraph: String, wordCount: Int, characterCount: Int = 0, rawHTML: [Position] = []
    ) {
        self.html = html
        self.firstParagraph = firstParagraph
        words = Int32(clamping: wordCount)
        characters = Int32(clamping: characterCount)
        self.rawHTML = rawHTML
    }
}

private extension Markdown {
    static func render(
        _ bytes: UnsafeRawBufferPointer, allowRawHTML: Bool, rewrite: ((MarkdownLink) -> String?)?
    ) -> RenderedMarkdown {
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
        // The walk comes first: it may change link destinations, which the HTML then shows.
        var lines = LineStarts(bytes)
        // Images whose source cmark leaves out as dangerous (`javascript:`…): an `<img>` without
        // a source is not valid HTML, so their alt text takes their place.
        var refused: [OpaquePointer] = []
        let summary = walk(document) { node, isImage in
            if let rewrite, let url = cmark_node_get_url(node) {
                let (line, column) = lines.position(
                    line: Int(cmark_node_get_start_line(node)), byteColumn: Int(cmark_node_get_start_column(node)))
                let link = MarkdownLink(destination: String(cString: url), isImage: isImage, line: line, column: column)
                if let replacement = rewrite(link) { cmark_node_set_url(node, replacement) }
            }
            if isImage, !allowRawHTML, isDangerous(cmark_node_get_url(node).map { String(cString: $0) } ?? "") {
                refused.append(node)
            }
        }
        for image in refused {
            var child = cmark_node_first_child(image)
            while let current = child {
                child = cmark_node_next(current)
                cmark_node_insert_before(image, current)
            }
            cmark_node_free(image)
        }
        let html: String
        if let rendered = cmark_render_html(document, options) {
            html = String(cString: rendered)
            free(rendered)
        } else {
            html = ""
        }
        return RenderedMarkdown(
            html: html, firstParagraph: summary.firstParagraph, wordCount: summary.words,
            characterCount: summary.characters, rawHTML: summary.rawHTML)
    }

    /// Whether cmark's safe mode leaves `url` out: `javascript:`, `vbscript:`, `file:` and
    /// `data:` but for PNG, GIF, JPEG and WebP images, in any case.
    static func isDangerous(_ url: String) -> Bool {
        let lower = url.prefix(16).lowercased()
        if lower.hasPrefix("data:") {
            return !["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"].contains {
                lower.hasPrefix($0)
            }
        }
        return lower.hasPrefix("javascript:") || lower.hasPrefix("vbscript:") || lower.hasPrefix("file:")
    }

    /// What one walk of the tree finds.
    struct Summary {
        var firstParagraph = ""
        var words = 0
        var characters = 0
        var rawHTML: [RenderedMarkdown.Position] = []
    }

    /// Walks the tree once: the text of the first paragraph, the number of words, and where raw
    /// HTML is, handing each link and image node to `link`.
    static func walk(_ document: OpaquePointer, link: (OpaquePointer, Bool) -> Void) -> Summary {
        guard let iterator = cmark_iter_new(document) else { return Summary() }
        defer { cmark_iter_free(iterator) }
        var first = ""
        var inFirst = false
        var firstDone = false
        var words = 0
        var characters = 0
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
                let counted = countWords(literal)
                words += counted.words
                characters += counted.characters
                if inFirst { first += String(cString: literal) }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                if inFirst { first += " " }
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE:
                rawHTML.append(
                    RenderedMarkdown.Position(
                        line: Int(cmark_node_get_start_line(node)), byteColumn: Int(cmark_node_get_start_column(node))))
            case CMARK_NODE_LINK:
                link(node, false)
            case CMARK_NODE_IMAGE:
                link(node, true)
            default:
                break
            }
        }
        return Summary(firstParagraph: first, words: words, characters: characters, rawHTML: rawHTML)
    }

    /// Words in a C string: runs of characters other than white space (ASCII spaces, tabs and
    /// line breaks, and Unicode's spaces: no-break, en and em, thin, ideographic and the rest of
    /// category Zs, which `&nbsp;` and typeset French, say, bring); and, apart, the characters
    /// of Chinese and Japanese text, which puts no spaces between words: each counts on its own
    /// and ends a word, and their punctuation (、。「」) only ends a word.
    static func countWords(_ text: UnsafePointer<CChar>) -> (words: Int, characters: Int) {
        var words = 0
        var characters = 0
        // 1 while inside a word. ASCII, nearly all of most reviews, is read without branches
        // on the byte, so word boundaries cost no mispredicted jump.
        var inWord = 0
        var pointer = text
        let end = text + strlen(text)
        while true {
            if end - pointer >= 8 {
                // Eight bytes at a time while they are ASCII: a word starts at each byte that
                // is not white space where the byte before it is.
                let chunk = UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self))
                if chunk & 0x8080_8080_8080_8080 == 0 {
                    let ones: UInt64 = 0x0101_0101_0101_0101
                    let space =
                        zeroBytes(chunk ^ (ones &* 0x20)) | zeroBytes(chunk ^ (ones &* 0x09))
                        | zeroBytes(chunk ^ (ones &* 0x0A)) | zeroBytes(chunk ^ (ones &* 0x0D))
                    let word = ~space & 0x8080_8080_8080_8080
                    let before = word << 8 | UInt64(truncatingIfNeeded: inWord) << 7
                    words &+= (word & ~before).nonzeroBitCount
                    inWord = Int(truncatingIfNeeded: word >> 63)
                    pointer += 8
                    continue
                }
            }
            let byte = UInt8(bitPattern: pointer.pointee)
            if byte < 0x80 {
                if byte == 0 { break }
                // Bits 9, 10, 13 and 32: tab, line feed, carriage return and space.
                let isWord = byte > 0x20 ? 1 : Int(truncatingIfNeeded: ~(UInt64(0x1_0000_2600) &>> UInt64(byte)) & 1)
                words &+= isWord & ~inWord
                inWord = isWord
                pointer += 1
                continue
            }
            if byte &- 0xEA < 4, UInt8(bitPattern: pointer[1]) & 0xC0 == 0x80,
                UInt8(bitPattern: pointer[2]) & 0xC0 == 0x80
            {
                // U+A000 to U+DFFF, Hangul syllables among them (nearly all of a Korean text):
                // part of a word, read here rather than through `kind`.
                words &+= 1 &- inWord
                inWord = 1
                pointer += 3
                continue
            }
            let (width, kind) = Self.kind(at: pointer, lead: byte)
            switch kind {
            case .word:
                if inWord == 0 { words += 1 }
                inWord = 1
            case .space:
                inWord = 0
            case .unspaced:
                characters += 1
                inWord = 0
            case .invisible:
                break
            }
            pointer += width
        }
        return (words, characters)
    }

    /// 0x80 in each byte of `chunk` that is 0, and 0 in every other byte.
    @inline(__always)
    private static func zeroBytes(_ chunk: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((chunk & low) &+ low) | chunk | low)
    }

    /// How a character counts towards a text's length.
    enum CharacterKind {
        /// Part of a word.
        case word
        /// Between words: white space, and the punctuation of Chinese and Japanese.
        case space
        /// A character of Chinese or Japanese, counted on its own.
        case unspaced
        /// A joiner or mark of no width (zero-width non-joiner and joiner, word joiner, the
        /// byte order mark): inside a word it stays one word, alone it is none.
        case invisible
    }

    /// The length of the UTF-8 sequence starting with `lead` at `pointer` (1 for a stray byte)
    /// and how its character counts. A sequence cut short (by the string's end or a byte that
    /// does not continue it) is the bytes before that byte, part of a word: never read past.
    private static func kind(at pointer: UnsafePointer<CChar>, lead: UInt8) -> (Int, CharacterKind) {
        let width = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard width > 1 else { return (1, .word) }
        var value = UInt32(lead) & (width == 2 ? 0x1F : width == 3 ? 0x0F : 0x07)
        for offset in 1..<width {
            let next = UInt8(bitPattern: pointer[offset])
            guard next & 0xC0 == 0x80 else { return (offset, .word) }
            value = value << 6 | UInt32(next & 0x3F)
        }
        switch value {
        case 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000:
            // Spaces, the zero-width one too (it separates words in Thai and Khmer).
            return (width, .space)
        case 0x200C, 0x200D, 0x2060, 0xFEFF:
            return (width, .invisible)
        case 0x3001...0x303F, 0xFF01...0xFF0F, 0xFF1A...0xFF20, 0xFF3B...0xFF40, 0xFF5B...0xFF65:
            // CJK symbols and punctuation (、。「」〜), and full-width ASCII punctuation.
            return (width, .space)
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
            0xFF66...0xFF9F, 0x20000...0x3FFFF:
            // Hiragana, katakana (and their extensions, half-width too), Han characters.
            return (width, .unspaced)
        default:
            return (width, .word)
        }
    }
}

/// Where each line of a text starts, found as far as the links asked for need, to turn
/// cmark's byte columns into columns of Unicode scalars.
private struct LineStarts {
    let bytes: UnsafeRawBufferPointer
    /// The starts of lines 1, 2, … found so far.
    private var starts = [0]
    /// Whether the text holds a CR at all; without one, `memchr` finds each LF.
    private let hasCR: Bool

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        hasCR = bytes.baseAddress.map { memchr($0, 0x0D, bytes.count) != nil } ?? false
    }

    /// The line and scalar column of cmark's `line` and byte `byteColumn` (both from 1).
    /// Lines end at LF, CR LF or a lone CR, as CommonMark says.
    mutating func position(line: Int, byteColumn: Int) -> (line: Int, column: Int) {
        guard line >= 1, byteColumn >= 1, let start = start(ofLine: line) else {
            return (max(1, line), max(1, byteColumn))
        }
        let end = min(bytes.count, start + byteColumn - 1)
        var column = 1
        var index = start
        while index < end {
            // Every byte but a UTF-8 continuation byte starts a scalar.
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return (line, column)
    }

    /// Where line `line` starts, or nil when the text has fewer lines.
    private mutating func start(ofLine line: Int) -> Int? {
        while starts.count < line {
            guard let next = lineStart(after: starts[starts.count - 1]) else { return nil }
            starts.append(next)
        }
        return starts[line - 1]
    }

    /// The start of the line after the one starting at `from`, or nil when that is the last.
    private func lineStart(after from: Int) -> Int? {
        guard from < bytes.count, let base = bytes.baseAddress else { return nil }
        if !hasCR {
            guard let found = memchr(base + from, 0x0A, bytes.count - from) else { return nil }
            return base.distance(to: UnsafeRawPointer(found)) + 1
        }
        var index = from
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0x0D, index < bytes.count, bytes[index] == 0x0A { index += 1 }
            if byte == 0x0A || byte == 0x0D { return index }
        }
        return nil
    }
}
