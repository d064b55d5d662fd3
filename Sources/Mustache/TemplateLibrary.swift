import Synchronization

/// The templates that partial and parent tags can name, shared by all renders.
///
/// Templates given up front are read without locking; ones fetched through the
/// loader (for example from a folder, on first use) are parsed once and kept.
public final class TemplateLibrary: Sendable {
    /// What a partial tag naming an unknown template does.
    public enum MissingPartials: Sendable, Equatable {
        /// Stop rendering with an error (site builds: a typo must not drop part of a page).
        case fail
        /// Render nothing, as the Mustache spec asks.
        case renderEmpty
    }

    /// Finds a template by name; returns `nil` when there is none.
    public typealias Loader = @Sendable (String) throws(TemplateError) -> Template?

    public let missingPartials: MissingPartials
    /// How deep, how long and how much one render may go.
    public let limits: RenderLimits
    private let templates: [String: Template]
    /// The programs of `templates`, unretained: the library holds them for its life.
    private let programs: [String: Unmanaged<Program>]
    private let loader: Loader?
    private let loaded = Mutex<[String: Template?]>([:])

    public init(
        templates: [String: Template] = [:], missingPartials: MissingPartials = .fail, loader: Loader? = nil,
        limits: RenderLimits = .standard
    ) {
        self.templates = templates
        programs = templates.mapValues { Unmanaged.passUnretained($0.program) }
        self.missingPartials = missingPartials
        self.loader = loader
        self.limits = limits
    }

    /// Parses each source under its name; `paths` (by name) are used in error messages.
    public convenience init(
        sources: [String: String], paths: [String: String] = [:], missingPartials: MissingPartials = .fail
    ) throws(TemplateError) {
        var templates: [String: Template] = [:]
        for (name, text) in sources.sorted(by: { $0.key < $1.key }) {
            templates[name] = try Template(text, name: name, path: paths[name])
        }
        self.init(templates: templates, missingPartials: missingPartials)
    }

    /// The template called `name`, if there is one.
    public func template(named name: String) throws(TemplateError) -> Template? {
        if let template = templates[name] { return template }
        guard let loader else { return nil }
        if let cached = loaded.withLock({ $0[name] }) { return cached }
        let template = try loader(name)
        loaded.withLock { $0[name] = template }
        return template
    }

    /// The program of the template called `name` when the library was given it, unretained
    /// (valid as long as the library is).
    func givenProgram(named name: String) -> Unmanaged<Program>? {
        programs[name]
    }

    /// Renders the template called `name` with `value`.
    public func render(_ name: String, _ value: Value) throws(TemplateError) -> String {
        guard let template = try template(named: name) else {
            throw TemplateError(.missingPartial(name: name), at: SourceLocation(path: name, line: 1, column: 1))
        }
        return try template.render(value, partials: self)
    }

    /// The names of the templates given up front, sorted.
    public var names: [String] { templates.keys.sorted() }
}
