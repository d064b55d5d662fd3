/// A Mustache template, parsed once and rendered any number of times from any thread.
public struct Template: Sendable {
    /// The name partial and parent tags use for it.
    public let name: String
    let program: Program

    /// The names of the templates its partial and parent tags include; nil when one of them
    /// is dynamic (`{{>*name}}`), whose template only the data decides.
    public var includedNames: Set<String>? {
        var names: Set<String> = []
        for name in program.partials.map(\.name) + program.parents.map(\.name) {
            guard case .fixed(let text) = name else { return nil }
            names.insert(text)
        }
        return names
    }

    /// Parses `text`; `path` (default: `name`) is what error messages show.
    public init(_ text: String, name: String = "template", path: String? = nil) throws(TemplateError) {
        let source = TemplateSource(name: name, path: path ?? name, text: text)
        self.name = name
        var parser = Parser(source: source)
        self.program = try parser.parse()
    }

    /// Parses the bytes of a template file: UTF-8, after a byte order mark if there is one.
    ///
    /// A byte that is not UTF-8 is an error at its line and column.
    public init(utf8 bytes: [UInt8], name: String = "template", path: String? = nil) throws(TemplateError) {
        try self.init(try Self.text(utf8: bytes, path: path ?? name), name: name, path: path)
    }

    /// The text of a template file's bytes: UTF-8 after an optional byte order mark, or an
    /// error at the first byte that breaks it (at `path`, its line and column).
    public static func text(utf8 bytes: [UInt8], path: String) throws(TemplateError) -> String {
        let body = UTF8Text.withoutByteOrderMark(bytes)
        switch UTF8Text.decode(body) {
        case .success(let text):
            return text
        case .failure(let invalid):
            let location = body.withUnsafeBufferPointer { SourceLocation(path: path, utf8: $0, offset: invalid.offset) }
            throw TemplateError(.invalidUTF8(byte: invalid.byte), at: location)
        }
    }

    /// The path error messages show for this template.
    public var path: String { program.source.path }

    /// Renders the template with `value` as the data; partials come from `partials`.
    ///
    /// Without a library every partial counts as missing, which renders nothing.
    public func render(_ value: Value, partials: TemplateLibrary? = nil) throws(TemplateError) -> String {
        var renderer = Renderer(root: value, program: program, library: partials)
        try renderer.render()
        return renderer.text
    }

    /// Renders into bytes (UTF-8), skipping the final conversion to `String`.
    public func renderBytes(_ value: Value, partials: TemplateLibrary? = nil) throws(TemplateError) -> [UInt8] {
        var renderer = Renderer(root: value, program: program, library: partials)
        try renderer.render()
        return renderer.bytes
    }

    /// Renders, then lends the bytes (UTF-8) to `body`, valid only during the call: a caller
    /// that keeps them in a container of its own copies them once, not twice.
    public func withRenderedBytes<Result>(
        _ value: Value, partials: TemplateLibrary? = nil, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) throws(TemplateError) -> Result {
        var renderer = Renderer(root: value, program: program, library: partials)
        try renderer.render()
        return renderer.withBytes(body)
    }
}
