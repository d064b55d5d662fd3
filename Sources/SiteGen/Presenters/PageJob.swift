import Mustache

/// A page model: its template value, read by the Mustache engine directly, and a
/// comparison so a rebuild renders only pages whose model changed.
public protocol PageModel: Sendable, ValueRepresentable {
    func isEqual(to other: any PageModel) -> Bool
}

extension PageModel where Self: Equatable {
    public func isEqual(to other: any PageModel) -> Bool {
        (other as? Self) == self
    }
}

/// A file that is not an HTML page (the feed, the sitemap): its model writes its own bytes.
public protocol DocumentModel: PageModel {
    /// The document's text.
    func text() -> String
}

extension DocumentModel {
    public var templateValue: Value { .null }
}

/// One file to render: a template (or a document model that writes itself), the model it
/// gets, and where it goes.
public final class PageJob: Sendable {
    /// The output file relative to the site root: `movies/parasite/index.html`.
    public let output: String
    /// The template's name; empty for a ``DocumentModel``.
    public let template: String
    public let model: any PageModel

    public init(output: String, template: String, model: any PageModel) {
        self.output = output
        self.template = template
        self.model = model
    }

    /// A page served at the folder `path` (`movies/parasite/`).
    static func folder(_ path: String, template: String, model: any PageModel) -> PageJob {
        PageJob(output: path + "index.html", template: template, model: model)
    }

    /// A document (feed, sitemap) at `output`.
    static func document(_ output: String, _ model: any DocumentModel) -> PageJob {
        PageJob(output: output, template: "", model: model)
    }
}
