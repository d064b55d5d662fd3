import Foundation

extension HTMLToMarkdown {
    /// Inline formatting that wraps text.
    enum Inline: Equatable {
        case emphasis
        case strong
        /// A link to a destination, or (nil) a link whose text is kept without it.
        case link(String?)

        /// What an end tag matches: `</a>` ends a link whatever its destination.
        fileprivate var family: Family {
            switch self {
            case .emphasis: .emphasis
            case .strong: .strong
            case .link: .link
            }
        }
    }

    /// The kinds of inline element an end tag can close.
    fileprivate enum Family: Int, CaseIterable {
        case emphasis, strong, link
    }

    /// Builds the Markdown: paragraphs (each with its quote depth) of lines of inline text.
    /// Inline formatting is held open as frames, so each is written only once its text is
    /// known (spaces moved outside the markers, empty ones dropped) and can be closed and
    /// opened again around a paragraph break.
    ///
    /// Unclosed tags are common in exports, and each open frame costs work at every paragraph
    /// break and whenever an inner frame closes, so the frames are bounded (see
    /// ``framesPerFamily``); so is the quote depth written (see ``maximumQuoteDepth``).
    struct Writer {
        /// The most frames open at once for each family (emphasis, strong, link). Another
        /// element of a family that has this many is still matched by its end tag, but gets no
        /// frame: its text goes to the innermost frame. That frame is inside one of the family
        /// already, so the element would add no markup; only the spaces and delimiters at its
        /// edges can come out otherwise (a space on both sides of its start tag stays two, and
        /// emphasis closed on one side and opened on the other joins).
        ///
        /// The HTML spec bounds the formatting elements it opens again after a block the same
        /// way, at three alike (the "Noah's Ark" clause); reviews nest one or two. Without a
        /// bound, `<p><i>` repeated n times keeps n frames open, each closed and opened again
        /// at each of the n paragraph breaks.
        static let framesPerFamily = 3

        /// The deepest block quote written. Deeper quotes (unclosed `<blockquote>` tags) are
        /// written at this depth, and their end tags still count. Reviews quote one or two deep;
        /// without a bound, `<blockquote>x` repeated n times would write n paragraphs with up to
        /// n `>` each.
        static let maximumQuoteDepth = 16

        /// An inline element opened and not yet closed, in the order opened.
        private struct Element {
            let family: Family
            /// Whether it has a frame: the framed elements, in order, are the frames after the first.
            let framed: Bool
        }

        private struct Frame {
            let kind: Inline
            /// Inside another frame of its kind (`<i><i>x</i></i>`), so it adds no markup: its
            /// text is already in italics, and `**x**` would be bold.
            var transparent = false
            /// The character before the frame's opening markup (nil at the start of a line).
            var before: Character?
            /// The Markdown so far; `\n` marks a line break.
            var content = ""
            /// The text as read, unescaped (to tell a link whose text is its address).
            var raw = ""
            /// Where the content's markup (delimiters and links of inner frames) starts and
            /// ends, as UTF-8 offsets; the rest is text, whose punctuation may move.
            var markupStart: Int?
            var markupEnd = 0
            /// The emphasis or strong emphasis whose closing delimiter ends `content`.
            var lastClosed: Inline?
            /// A closing delimiter that ends `content` after punctuation, which CommonMark lets
            /// close only before a space, punctuation or the end, so what comes next decides
            /// (see ``settle(before:)``): the last `tail` characters of `content` are then written
            /// `prefix + text` (`:**` as `**:`; `**!!**`, emphasis of punctuation alone, as `!!`).
            var pendingClose: (tail: String, prefix: String, text: String)?

            /// What comes before anything added now: the last character, or when there is none
            /// the frame's opening markup (`[` of a link), or what is before that markup, which
            /// an inner delimiter joins into one run (`**` then `*` is `***`).
            var last: Character? {
                // After a closing delimiter, an opening one joins its run: what decides is the
                // character before the run.
                if lastClosed != nil, let end = content.lastIndex(where: { $0 != "*" }) { return content[end] }
                if let last = content.last { return last }
                if case .link(_?) = kind { return "[" }
                return before
            }

            /// Adds Markdown whose markup, if any, lies at `markup` (offsets in `markdown`).
            mutating func add(_ markdown: some StringProtocol, markup: Range<Int>? = nil) {
                let base = content.utf8.count
                content += markdown
                if let markup {
                    markupStart = markupStart ?? (base + markup.lowerBound)
                    markupEnd = base + markup.upperBound
                }
            }

            /// Called with the first character added after the content: when a pending closing
            /// delimiter would not close before it (a letter: `**Spoiler:**the`), the
            /// punctuation moves outside the emphasis (`**Spoiler**:the`).
            mutating func settle(before next: Character?) {
                // Nothing added: the end stays as it is.
                guard let next else { return }
                defer {
                    pendingClose = nil
                    lastClosed = nil
                }
                guard let pending = pendingClose, !Markup.isSpace(next), !Markup.isPunctuation(next) else { return }
                content.unicodeScalars.removeLast(pending.tail.unicodeScalars.count)
                // A link the emphasis held now follows what was before it: `!` there would make it an image.
                if (pending.prefix + pending.text).first == "[", content.hasSuffix("!") {
                    content.removeLast()
                    content += "\\!"
                }
                content += pending.prefix
                // What moved out is text now; markup that was removed is not looked for again.
                let textStart = content.utf8.count
                content += pending.text
                markupEnd = min(markupEnd, textStart)
                if let start = markupStart, start > textStart { markupStart = textStart }
            }
        }

        private var frames = [Frame(kind: .emphasis)]
        private var elements: [Element] = []
        /// How many of ``elements`` are of each family, so a stray end tag is found stray at once.
        private var openCount = Array(repeating: 0, count: Family.allCases.count)
        private var paragraphs: [(depth: Int, lines: [String])] = []
        /// Block quotes entered and not left; the depth written is at most ``maximumQuoteDepth``.
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
            let framed = frames.dropFirst().count { $0.kind.family == kind.family } < Self.framesPerFamily
            elements.append(Element(family: kind.family, framed: framed))
            openCount[kind.family.rawValue] += 1
            guard framed else { return }
            let before = frames[frames.count - 1].last
            if case .link = kind, frames.contains(where: { if case .link = $0.kind { true } else { false } }) {
                frames.append(Frame(kind: .link(nil), before: before))
            } else {
                frames.append(
                    Frame(kind: kind, transparent: frames.dropFirst().contains { $0.kind == kind }, before: before))
            }
        }

        /// Closes the innermost open emphasis or strong emphasis and anything opened inside it; a
        /// stray end tag is ignored.
        mutating func close(_ kind: Inline) {
            close(kind.family)
        }

        /// Closes the innermost open link and anything opened inside it; a stray end tag is ignored.
        mutating func closeLink() {
            close(.link)
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
                    frames[frames.count - 1].settle(before: " ")
                    frames[frames.count - 1].add(" ")
                    frames[frames.count - 1].raw += " "
                }
                return
            }
            let collapsed = String(decoding: segment, as: UTF8.self)
            if breaks > 0 {
                frames[frames.count - 1].settle(before: "\n")
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
            frames[frames.count - 1].settle(before: markdown.first)
            frames[frames.count - 1].add(markdown)
            frames[frames.count - 1].raw += collapsed
            atLineStart = false
            hasContent = true
        }

        private mutating func close(_ family: Family) {
            guard openCount[family.rawValue] > 0 else { return }
            while let element = elements.popLast() {
                openCount[element.family.rawValue] -= 1
                if element.framed { pop() }
                if element.family == family { return }
            }
        }

        /// Closes the innermost frame into its parent.
        private mutating func pop() {
            let frame = frames.removeLast()
            var parent = frames.removeLast()
            Self.close(frame, into: &parent)
            parent.raw += frame.raw
            frames.append(parent)
        }

        /// Adds the Markdown of `frame` to `parent`.
        ///
        /// CommonMark reads `*` and `**` as emphasis only where they flank the text: an opening
        /// one before punctuation needs a space or punctuation before it, and a closing one after
        /// punctuation a space or punctuation after it. So punctuation at the edge of the text
        /// moves outside (`<b>‘기생충’</b>은` is `**‘기생충**’은`), adjacent emphasis of one kind
        /// is one (`<i>x</i><i>y</i>` is `*xy*`, not `*x**y*`), and emphasis that cannot be
        /// written (of punctuation alone, or whose edge is a link's bracket next to a letter)
        /// is left out, keeping its text.
        private static func close(_ frame: Frame, into parent: inout Frame) {
            var frame = frame
            // One space between words, not one on each side of a marker.
            if parent.content.last == " ", frame.content.first == " " {
                frame.content.removeFirst()
                frame.markupStart = frame.markupStart.map { $0 - 1 }
                frame.markupEnd -= 1
            }
            let content = frame.content
            let lead = content.prefix { $0 == " " || $0 == "\n" }
            let rest = content.dropFirst(lead.count)
            let trail = String(rest.reversed().prefix { $0 == " " || $0 == "\n" }.reversed())
            let core = rest.dropLast(trail.count)
            // The core's markup, as offsets in the core.
            let coreStart = lead.utf8.count
            let coreMarkup = frame.markupStart.map { ($0 - coreStart)..<(frame.markupEnd - coreStart) }
            var delimiter = ""
            switch frame.kind {
            case .emphasis where !frame.transparent: delimiter = "*"
            case .strong where !frame.transparent: delimiter = "**"
            case .link(let destination?) where !core.isEmpty:
                return link(frame, destination, into: &parent, lead: lead, core: core, trail: trail)
            default: break
            }
            if delimiter.isEmpty || core.isEmpty {
                return passThrough(
                    content, markup: frame.markupStart.map { $0..<frame.markupEnd }, of: frame, into: &parent)
            }
            // Adjacent emphasis of one kind is one.
            if lead.isEmpty, parent.lastClosed == frame.kind, parent.content.hasSuffix(delimiter) {
                parent.pendingClose = nil
                parent.content.removeLast(delimiter.count)
                parent.markupEnd = min(parent.markupEnd, parent.content.utf8.count)
                return emphasis(
                    frame, into: &parent, lead: "", opening: "", core: core, markup: coreMarkup, delimiter: delimiter,
                    trail: trail)
            }
            // Read before settling, which forgets the closing delimiter at the end (unless it
            // moves it, and the end is then what it moved).
            let lastBefore = parent.last
            let hadPending = parent.pendingClose != nil
            parent.settle(before: lead.first ?? core.first)
            let before = lead.last ?? (hadPending ? parent.last : lastBefore)
            var moved = ""
            var text = core
            var markup = coreMarkup
            if let before, !Markup.isSpace(before), !Markup.isPunctuation(before), let first = text.first,
                Markup.mayBePunctuation(first)
            {
                // Text punctuation moves out; markup (a link's `[`) cannot, so neither can the delimiter.
                let limit = markup?.lowerBound ?? Int.max
                var taken = 0
                var count = 0
                for character in text {
                    guard Markup.mayBePunctuation(character) || Markup.isSpace(character),
                        taken + character.utf8.count <= limit
                    else { break }
                    taken += character.utf8.count
                    count += 1
                }
                moved = String(text.prefix(count))
                text = text.dropFirst(count)
                markup = markup.map { ($0.lowerBound - taken)..<($0.upperBound - taken) }
                // What is left starts with a link (`[`, `<`): no delimiter can open before it here.
                if let first = text.first, first == "[" || first == "<" {
                    return passThrough(
                        content, markup: frame.markupStart.map { $0..<frame.markupEnd }, of: frame, into: &parent)
                }
            }
            guard !text.isEmpty else {
                parent.add(lead + moved + trail)
                return
            }
            emphasis(
                frame, into: &parent, lead: lead + moved, opening: delimiter, core: text, markup: markup,
                delimiter: delimiter, trail: trail)
        }

        /// Adds `lead`, then the emphasis from its opening delimiter, noting how it ends.
        private static func emphasis(
            _ frame: Frame, into parent: inout Frame, lead: some StringProtocol, opening: String, core: Substring,
            markup: Range<Int>?, delimiter: String, trail: String
        ) {
            let start = lead.utf8.count
            parent.add(
                lead + opening + core + delimiter + trail,
                markup: start..<(start + opening.utf8.count + core.utf8.count + delimiter.utf8.count))
            parent.lastClosed = trail.isEmpty ? frame.kind : nil
            parent.pendingClose = nil
            guard trail.isEmpty, let last = core.last, Markup.mayBePunctuation(last) else { return }
            let endsWithMarkup = markup.map { $0.upperBound >= core.utf8.count } ?? false
            if !endsWithMarkup {
                // Text punctuation (and spaces) at the end, after any markup: it moves out if a
                // letter follows.
                var available = core.utf8.count - (markup?.upperBound ?? 0)
                let run = String(
                    core.reversed().prefix { character in
                        available -= character.utf8.count
                        return available >= 0 && (Markup.mayBePunctuation(character) || Markup.isSpace(character))
                    }.reversed())
                // Merged into an emphasis before it (no opening), its text is not only `run`.
                parent.pendingClose =
                    run.count == core.count && !opening.isEmpty
                    ? (opening + run + delimiter, "", run) : (run + delimiter, delimiter, run)
            } else if let inner = frame.pendingClose {
                // `<b><i>x:</i></b>y`: both delimiters follow the punctuation (`***x:***y`); and
                // when the inner emphasis, of punctuation alone, is all there is, both go.
                parent.pendingClose =
                    !opening.isEmpty && String(core) == inner.tail
                    ? (opening + inner.tail + delimiter, inner.prefix, inner.text)
                    : (inner.tail + delimiter, inner.prefix + delimiter, inner.text)
            } else if !opening.isEmpty, last == ")" || last == ">" {
                // A link's `)` before a letter: the emphasis cannot close there, and goes.
                parent.pendingClose = (opening + core + delimiter, "", String(core))
            }
        }

        /// Adds a frame that adds no markup of its own: its content, which ends as it ends.
        private static func passThrough(
            _ content: String, markup: Range<Int>?, of frame: Frame, into parent: inout Frame
        ) {
            parent.settle(before: content.first)
            if content.first == "[" { escapeBang(&parent) }
            parent.add(content, markup: markup)
            if !content.isEmpty {
                parent.lastClosed = frame.lastClosed
                parent.pendingClose = frame.pendingClose
            }
        }

        private static func link(
            _ frame: Frame, _ destination: String, into parent: inout Frame, lead: Substring, core: Substring,
            trail: String
        ) {
            parent.settle(before: lead.first ?? "[")
            let start = lead.utf8.count
            if Array(frame.raw.utf8)[...].trimmingSpaces == destination {
                let link = "<\(destination)>"
                parent.add(lead + link + trail, markup: start..<(start + link.utf8.count))
            } else {
                if lead.isEmpty { escapeBang(&parent) }
                let link = "[\(core)](\(destination))"
                parent.add(lead + link + trail, markup: start..<(start + link.utf8.count))
            }
        }

        /// A `!` just before a link's `[` would make it an image: it is escaped.
        private static func escapeBang(_ parent: inout Frame) {
            guard parent.content.hasSuffix("!") else { return }
            parent.content.removeLast()
            parent.content += "\\!"
        }

        /// Ends the paragraph: open formatting is closed here and opened again after.
        private mutating func flushParagraph() {
            let open = frames.dropFirst().map { ($0.kind, $0.transparent) }
            while frames.count > 1 { pop() }
            let lines = Array(frames[0].content.utf8).split(separator: 0x0A).map(\.trimmingSpaces).filter {
                !$0.isEmpty
            }
            if !lines.isEmpty { paragraphs.append((min(depth, Self.maximumQuoteDepth), lines)) }
            frames[0] = Frame(kind: .emphasis)
            frames += open.map { Frame(kind: $0, transparent: $1) }
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
