/// Builds the node tree from tokens, deciding which tags stand alone on their line.
///
/// Standalone rules follow the Mustache spec, extended for inheritance: text directly
/// inside a parent tag is ignored, so a block opening there stands alone when only
/// blanks follow it; a parent tag pair stands alone when blanks precede its opening
/// and follow its closing. A block whose opening stands alone sheds the indentation
/// of its first line from every line, and gets the indentation of the place it is
/// expanded into instead.
struct Parser {
    let source: TemplateSource
    let bytes: [UInt8]
    private var frames: [Frame]
    private var tables = ProgramTables()

    init(source: TemplateSource) {
        self.source = source
        self.bytes = Array(source.text.utf8)
        self.frames = [Frame(kind: .root, name: "", openOffset: 0, openLine: 0)]
    }

    mutating func parse() throws(TemplateError) -> Program {
        var tokenizer = Tokenizer(bytes: bytes, source: source)
        for (index, line) in try tokenizer.lines().enumerated() {
            try feed(line, index: index)
        }
        if frames.count > 1, let open = frames.last {
            throw TemplateError(
                .unclosedSection(name: open.name, openedAt: source.location(at: open.openOffset)),
                at: source.location(at: bytes.count))
        }
        return Program(source: source, tables: tables, ops: frames[0].ops)
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
    var standalone = false
    /// Removed from the start of each line of text inside.
    var dedent: [UInt8] = []
    /// A block's indentation where it expands, or the blanks before a parent tag.
    var indentation: [UInt8] = []
    /// A parent tag with only blanks before it on its line.
    var clearsLeft = false
    var leading: Range<Int> = 0..<0
    var ops: [Op] = []
    /// Where the last text operation this frame emitted itself sits; text right after it joins it.
    var textOpIndex = -1
    /// A parent's blocks, in the order they were closed.
    var overrides: [(name: String, body: [Op])] = []
}

private extension Parser {
    var top: Frame {
        get { frames[frames.count - 1] }
        set { frames[frames.count - 1] = newValue }
    }

    mutating func feed(_ line: [Token], index lineIndex: Int) throws(TemplateError) {
        let tagIndices = line.indices.filter { line[$0].kind != .text }
        guard let first = tagIndices.first, let last = tagIndices.last else {
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

    /// Adds a tag to the tree; returns whether it takes the rest of its line with it.
    mutating func handle(
        _ token: Token, at position: Int, in context: LineContext, lineIndex: Int
    ) throws(TemplateError) -> Bool {
        let alone = context.standsAlone(position)
        switch token.kind {
        case .text, .comment, .delimiters:
            return alone
        case .variable, .unescaped:
            try requireOutsideParent(token)
            top.ops.append(.variable(name: add(Name(token.content)), escaped: token.kind == .variable))
            return false
        case .section, .inverted:
            try requireOutsideParent(token)
            var frame = Frame(
                kind: .section(inverted: token.kind == .inverted), name: token.content,
                openOffset: token.start, openLine: lineIndex)
            frame.standalone = alone
            frame.dedent = top.dedent
            frames.append(frame)
            return alone
        case .partial:
            let indentation = alone ? relative(context.leadingBlanks, to: top.dedent) : []
            try requireOutsideParent(token)
            tables.partials.append(
                PartialSite(
                    name: PartialName(token.content), indentation: indentation, standalone: alone, offset: token.start))
            top.ops.append(.partial(site: Int32(tables.partials.count - 1)))
            return alone
        case .parent:
            try requireOutsideParent(token)
            var frame = Frame(kind: .parent, name: token.content, openOffset: token.start, openLine: lineIndex)
            frame.clearsLeft = context.clearsLeft(position)
            frame.leading = context.leadingRange
            frame.indentation = frame.clearsLeft ? context.leadingBlanks : []
            frame.dedent = top.dedent
            frames.append(frame)
            return false
        case .block:
            return openBlock(token, at: position, in: context, lineIndex: lineIndex)
        case .close:
            return try close(token, at: position, in: context, lineIndex: lineIndex)
        }
    }

    mutating func openBlock(_ token: Token, at position: Int, in context: LineContext, lineIndex: Int) -> Bool {
        var frame = Frame(
            kind: .block(inParent: top.kind == .parent), name: token.content,
            openOffset: token.start, openLine: lineIndex)
        let alone = top.kind == .parent ? context.clearsRight(position) : context.standsAlone(position)
        frame.standalone = alone
        if alone {
            let intrinsic = context.indentationOfNextLine
            frame.dedent = intrinsic
            frame.indentation = relative(intrinsic, to: top.dedent)
        } else {
            frame.dedent = top.dedent
            frame.indentation = context.clearsLeft(position) ? relative(context.leadingBlanks, to: top.dedent) : []
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
        let alone = context.standsAlone(position)
        switch frame.kind {
        case .root:
            return false
        case .section(let inverted):
            top.ops.append(
                .section(
                    name: add(Name(frame.name)), inverted: inverted, standalone: frame.standalone,
                    bodyLength: Int32(frame.ops.count)))
            top.ops += frame.ops
            return alone
        case .block(inParent: true):
            top.overrides.removeAll { $0.name == frame.name }
            top.overrides.append((frame.name, frame.ops))
            return false
        case .block(inParent: false):
            tables.blocks.append(
                BlockSite(
                    name: frame.name, indentation: frame.indentation,
                    standalone: frame.standalone))
            top.ops.append(.block(site: Int32(tables.blocks.count - 1), bodyLength: Int32(frame.ops.count)))
            top.ops += frame.ops
            return alone
        case .parent:
            let closesLine = context.clearsRight(position) && (frame.openLine != lineIndex || frame.clearsLeft)
            let pair = frame.clearsLeft && closesLine
            if frame.clearsLeft && !pair && !frame.leading.isEmpty {
                appendText(
                    Token(
                        kind: .text, start: frame.leading.lowerBound, end: frame.leading.upperBound,
                        content: ""), atLineStart: true)
            }
            var bodies: [Op] = []
            var overrides: [String: Range<Int32>] = [:]
            for (name, body) in frame.overrides {
                overrides[name] = Int32(bodies.count)..<Int32(bodies.count + body.count)
                bodies += body
            }
            tables.parents.append(
                ParentSite(
                    name: PartialName(frame.name), overrides: overrides,
                    indentation: pair ? relative(frame.indentation, to: top.dedent) : [],
                    standalone: pair, offset: frame.openOffset))
            top.ops.append(.parent(site: Int32(tables.parents.count - 1), bodyLength: Int32(bodies.count)))
            top.ops += bodies
            return closesLine
        }
    }

    mutating func appendText(_ token: Token, atLineStart: Bool) {
        guard top.kind != .parent else { return }
        var start = token.start
        if atLineStart {
            for byte in top.dedent {
                guard start < token.end, bytes[start] == byte else { break }
                start += 1
            }
        }
        guard start < token.end else { return }
        let textStart = Int32(tables.text.count)
        let firstBreak = Int32(tables.lineBreaks.count)
        tables.text += bytes[start..<token.end]
        for index in start..<token.end where bytes[index] == UInt8(ascii: "\n") {
            tables.lineBreaks.append(textStart + Int32(index + 1 - start))
        }
        let segment = Segment(
            start: textStart, end: Int32(tables.text.count),
            firstBreak: firstBreak, endBreak: Int32(tables.lineBreaks.count),
            endsWithNewline: bytes[token.end - 1] == UInt8(ascii: "\n"))
        if top.textOpIndex == top.ops.count - 1, case .text(let previous)? = top.ops.last {
            tables.segments[Int(previous)].end = segment.end
            tables.segments[Int(previous)].endBreak = segment.endBreak
            tables.segments[Int(previous)].endsWithNewline = segment.endsWithNewline
            return
        }
        tables.segments.append(segment)
        top.ops.append(.text(segment: Int32(tables.segments.count - 1)))
        top.textOpIndex = top.ops.count - 1
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

/// What a line holds around each of its tags.
private struct LineContext {
    let line: [Token]
    let bytes: [UInt8]
    let first: Int
    let last: Int

    func clearsLeft(_ position: Int) -> Bool {
        line[..<position].allSatisfy { $0.isBlank(in: bytes) }
    }

    func clearsRight(_ position: Int) -> Bool {
        line[(position + 1)...].allSatisfy { $0.isBlank(in: bytes) }
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
