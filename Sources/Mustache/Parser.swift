/// Builds the operation program from tokens, deciding which tags stand alone on their line.
///
/// Standalone rules follow the Mustache spec, extended for inheritance: text directly
/// inside a parent tag is ignored, so a block opening there stands alone when only
/// blanks follow it; a parent tag pair stands alone when blanks precede its opening
/// and follow its closing. A block whose opening stands alone sheds the indentation
/// of its first line from every line, and gets the indentation of the place it is
/// expanded into instead.
///
/// Operations go straight into one array: an opening tag appends its operation, and its
/// closing tag fills in the body's length, so parsing is linear in the size of the
/// source however deeply sections nest.
struct Parser {
    let source: TemplateSource
    let bytes: [UInt8]
    private var frames: [Frame]
    private var ops: [Op] = []
    /// The source offset of each operation's tag, for locating errors while rendering.
    private var offsets: [Int32] = []
    private var tables = ProgramTables()
    /// The text operation that text coming next may join: the last operation, when nothing
    /// has opened or closed since it was written.
    private var joinableText = -1

    init(source: TemplateSource) {
        self.source = source
        self.bytes = Array(source.text.utf8)
        self.frames = [Frame(kind: .root, name: "", openOffset: 0, openLine: 0, opIndex: -1)]
    }

    mutating func parse() throws(TemplateError) -> Program {
        var tokenizer = Tokenizer(bytes: bytes, source: source)
        var lineIndex = 0
        while let line = try tokenizer.nextLine() {
            try feed(line, index: lineIndex)
            lineIndex += 1
        }
        if frames.count > 1, let open = frames.last {
            throw TemplateError(
                .unclosedSection(name: open.name, openedAt: source.location(at: open.openOffset)),
                at: source.location(at: bytes.count))
        }
        return Program(source: source, tables: tables, ops: ops, offsets: offsets)
    }
}

/// An element being built: the template itself, or an open section, parent or block.
private struct Frame {
    enum Kind: Equatable {
        case root
        case section(inverted: Bool)
        case parent
        case block(inParent: Bool)
    }

    let kind: Kind
    let name: String
    let openOffset: Int
    let openLine: Int
    /// Where its operation sits (its body follows); for a block inside a parent, where its body starts.
    let opIndex: Int
    var standalone = false
    /// Removed from the start of each line of text inside.
    var dedent: [UInt8] = []
    /// A block's indentation where it expands, or the blanks before a parent tag.
    var indentation: [UInt8] = []
    /// A parent tag with only blanks before it on its line.
    var clearsLeft = false
    var leading: Range<Int> = 0..<0
    /// A parent's blocks as ranges of `ops`; a block named twice keeps the last.
    var overrides: [String: Range<Int>] = [:]
}

private extension Parser {
    var top: Frame {
        _read { yield frames[frames.count - 1] }
        _modify { yield &frames[frames.count - 1] }
    }

    mutating func feed(_ line: [Token], index lineIndex: Int) throws(TemplateError) {
        guard let first = line.firstIndex(where: { $0.kind != .text }),
            let last = line.lastIndex(where: { $0.kind != .text })
        else {
            for (position, token) in line.enumerated() { appendText(token, atLineStart: position == 0) }
            return
        }
        let context = LineContext(line: line, bytes: bytes, first: first, last: last)
        let dropLeading = context.clearsLeft(first) && takesLeadingBlanks(line[first], context)
        var dropTrailing = false
        for (position, token) in line.enumerated() {
            if token.kind == .text {
                let dropped = (position < first && dropLeading) || (position > last && dropTrailing)
                if !dropped { appendText(token, atLineStart: position == 0) }
                continue
            }
            let alone = try handle(token, at: position, in: context, lineIndex: lineIndex)
            if position == last { dropTrailing = alone }
        }
    }

    /// Whether the line's first tag swallows the blanks before it.
    func takesLeadingBlanks(_ tag: Token, _ context: LineContext) -> Bool {
        if context.standsAlone(context.first) { return true }
        switch tag.kind {
        case .parent: return true
        case .block: return top.kind == .parent
        case .close: return top.kind == .block(inParent: true) || top.kind == .parent
        default: return false
        }
    }

    /// Adds a tag to the program; returns whether it takes the rest of its line with it.
    mutating func handle(
        _ token: Token, at position: Int, in context: LineContext, lineIndex: Int
    ) throws(TemplateError) -> Bool {
        let alone = context.standsAlone(position)
        switch token.kind {
        case .text, .comment, .delimiters:
            return alone
        case .variable, .unescaped:
            try requireOutsideParent(token)
            emit(.variable(name: add(Name(token.content)), escaped: token.kind == .variable), at: token)
            return false
        case .section, .inverted:
            try requireOutsideParent(token)
            let inverted = token.kind == .inverted
            var frame = Frame(
                kind: .section(inverted: inverted), name: token.content,
                openOffset: token.start, openLine: lineIndex, opIndex: ops.count)
            frame.standalone = alone
            frame.dedent = top.dedent
            emit(
                .section(name: add(Name(token.content)), inverted: inverted, standalone: alone, bodyLength: 0),
                at: token)
            frames.append(frame)
            return alone
        case .partial:
            let indentation = alone ? relative(context.leadingBlanks, to: top.dedent) : []
            try requireOutsideParent(token)
            tables.partials.append(
                PartialSite(
                    name: PartialName(token.content), indentation: indentation, standalone: alone, offset: token.start))
            emit(.partial(site: Int32(tables.partials.count - 1)), at: token)
            return alone
        case .parent:
            try requireOutsideParent(token)
            var frame = Frame(
                kind: .parent, name: token.content, openOffset: token.start, openLine: lineIndex, opIndex: ops.count)
            frame.clearsLeft = context.clearsLeft(position)
            frame.leading = context.leadingRange
            frame.indentation = frame.clearsLeft ? context.leadingBlanks : []
            frame.dedent = top.dedent
            emit(.parent(site: -1, bodyLength: 0), at: token)
            frames.append(frame)
            return false
        case .block:
            return openBlock(token, at: position, in: context, lineIndex: lineIndex)
        case .close:
            return try close(token, at: position, in: context, lineIndex: lineIndex)
        }
    }

    mutating func openBlock(_ token: Token, at position: Int, in context: LineContext, lineIndex: Int) -> Bool {
        let inParent = top.kind == .parent
        var frame = Frame(
            kind: .block(inParent: inParent), name: token.content,
            openOffset: token.start, openLine: lineIndex, opIndex: ops.count)
        let alone = inParent ? context.clearsRight(position) : context.standsAlone(position)
        frame.standalone = alone
        if alone {
            let intrinsic = context.indentationOfNextLine
            frame.dedent = intrinsic
            frame.indentation = relative(intrinsic, to: top.dedent)
        } else {
            frame.dedent = top.dedent
            frame.indentation = context.clearsLeft(position) ? relative(context.leadingBlanks, to: top.dedent) : []
        }
        if inParent {
            joinableText = -1
        } else {
            tables.blocks.append(BlockSite(name: frame.name, indentation: frame.indentation, standalone: alone))
            emit(.block(site: Int32(tables.blocks.count - 1), bodyLength: 0), at: token)
        }
        frames.append(frame)
        return alone
    }

    mutating func close(_ token: Token, at position: Int, in context: LineContext, lineIndex: Int) throws(TemplateError)
        -> Bool
    {
        guard frames.count > 1 else {
            throw TemplateError(.unexpectedClosingTag(name: token.content), at: source.location(at: token.start))
        }
        let frame = frames.removeLast()
        guard frame.name == token.content else {
            throw TemplateError(
                .mismatchedClosingTag(
                    expected: frame.name, found: token.content,
                    openedAt: source.location(at: frame.openOffset)),
                at: source.location(at: token.start))
        }
        joinableText = -1
        let alone = context.standsAlone(position)
        let bodyLength = Int32(ops.count - frame.opIndex - 1)
        switch frame.kind {
        case .root:
            return false
        case .section:
            guard case .section(let name, let inverted, let standalone, _) = ops[frame.opIndex] else { return alone }
            ops[frame.opIndex] = .section(
                name: name, inverted: inverted, standalone: standalone, bodyLength: bodyLength)
            return alone
        case .block(inParent: true):
            top.overrides[frame.name] = frame.opIndex..<ops.count
            return false
        case .block(inParent: false):
            guard case .block(let site, _) = ops[frame.opIndex] else { return alone }
            ops[frame.opIndex] = .block(site: site, bodyLength: bodyLength)
            return alone
        case .parent:
            let closesLine = context.clearsRight(position) && (frame.openLine != lineIndex || frame.clearsLeft)
            let pair = frame.clearsLeft && closesLine
            var leadingText: Int32?
            if frame.clearsLeft && !pair && !frame.leading.isEmpty {
                leadingText = segment(from: frame.leading.lowerBound, to: frame.leading.upperBound, atLineStart: true)
            }
            let base = frame.opIndex + 1
            let overrides = frame.overrides.mapValues { Int32($0.lowerBound - base)..<Int32($0.upperBound - base) }
            tables.parents.append(
                ParentSite(
                    name: PartialName(frame.name), overrides: overrides,
                    indentation: pair ? relative(frame.indentation, to: top.dedent) : [],
                    standalone: pair, leadingText: leadingText, offset: frame.openOffset))
            ops[frame.opIndex] = .parent(site: Int32(tables.parents.count - 1), bodyLength: bodyLength)
            return closesLine
        }
    }

    mutating func emit(_ op: Op, at token: Token) {
        ops.append(op)
        offsets.append(Int32(truncatingIfNeeded: token.start))
        joinableText = -1
    }

    mutating func appendText(_ token: Token, atLineStart: Bool) {
        guard top.kind != .parent,
            let index = segment(from: token.start, to: token.end, atLineStart: atLineStart, joining: joinableText),
            index >= 0
        else { return }
        ops.append(.text(segment: index))
        offsets.append(Int32(truncatingIfNeeded: token.start))
        joinableText = ops.count - 1
    }

    /// Adds `bytes[start..<end]` (less the frame's dedent at a line start) to the text table.
    ///
    /// Returns the new segment's index; -1 when the text joined the segment of the text
    /// operation at `joining`; `nil` when nothing is left.
    mutating func segment(from start: Int, to end: Int, atLineStart: Bool, joining: Int = -1) -> Int32? {
        var start = start
        if atLineStart {
            for byte in top.dedent {
                guard start < end, bytes[start] == byte else { break }
                start += 1
            }
        }
        guard start < end else { return nil }
        let textStart = Int32(tables.text.count)
        let firstBreak = Int32(tables.lineBreaks.count)
        tables.text += bytes[start..<end]
        for index in start..<end where bytes[index] == UInt8(ascii: "\n") {
            tables.lineBreaks.append(textStart + Int32(index + 1 - start))
        }
        let endsWithNewline = bytes[end - 1] == UInt8(ascii: "\n")
        if joining >= 0, case .text(let previous) = ops[joining] {
            tables.segments[Int(previous)].end = Int32(tables.text.count)
            tables.segments[Int(previous)].endBreak = Int32(tables.lineBreaks.count)
            tables.segments[Int(previous)].endsWithNewline = endsWithNewline
            return -1
        }
        tables.segments.append(
            Segment(
                start: textStart, end: Int32(tables.text.count),
                firstBreak: firstBreak, endBreak: Int32(tables.lineBreaks.count),
                endsWithNewline: endsWithNewline))
        return Int32(tables.segments.count - 1)
    }

    mutating func add(_ name: Name) -> NameRef {
        let start = Int32(tables.keys.count)
        tables.keys += name.parts
        return NameRef(start: start, count: Int32(name.parts.count))
    }

    func requireOutsideParent(_ token: Token) throws(TemplateError) {
        guard top.kind == .parent else { return }
        let tag = String(decoding: bytes[token.start..<token.end], as: UTF8.self)
        throw TemplateError(.tagInsideParent(tag: tag, parent: top.name), at: source.location(at: token.start))
    }

    /// `indentation` without the part that `dedent` already accounts for.
    func relative(_ indentation: [UInt8], to dedent: [UInt8]) -> [UInt8] {
        var shared = 0
        while shared < indentation.count, shared < dedent.count, indentation[shared] == dedent[shared] { shared += 1 }
        return Array(indentation[shared...])
    }
}

/// What a line holds around each of its tags; every question costs constant time.
private struct LineContext {
    let line: [Token]
    let bytes: [UInt8]
    let first: Int
    let last: Int
    /// The first token that is not blank text (`line.count` when there is none).
    let firstFilled: Int
    /// The last token that is not blank text (-1 when there is none).
    let lastFilled: Int

    init(line: [Token], bytes: [UInt8], first: Int, last: Int) {
        self.line = line
        self.bytes = bytes
        self.first = first
        self.last = last
        firstFilled = line.firstIndex { !$0.isBlank(in: bytes) } ?? line.count
        lastFilled = line.lastIndex { !$0.isBlank(in: bytes) } ?? -1
    }

    func clearsLeft(_ position: Int) -> Bool {
        firstFilled >= position
    }

    func clearsRight(_ position: Int) -> Bool {
        lastFilled <= position
    }

    /// The only tag on its line, with nothing but blanks around it.
    func standsAlone(_ position: Int) -> Bool {
        first == last && line[position].canStandAlone && clearsLeft(position) && clearsRight(position)
    }

    /// The source range of the text before the first tag.
    var leadingRange: Range<Int> {
        first > 0 ? line[0].start..<line[first - 1].end : 0..<0
    }

    var leadingBlanks: [UInt8] {
        Array(bytes[leadingRange])
    }

    /// The spaces and tabs that start the line after this one.
    var indentationOfNextLine: [UInt8] {
        guard let end = line.last?.end, line.last?.endsLine(in: bytes) == true else { return [] }
        var stop = end
        while stop < bytes.count, bytes[stop].isIndentation { stop += 1 }
        return Array(bytes[end..<stop])
    }
}
