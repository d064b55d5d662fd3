/// One file to render: a template, the page model it gets, and where it goes.
public struct PageJob: Sendable {
    /// The output file relative to the site root: `movies/parasite/index.html`.
    public let output: String
    public let template: String
    public let model: any Encodable & Sendable

    public init(output: String, template: String, model: any Encodable & Sendable) {
        self.output = output
        self.template = template
        self.model = model
    }

    /// A page served at the folder `path` (`movies/parasite/`).
    static func folder(_ path: String, template: String, model: any Encodable & Sendable) -> PageJob {
        PageJob(output: path + "index.html", template: template, model: model)
    }
}
