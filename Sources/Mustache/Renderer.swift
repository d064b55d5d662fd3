/// Renders a compiled template into UTF-8 bytes; one renderer serves one `render` call.
struct Renderer {
    /// How deep partials and parents may nest before rendering gives up.
    static let depthLimit = 200

    private(set) var output: [UInt8] = []
    private var stack: [Value]
    private var indentation: [UInt8] = []
    private var atLineStart = true
    private var overrides: [String: OverrideRef] = [:]
    private let program: Program
    /// The partial and parent tags being rendered, outermost first; located only on error.
    private var sites: [(program: Program, offset: Int)] = []
    private let library: TemplateLibrary?

    init(root: Value, program: Program, library: TemplateLibrary?) {
        self.stack = [root]
        self.program = program
        self.library = library
        output.reserveCapacity(4096 + program.text.count * 2)
    }

    mutating func render() throws(TemplateError) {
        try render(program, 0..<program.ops.count)
    }

    func finish() -> String {
        String(decoding: output, as: UTF8.self)
    }
}

/// A block passed to a parent: operations in the template that wrote it.
private struct OverrideRef {
    let program: Program
    let range: Range<Int>
    /// The blocks passed to the template that wrote it: the ones its own blocks and parents see.
    let scope: [String: OverrideRef]
}

private extension Renderer {
    mutating func render(_ program: Program, _ range: Range<Int>) throws(TemplateError) {
        let ops = program.ops
        let segments = program.segments
        var index = range.lowerBound
        while index < range.upperBound {
            switch ops[index] {
            case .text(let segment):
                write(segments[Int(segment)], of: program)
                index += 1
            case .variable(let name, let escaped):
                startLine()
                if let value = lookup(name, in: program) { write(value, escaped: escaped) }
                index += 1
            case .section(let name, let inverted, let standalone, let length):
                if !standalone { startLine() }
                let body = index + 1..<index + 1 + Int(length)
                try renderSection(lookup(name, in: program), inverted: inverted, body: body, of: program)
                index = body.upperBound
            case .partial(let site):
                let partial = program.partials[Int(site)]
                if !partial.standalone { startLine() }
                try include(
                    partial.name, at: (program, partial.offset), indentation: partial.indentation,
                    standalone: partial.standalone, overrides: [:])
                index += 1
            case .parent(let site, let length):
                let parent = program.parents[Int(site)]
                if !parent.standalone { startLine() }
                let base = index + 1
                let passed = parent.overrides.mapValues { range in
                    OverrideRef(
                        program: program, range: base + Int(range.lowerBound)..<base + Int(range.upperBound),
                        scope: overrides)
                }
                try include(
                    parent.name, at: (program, parent.offset), indentation: parent.indentation,
                    standalone: parent.standalone, overrides: passed)
                index = base + Int(length)
            case .block(let site, let length):
                let block = program.blocks[Int(site)]
                if !block.standalone { startLine() }
                let body = index + 1..<index + 1 + Int(length)
                try expand(block, defaultBody: body, of: program)
                index = body.upperBound
            }
        }
    }

    mutating func renderSection(
        _ value: Value?, inverted: Bool, body: Range<Int>, of program: Program
    ) throws(TemplateError) {
        if inverted {
            if !(value?.isTruthy ?? false) { try render(program, body) }
            return
        }
        guard let value, value.isTruthy else { return }
        if case .array(let items) = value {
            for item in items {
                stack.append(item)
                try render(program, body)
                stack.removeLast()
            }
        } else {
            stack.append(value)
            try render(program, body)
            stack.removeLast()
        }
    }

    /// Renders a partial (no overrides) or a parent (with its blocks) in place.
    mutating func include(
        _ name: PartialName, at site: (program: Program, offset: Int), indentation extra: [UInt8], standalone: Bool,
        overrides local: [String: OverrideRef]
    ) throws(TemplateError) {
        sites.append(site)
        defer { sites.removeLast() }
        guard let resolved = resolve(name) else {
            guard library?.missingPartials == .fail, case .dynamic(let dotted) = name else { return }
            let written = dotted.parts.isEmpty ? "." : dotted.parts.map(\.string).joined(separator: ".")
            throw TemplateError(
                .missingPartial(name: "*" + written), at: siteLocations[0],
                includedFrom: Array(siteLocations.dropFirst()))
        }
        guard sites.count <= Self.depthLimit else {
            throw TemplateError(
                .tooDeep(limit: Self.depthLimit), at: siteLocations[0], includedFrom: Array(siteLocations.dropFirst()))
        }
        let template: Template?
        do {
            template = try library?.template(named: resolved)
        } catch {
            throw TemplateError(error.reason, at: error.location, includedFrom: error.includedFrom + siteLocations)
        }
        guard let template else {
            if library == nil || library?.missingPartials == .renderEmpty { return }
            throw TemplateError(
                .missingPartial(name: resolved), at: siteLocations[0],
                includedFrom: Array(siteLocations.dropFirst()))
        }
        let saved = (indentation, overrides)
        defer { (indentation, overrides) = saved }
        indentation = standalone ? indentation + extra : []
        if !local.isEmpty {
            overrides = overrides.isEmpty ? local : local.merging(overrides) { _, outer in outer }
        }
        try render(template.program, 0..<template.program.ops.count)
    }

    /// Renders a block where it stands: the content passed for it, or its default.
    mutating func expand(_ block: BlockSite, defaultBody: Range<Int>, of program: Program) throws(TemplateError) {
        let saved = indentation
        defer { indentation = saved }
        if !block.indentation.isEmpty { indentation += block.indentation }
        if let override = overrides[block.name] {
            let outer = overrides
            defer { overrides = outer }
            overrides = override.scope
            try render(override.program, override.range)
        } else {
            try render(program, defaultBody)
        }
    }

    /// The include sites, innermost first, as file locations.
    var siteLocations: [SourceLocation] {
        sites.reversed().map { $0.program.source.location(at: $0.offset) }
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

    /// Finds a dotted name: its first part in the innermost context that has it, the rest inside that.
    func lookup(_ parts: Slice<UnsafeBufferPointer<Name.Key>>) -> Value? {
        guard let first = parts.first else { return stack.last }
        var found: Value?
        var frame = stack.count - 1
        while frame >= 0 {
            if case .object(let members) = stack[frame],
                let index = members.storage.index(of: first.string, hash: first.hash)
            {
                found = members.storage.value(at: index)
                break
            }
            frame -= 1
        }
        guard var value = found else { return nil }
        for part in parts.dropFirst() {
            guard case .object(let members) = value,
                let index = members.storage.index(of: part.string, hash: part.hash)
            else { return nil }
            value = members.storage.value(at: index)
        }
        return value
    }

    mutating func write(_ value: Value, escaped: Bool) {
        switch value {
        case .string(let text):
            escaped ? HTML.appendEscaped(text, to: &output) : output.append(contentsOf: text.utf8)
        case .null, .object:
            break
        default:
            let text = value.renderedText
            escaped ? HTML.appendEscaped(text, to: &output) : output.append(contentsOf: text.utf8)
        }
    }

    /// Writes the indentation if this is the first thing on a line.
    mutating func startLine() {
        if atLineStart {
            output.append(contentsOf: indentation)
            atLineStart = false
        }
    }

    mutating func write(_ segment: Segment, of program: Program) {
        let text = program.text
        do {
            if indentation.isEmpty {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: text[Int(segment.start)..<Int(segment.end)]))
            } else {
                var start = Int(segment.start)
                for index in Int(segment.firstBreak)..<Int(segment.endBreak) {
                    let end = Int(program.lineBreaks[index])
                    if atLineStart { output.append(contentsOf: indentation) }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<end]))
                    atLineStart = true
                    start = end
                }
                if start < Int(segment.end) {
                    if atLineStart { output.append(contentsOf: indentation) }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<Int(segment.end)]))
                }
            }
        }
        atLineStart = segment.endsWithNewline
    }
}
