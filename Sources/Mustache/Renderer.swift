/// Renders a compiled template into UTF-8 bytes; one renderer serves one `render` call.
///
/// Sections, partials, parents and blocks recurse; ``RenderLimits`` bounds how deep, how
/// long and how much, so hostile input ends in a located error.
struct Renderer: ~Copyable {
    var output: OutputBuffer
    var stack: [Value]
    /// The object of each context in `stack` (nil for other values), unretained: `stack`
    /// holds them, and lookups read them without reference counting.
    var objects: [Unmanaged<ObjectStorage>?]
    var indentation: [UInt8] = []
    var atLineStart = true
    private var overrides: [String: OverrideRef] = [:]
    private let program: Program
    /// The partial and parent tags being rendered, outermost first; located only on error.
    /// Unretained: each program is being rendered, held by the library or by the renderer.
    var sites: [(program: Unmanaged<Program>, offset: Int)] = []
    let library: TemplateLibrary?
    let limits: RenderLimits
    /// Sections, blocks, partials and parents open right now.
    var depth = 0
    var steps = 0
    /// The output limit error, once indented text has outgrown it.
    var overflow: TemplateError?
    /// Partials being rendered with an object that keeps renderings, outermost first, and the
    /// stack frame of the innermost one's object (0 without one): a lookup that reaches below
    /// it is noted in them (``RenderMemo``).
    var recordings: [MemoRecording] = []
    var recordFloor = 0
    /// Non-standalone partials open (each renders without the indentation around it).
    var resets = 0
    /// The deepest nesting and partial levels reached, for ``MemoEntry``.
    var deepest = 0
    var deepestSites = 0
    /// What ``warm(_:)`` read, kept so that its reads are made.
    var warmth = 0

    init(root: Value, program: Program, library: TemplateLibrary?) {
        self.stack = [root]
        self.objects = [Self.object(root)]
        self.program = program
        self.library = library
        self.limits = library?.limits ?? .standard
        output = OutputBuffer(
            capacity: Swift.max(4096 + program.text.count * 2, program.outputSizeHint.load(ordering: .relaxed)))
    }

    mutating func render() throws(TemplateError) {
        steps = program.ops.count
        try render(program, 0..<program.ops.count)
        if let overflow { throw overflow }
        if output.count > program.outputSizeHint.load(ordering: .relaxed) {
            // Some slack, so that a slightly larger page does not grow the buffer at its end.
            program.outputSizeHint.store(Swift.min(output.count + output.count / 8, 1 << 24), ordering: .relaxed)
        }
    }

    /// Lends the output's bytes to `body` (valid during the call only).
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try output.withBytes(body)
    }

    /// The output as text.
    var text: String { output.text }

    /// The output as UTF-8 bytes.
    var bytes: [UInt8] { output.bytes }
}

/// A place in a program, as a dictionary key.
private struct SiteKey: Hashable {
    let program: ObjectIdentifier
    let offset: Int
}

/// A block passed to a parent: operations in the template that wrote it.
private struct OverrideRef {
    let program: Program
    let range: Range<Int>
    /// The blocks passed to the template that wrote it: the ones its own blocks and parents see.
    let scope: [String: OverrideRef]
}

extension Renderer {
    mutating func render(_ program: Program, _ range: Range<Int>) throws(TemplateError) {
        let ops = program.ops
        let segments = program.segments
        var index = range.lowerBound
        while index < range.upperBound {
            switch ops[index] {
            case .text(let segment):
                write(segments[Int(segment)], of: program, at: index)
                index += 1
            case .variable(let name, let escaped):
                startLine()
                writeVariable(name, in: program, escaped: escaped)
                // A value may be as large as the data: without sections, only here is a
                // template repeating it stopped.
                if output.count > limits.outputBytes { try stop(at: index, of: program, opening: false) }
                index += 1
            case .section(let name, let inverted, let standalone, let length):
                if !standalone { startLine() }
                let body = index + 1..<index + 1 + Int(length)
                try renderSection(lookup(name, in: program), inverted: inverted, body: body, at: index, of: program)
                index = body.upperBound
            case .partial(let site):
                let partial = program.partials.baseAddress! + Int(site)
                if !partial.pointee.standalone { startLine() }
                try include(
                    partial.pointee.name, at: (.passUnretained(program), partial.pointee.offset),
                    indentation: partial.pointee.indentation, standalone: partial.pointee.standalone, overrides: [:])
                index += 1
            case .parent(let site, let length):
                let parent = program.parents[Int(site)]
                if let leading = parent.leadingText { write(segments[Int(leading)], of: program, at: index) }
                if !parent.standalone { startLine() }
                let base = index + 1
                let passed = parent.overrides.mapValues { range in
                    OverrideRef(
                        program: program, range: base + Int(range.lowerBound)..<base + Int(range.upperBound),
                        scope: overrides)
                }
                try include(
                    parent.name, at: (.passUnretained(program), parent.offset), indentation: parent.indentation,
                    standalone: parent.standalone, overrides: passed)
                index = base + Int(length)
            case .block(let site, let length):
                let block = program.blocks[Int(site)]
                if !block.standalone { startLine() }
                let body = index + 1..<index + 1 + Int(length)
                try expand(block, defaultBody: body, at: index, of: program)
                index = body.upperBound
            }
        }
    }

    /// Writes the indentation, noting where for the renderings being kept.
    @inline(__always)
    mutating func writeIndentation() {
        if !recordings.isEmpty { noteIndentation() }
        output.append(indentation)
    }

    /// A dotted name's place: its first part in the innermost of frames `top` down to `bottom`
    /// that has it, the rest inside that; and that frame (-1: none).
    @inline(__always)
    func search(
        _ parts: Slice<UnsafeBufferPointer<Name.Key>>, from top: Int, downTo bottom: Int
    ) -> (frame: Int, place: (holder: Unmanaged<ObjectStorage>, index: Int)?) {
        let first = parts[parts.startIndex]
        var frame = top
        while frame >= bottom {
            if let object = objects[frame],
                let index = object._withUnsafeGuaranteedRef({ $0.index(of: first.string, hash: first.hash) })
            {
                var place = (holder: object, index: index)
                for part in parts.dropFirst() {
                    guard let inner = place.holder._withUnsafeGuaranteedRef({ $0.object(at: place.index) }),
                        let next = inner._withUnsafeGuaranteedRef({ $0.index(of: part.string, hash: part.hash) })
                    else { return (frame, nil) }
                    place = (inner, next)
                }
                return (frame, place)
            }
            frame -= 1
        }
        return (-1, nil)
    }
}

private extension Renderer {
    @inline(never)
    mutating func renderSection(
        _ value: Value?, inverted: Bool, body: Range<Int>, at index: Int, of program: Program
    ) throws(TemplateError) {
        if inverted {
            guard !(value?.isTruthy ?? false) else { return }
            try enter(costing: body.count, at: index, of: program)
            defer { depth -= 1 }
            try render(program, body)
            return
        }
        guard let value, value.isTruthy else { return }
        try enter(costing: 0, at: index, of: program)
        defer { depth -= 1 }
        if case .array(let items) = value {
            if items.count > 1 { warmth &+= Self.warm(items) }
            for item in items {
                try charge(body.count + 1, at: index, of: program)
                push(item)
                try render(program, body)
                pop()
            }
        } else {
            try charge(body.count, at: index, of: program)
            push(value)
            try render(program, body)
            pop()
        }
    }

    /// Opens one level of nesting for the tag at operation `index`, counting `cost` steps.
    @inline(__always)
    mutating func enter(costing cost: Int, at index: Int, of program: Program) throws(TemplateError) {
        steps += cost
        if depth >= limits.nesting || steps > limits.steps || output.count > limits.outputBytes {
            try stop(at: index, of: program, opening: true)
        }
        depth += 1
        deepest = Swift.max(deepest, depth)
    }

    /// Counts `cost` steps against the budget; the output's size is checked here too.
    @inline(__always)
    mutating func charge(_ cost: Int, at index: Int, of program: Program) throws(TemplateError) {
        steps += cost
        if steps > limits.steps || output.count > limits.outputBytes {
            try stop(at: index, of: program, opening: false)
        }
    }

    /// Renders a partial (no overrides) or a parent (with its blocks) in place.
    mutating func include(
        _ name: PartialName, at site: (program: Unmanaged<Program>, offset: Int), indentation extra: [UInt8],
        standalone: Bool, overrides local: [String: OverrideRef]
    ) throws(TemplateError) {
        sites.append(site)
        deepestSites = Swift.max(deepestSites, sites.count)
        defer { sites.removeLast() }
        guard let resolved = resolve(name) else {
            guard library?.missingPartials == .fail, case .dynamic(let dotted) = name else { return }
            try missing(dotted)
        }
        if sites.count > limits.partialDepth || depth >= limits.nesting { try stopAtSite(opening: true) }
        // A template the library was given is read without retaining it: its reference count
        // would be written by both cores for every partial of every page.
        var loaded: Template?
        defer { withExtendedLifetime(loaded) {} }
        let program: Unmanaged<Program>
        if let given = library?.givenProgram(named: resolved) {
            program = given
        } else {
            guard let template = try load(resolved) else {
                if library == nil || library?.missingPartials == .renderEmpty { return }
                try missing(resolved)
            }
            loaded = template
            program = .passUnretained(template.program)
        }
        steps += program._withUnsafeGuaranteedRef { $0.ops.count }
        if steps > limits.steps || output.count > limits.outputBytes { try stopAtSite(opening: false) }
        let saved = (indentation, overrides, resets)
        depth += 1
        deepest = Swift.max(deepest, depth)
        defer {
            (indentation, overrides, resets) = saved
            depth -= 1
        }
        // Only a change allocates: most partials add no indentation to what is there.
        if !standalone {
            resets += 1
            if !indentation.isEmpty { indentation = [] }
        } else if !extra.isEmpty {
            indentation += extra
        }
        if !local.isEmpty {
            overrides = overrides.isEmpty ? local : local.merging(overrides) { _, outer in outer }
        }
        let memo = overrides.isEmpty ? keptRenderings() : nil
        var failure: TemplateError?
        program._withUnsafeGuaranteedRef { program in
            do throws(TemplateError) {
                if let memo {
                    try renderKept(program, memo)
                } else {
                    try render(program, 0..<program.ops.count)
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Renders a block where it stands: the content passed for it, or its default.
    mutating func expand(
        _ block: BlockSite, defaultBody: Range<Int>, at index: Int, of program: Program
    ) throws(TemplateError) {
        let override = overrides[block.name]
        try enter(costing: override?.range.count ?? defaultBody.count, at: index, of: program)
        let saved = indentation
        defer {
            indentation = saved
            depth -= 1
        }
        if !block.indentation.isEmpty { indentation += block.indentation }
        if let override {
            let outer = overrides
            defer { overrides = outer }
            overrides = override.scope
            try render(override.program, override.range)
        } else {
            try render(program, defaultBody)
        }
    }

    /// The template called `name`, with a loader's error placed in the chain of partials.
    @inline(never)
    func load(_ name: String) throws(TemplateError) -> Template? {
        do {
            return try library?.template(named: name)
        } catch {
            throw TemplateError(error.reason, at: error.location, includedFrom: error.includedFrom + siteLocations)
        }
    }

    /// The limit that operation `index` ran into; `opening`: when it was to open a level.
    ///
    /// Errors are made in functions of their own, so that the recursive functions keep
    /// small stack frames (and the stack holds more levels).
    @inline(never)
    func stop(at index: Int, of program: Program, opening: Bool) throws(TemplateError) -> Never {
        if let overflow { throw overflow }
        throw TemplateError(
            exceeded(opening: opening), at: program.location(ofOp: index), includedFrom: siteLocations)
    }

    /// The limit the innermost partial or parent tag ran into, at that tag.
    @inline(never)
    func stopAtSite(opening: Bool) throws(TemplateError) -> Never {
        if let overflow { throw overflow }
        let reason =
            opening && sites.count > limits.partialDepth
            ? .tooDeep(limit: limits.partialDepth) : exceeded(opening: opening)
        let locations = siteLocations
        throw TemplateError(reason, at: locations[0], includedFrom: Array(locations.dropFirst()))
    }

    func exceeded(opening: Bool) -> TemplateError.Reason {
        if opening && depth >= limits.nesting { return .nestedTooDeep(limit: limits.nesting) }
        if steps > limits.steps {
            // Said of partials only when one is being rendered inside itself.
            let programs = sites.map { ObjectIdentifier($0.program.takeUnretainedValue()) }
            return .tooManySteps(limit: limits.steps, throughPartials: Set(programs).count < programs.count)
        }
        return .outputTooLarge(limit: limits.outputBytes)
    }

    /// Indented text outgrew the output limit: keeps the error for the next check.
    @inline(never)
    mutating func noteOverflow(at index: Int, of program: Program) {
        guard overflow == nil else { return }
        overflow = TemplateError(
            .outputTooLarge(limit: limits.outputBytes), at: program.location(ofOp: index), includedFrom: siteLocations)
    }

    @inline(never)
    func missing(_ name: String) throws(TemplateError) -> Never {
        let locations = siteLocations
        throw TemplateError(.missingPartial(name: name), at: locations[0], includedFrom: Array(locations.dropFirst()))
    }

    @inline(never)
    func missing(_ dotted: Name) throws(TemplateError) -> Never {
        try missing("*" + (dotted.parts.isEmpty ? "." : dotted.parts.map(\.string).joined(separator: ".")))
    }

    /// The include sites, innermost first, as file locations (each place found once, as a
    /// recursive partial repeats the same few).
    var siteLocations: [SourceLocation] {
        var found: [SiteKey: SourceLocation] = [:]
        return sites.reversed().map { site in
            let program = site.program.takeUnretainedValue()
            let key = SiteKey(program: ObjectIdentifier(program), offset: site.offset)
            if let location = found[key] { return location }
            let location = program.source.location(at: site.offset)
            found[key] = location
            return location
        }
    }

    func resolve(_ name: PartialName) -> String? {
        switch name {
        case .fixed(let text): return text
        case .dynamic(let dotted):
            let found = dotted.parts.withUnsafeBufferPointer { lookup($0[...]) }
            if case .string(let text)? = found { return text }
            return nil
        }
    }

    func lookup(_ name: NameRef, in program: Program) -> Value? {
        lookup(program.keys[Int(name.start)..<Int(name.start + name.count)])
    }

    /// Writes the value of a variable tag, found as ``lookup(_:)`` finds it but lent where it
    /// is stored rather than copied out: no reference counting for the most frequent tag.
    @inline(__always)
    mutating func writeVariable(_ name: NameRef, in program: Program, escaped: Bool) {
        let parts = program.keys[Int(name.start)..<Int(name.start + name.count)]
        guard !parts.isEmpty else {
            if let value = stack.last { write(value, escaped: escaped) }
            return
        }
        guard let place = locate(parts) else { return }
        place.holder._withUnsafeGuaranteedRef { storage in
            storage.withValue(at: place.index) { write($0, escaped: escaped) }
        }
    }

    /// Finds a dotted name: its first part in the innermost context that has it, the rest inside that.
    func lookup(_ parts: Slice<UnsafeBufferPointer<Name.Key>>) -> Value? {
        guard !parts.isEmpty else { return stack.last }
        return locate(parts).map { place in place.holder._withUnsafeGuaranteedRef { $0.value(at: place.index) } }
    }

    /// Where the value of a dotted name of one or more parts is stored (the object holding it,
    /// unretained, and its index there), or nil when it is not found.
    @inline(__always)
    func locate(_ parts: Slice<UnsafeBufferPointer<Name.Key>>) -> (holder: Unmanaged<ObjectStorage>, index: Int)? {
        let floor = recordFloor
        let found = search(parts, from: objects.count - 1, downTo: floor)
        return found.frame < 0 && floor > 0 ? locateOutside(parts, below: floor) : found.place
    }

    /// Enters a context.
    @inline(__always)
    mutating func push(_ value: Value) {
        stack.append(value)
        objects.append(Self.object(value))
    }

    /// Leaves the innermost context.
    @inline(__always)
    mutating func pop() {
        stack.removeLast()
        objects.removeLast()
    }

    /// Starts reading the kept renderings of the objects in `items` (a list of cards), each
    /// unretained: see ``RenderMemo/warm()``.
    static func warm(_ items: [Value]) -> Int {
        var sum = 0
        for item in items {
            guard let storage = object(item),
                let memo = storage._withUnsafeGuaranteedRef({ $0.memo.map { Unmanaged.passUnretained($0) } })
            else { continue }
            sum &+= memo._withUnsafeGuaranteedRef { $0.warm() }
        }
        return sum
    }

    static func object(_ value: Value) -> Unmanaged<ObjectStorage>? {
        if case .object(let members) = value { return Unmanaged.passUnretained(members.storage) }
        return nil
    }

    mutating func write(_ value: Value, escaped: Bool) {
        switch value {
        case .string(let text):
            escaped ? HTML.appendEscaped(text, to: &output) : HTML.append(text, to: &output)
        case .null, .object:
            break
        default:
            let text = value.renderedText
            escaped ? HTML.appendEscaped(text, to: &output) : HTML.append(text, to: &output)
        }
    }

    /// Writes the indentation if this is the first thing on a line.
    mutating func startLine() {
        if atLineStart {
            writeIndentation()
            atLineStart = false
        }
    }

    /// Writes text, indenting its lines when a standalone partial or block asks for it.
    @inline(__always)
    mutating func write(_ segment: Segment, of program: Program, at opIndex: Int) {
        if indentation.isEmpty {
            output.append(
                UnsafeBufferPointer(rebasing: program.text[Int(segment.start)..<Int(segment.end)]))
            atLineStart = segment.endsWithNewline
        } else {
            writeIndented(segment, of: program, at: opIndex)
        }
    }

    /// Writes text with the indentation at the start of each line; when that makes it
    /// outgrow the output limit, stops early and keeps the error for the next check.
    @inline(never)
    mutating func writeIndented(_ segment: Segment, of program: Program, at opIndex: Int) {
        let text = program.text
        var start = Int(segment.start)
        for index in Int(segment.firstBreak)..<Int(segment.endBreak) {
            if output.count > limits.outputBytes {
                noteOverflow(at: opIndex, of: program)
                return
            }
            let end = Int(program.lineBreaks[index])
            if atLineStart { writeIndentation() }
            output.append(UnsafeBufferPointer(rebasing: text[start..<end]))
            atLineStart = true
            start = end
        }
        if start < Int(segment.end) {
            if atLineStart { writeIndentation() }
            output.append(UnsafeBufferPointer(rebasing: text[start..<Int(segment.end)]))
        }
        atLineStart = segment.endsWithNewline
    }
}
