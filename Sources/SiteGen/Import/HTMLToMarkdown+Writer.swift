import Foundation

extension HTMLToMarkdown {
    /// Inline formatting that wraps text.
    enum Inline: Equatable {
        case emphasis
        case strong
        /// A link to a destination, or (nil) a link whose text is kept without it.
        case link(String?)
    }

    /// Builds the Markdown: paragraphs (each with its quote depth) of lines of inline text.
    /// Inline formatting is held open as frames, so each is written only once its text is
    /// known (spaces moved outside the markers, empty ones dropped) and can be closed and
    /// opened again around a paragraph break.
    struct Writer {
        private struct Frame {
            let kind: Inline
            /// The Markdown so far; `\n` marks a line break.
            var content = ""
            /// The text as read, unescaped (to tell a link whose text is its address).
            var raw = ""
        }

        private var frames = [Frame(kind: .emphasis)]
        private var paragraphs: [(depth: Int, lines: [String])] = []
        private var depth = 0
        private var breaks = 0
        private var atLineStart = true
        private var hasContent = false

        /// Text: a line break in it (LF, CRLF or CR) counts as `<br>`.
        mutating func text(_ text: String) {
            var segment: [UInt8] = []
            var afterCR = false
            for byte in text.utf8 {
                if byte == 0x0A || byte == 0x0D {
                    if !(afterCR && byte == 0x0A) {
                        append(segment)
                        segment.removeAll(keepingCapacity: true)
                        lineBreak()
                    }
                    afterCR = byte == 0x0D
                    continue
                }
                afterCR = false
                // Runs of spaces, tabs and form feeds are one space, as HTML shows them.
                if byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C {
                    if segment.last != 0x20 { segment.append(0x20) }
                } else {
                    segment.append(byte)
                }
            }
            append(segment)
        }

        mutating func lineBreak() {
            if hasContent { breaks += 1 }
        }

        mutating func paragraphBreak() {
            flushParagraph()
        }

        /// Enters (+1) or leaves (-1) a block quote.
        mutating func quote(_ change: Int) {
            flushParagraph()
            depth = max(0, depth + change)
        }

        mutating func open(_ kind: Inline) {
            if case .link = kind, frames.contains(where: { if case .link = $0.kind { true } else { false } }) {
                frames.append(Frame(kind: .link(nil)))
            } else {
                frames.append(Frame(kind: kind))
            }
        }

        /// Closes the innermost open `kind` and anything opened inside it; a stray end tag is ignored.
        mutating func close(_ kind: Inline) {
            guard let index = frames.indices.dropFirst().last(where: { frames[$0].kind == kind }) else { return }
            while frames.count > index { pop() }
        }

        mutating func closeLink() {
            guard
                let index = frames.indices.dropFirst().last(where: {
                    if case .link = frames[$0].kind { true } else { false }
                })
            else { return }
            while frames.count > index { pop() }
        }

        mutating func finish() -> String {
            flushParagraph()
            var lines: [String] = []
            var previousDepth: Int?
            for paragraph in paragraphs {
                if let previousDepth {
                    lines.append(
                        Array(repeating: ">", count: min(previousDepth, paragraph.depth)).joined(separator: " "))
                }
                let prefix = String(repeating: "> ", count: paragraph.depth)
                for (index, line) in paragraph.lines.enumerated() {
                    lines.append(prefix + line + (index < paragraph.lines.count - 1 ? "\\" : ""))
                }
                previousDepth = paragraph.depth
            }
            return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
        }

        /// A run of text without line breaks, its spaces already collapsed.
        private mutating func append(_ segment: [UInt8]) {
            guard segment.contains(where: { $0 != 0x20 }) else {
                if !segment.isEmpty, hasContent, breaks == 0, frames[frames.count - 1].content.utf8.last != 0x20 {
                    frames[frames.count - 1].content += " "
                    frames[frames.count - 1].raw += " "
                }
                return
            }
            let collapsed = String(decoding: segment, as: UTF8.self)
            if breaks > 0 {
                if breaks == 1 {
                    frames[frames.count - 1].content += "\n"
                    atLineStart = true
                } else {
                    flushParagraph()
                }
                breaks = 0
            }
            var markdown = HTMLToMarkdown.escapeInline(collapsed)
            if atLineStart {
                markdown = HTMLToMarkdown.escapeLineStart(String(markdown.drop { $0 == " " }))
            }
            frames[frames.count - 1].content += markdown
            frames[frames.count - 1].raw += collapsed
            atLineStart = false
            hasContent = true
        }

        /// Closes the innermost frame into its parent.
        private mutating func pop() {
            let frame = frames.removeLast()
            var rendered = Self.render(frame)[...]
            if frames[frames.count - 1].content.last == " " && rendered.first == " " { rendered = rendered.dropFirst() }
            frames[frames.count - 1].content += rendered
            frames[frames.count - 1].raw += frame.raw
        }

        private static func render(_ frame: Frame) -> String {
            let content = frame.content
            let lead = content.prefix { $0 == " " || $0 == "\n" }
            let rest = content.dropFirst(lead.count)
            let trail = String(rest.reversed().prefix { $0 == " " || $0 == "\n" }.reversed())
            let core = rest.dropLast(trail.count)
            guard !core.isEmpty else { return lead + trail }
            switch frame.kind {
            case .emphasis: return "\(lead)*\(core)*\(trail)"
            case .strong: return "\(lead)**\(core)**\(trail)"
            case .link(nil): return content
            case .link(let destination?):
                if Array(frame.raw.utf8)[...].trimmingSpaces == destination {
                    return "\(lead)<\(destination)>\(trail)"
                }
                return "\(lead)[\(core)](\(destination))\(trail)"
            }
        }

        /// Ends the paragraph: open formatting is closed here and opened again after.
        private mutating func flushParagraph() {
            let open = frames.dropFirst().map(\.kind)
            while frames.count > 1 { pop() }
            let lines = Array(frames[0].content.utf8).split(separator: 0x0A).map(\.trimmingSpaces).filter {
                !$0.isEmpty
            }
            if !lines.isEmpty { paragraphs.append((depth, lines)) }
            frames[0] = Frame(kind: .emphasis)
            frames += open.map { Frame(kind: $0) }
            breaks = 0
            atLineStart = true
            hasContent = false
        }
    }

    /// `text` with the characters Markdown reads as inline syntax escaped: `\ ` * _ [ ] <`,
    /// and `&` where it would start a character reference.
    static func escapeInline(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["),
                UInt8(ascii: "]"), UInt8(ascii: "<"):
                result.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "&"):
                // Only where it would start a character reference: `&name;` or `&#123;`.
                let name = bytes[(index + 1)...].prefix(33).prefix { byte in
                    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                        || byte == UInt8(ascii: "#")
                }
                if !name.isEmpty, index + 1 + name.count < bytes.count,
                    bytes[index + 1 + name.count] == UInt8(ascii: ";")
                {
                    result.append(UInt8(ascii: "\\"))
                }
            default:
                break
            }
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Escapes what would start a block at the beginning of a line: a heading `#`, a quote
    /// `>`, a list item (`-`, `+`, `1.`, `1)`), a setext underline `=`, a fence `~~~`.
    static func escapeLineStart(_ line: String) -> String {
        guard let first = line.first else { return line }
        if "#>=-+~".contains(first) { return "\\" + line }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, digits.count <= 9, let mark = line.dropFirst(digits.count).first, mark == "." || mark == ")"
        {
            return digits + "\\" + line.dropFirst(digits.count)
        }
        return line
    }
}

fileprivate extension ArraySlice<UInt8> {
    /// The UTF-8 text without spaces and tabs at either end.
    var trimmingSpaces: String {
        let bytes = self
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
            let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
