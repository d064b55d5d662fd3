/// Renders nodes into UTF-8 bytes; one renderer serves one `render` call.
struct Renderer {
    /// How deep partials and parents may nest before rendering gives up.
    static let depthLimit = 200

    private(set) var output: [UInt8] = []
    private var stack: [Value]
    private var indentation: [UInt8] = []
    private var atLineStart = true
    private var overrides: [String: Override] = [:]
    private var source: TemplateSource
    private var sites: [SourceLocation] = []
    private let library: TemplateLibrary?

    init(root: Value, source: TemplateSource, library: TemplateLibrary?) {
        self.stack = [root]
        self.source = source
        self.library = library
        output.reserveCapacity(4096 + source.text.utf8.count)
    }

    func finish() -> String {
        String(decoding: output, as: UTF8.self)
    }

    mutating func render(_ nodes: [Node]) throws(TemplateError) {
        for node in nodes {
            switch node {
            case .text(let text):
                if indentation.isEmpty {
                    output.append(contentsOf: text.bytes)
                } else {
                    writeIndented(text.bytes)
                }
                atLineStart = text.endsWithNewline
            case .variable(let variable):
                startLine()
                if let value = lookup(variable.name) { write(value, escaped: variable.escaped) }
            case .section(let section):
                if !section.standalone { startLine() }
                try render(section)
            case .partial(let partial):
                if !partial.standalone { startLine() }
                try include(partial.name, at: partial.offset, indentation: partial.indentation,
                            standalone: partial.standalone, overrides: [:])
            case .parent(let parent):
                if !parent.standalone { startLine() }
                try include(parent.name, at: parent.offset, indentation: parent.indentation,
                            standalone: parent.standalone, overrides: parent.overrides)
            case .block(let block):
                if !block.standalone { startLine() }
                try expand(block)
            }
        }
    }
}

private extension Renderer {
    mutating func render(_ section: Node.Section) throws(TemplateError) {
        let value = lookup(section.name)
        if section.inverted {
            if !(value?.isTruthy ?? false) { try render(section.body) }
            return
        }
        guard let value, value.isTruthy else { return }
        if case .array(let items) = value {
            for item in items {
                stack.append(item)
                try render(section.body)
                stack.removeLast()
            }
        } else {
            stack.append(value)
            try render(section.body)
            stack.removeLast()
        }
    }

    /// Renders a partial (no overrides) or a parent (with its blocks) in place.
    mutating func include(
        _ name: PartialName, at offset: Int, indentation extra: [UInt8], standalone: Bool,
        overrides local: [String: Override]
    ) throws(TemplateError) {
        guard let resolved = resolve(name) else { return }
        let site = source.location(at: offset)
        guard sites.count < Self.depthLimit else {
            throw TemplateError(.tooDeep(limit: Self.depthLimit), at: site, includedFrom: sites.reversed())
        }
        let template: Template?
        do {
            template = try library?.template(named: resolved)
        } catch {
            throw TemplateError(error.reason, at: error.location,
                                includedFrom: error.includedFrom + [site] + sites.reversed())
        }
        guard let template else {
            if library?.missingPartials == .renderEmpty || library == nil { return }
            throw TemplateError(.missingPartial(name: resolved), at: site, includedFrom: sites.reversed())
        }
        let saved = (indentation, overrides, source)
        defer { (indentation, overrides, source) = saved }
        indentation = standalone ? indentation + extra : []
        if !local.isEmpty {
            overrides = overrides.isEmpty ? local : local.merging(overrides) { _, outer in outer }
        }
        source = template.source
        sites.append(site)
        defer { sites.removeLast() }
        try render(template.nodes)
    }

    /// Renders a block where it stands: the content passed for it, or its default.
    mutating func expand(_ block: Node.Block) throws(TemplateError) {
        let saved = (indentation, source)
        defer { (indentation, source) = saved }
        if !block.indentation.isEmpty { indentation += block.indentation }
        if let override = overrides[block.name] {
            source = override.source
            try render(override.body)
        } else {
            try render(block.body)
        }
    }

    func resolve(_ name: PartialName) -> String? {
        switch name {
        case .fixed(let text): return text
        case .dynamic(let dotted):
            if case .string(let text)? = lookup(dotted) { return text }
            return nil
        }
    }

    /// Finds a dotted name: its first part in the innermost context that has it, the rest inside that.
    func lookup(_ name: Name) -> Value? {
        guard let first = name.parts.first else { return stack.last }
        var found: Value?
        for frame in stack.reversed() {
            if case .object(let members) = frame, let value = members[first] {
                found = value
                break
            }
        }
        guard var value = found else { return nil }
        for part in name.parts.dropFirst() {
            guard case .object(let members) = value, let member = members[part] else { return nil }
            value = member
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

    mutating func writeIndented(_ bytes: [UInt8]) {
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            if atLineStart { output.append(contentsOf: indentation) }
            output.append(contentsOf: bytes[start...index])
            atLineStart = true
            start = index + 1
        }
        if start < bytes.count {
            if atLineStart { output.append(contentsOf: indentation) }
            output.append(contentsOf: bytes[start...])
        }
    }
}
