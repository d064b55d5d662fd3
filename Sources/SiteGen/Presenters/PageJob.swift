/// A page model: encodable for templates, comparable so a rebuild renders only what changed.
public protocol PageModel: Encodable, Sendable {
    func isEqual(to other: any PageModel) -> Bool
}

extension PageModel where Self: Equatable {
    public func isEqual(to other: any PageModel) -> Bool {
        (other as? Self) == self
    }
}

/// One file to render: a template, the page model it gets, where it goes, and which
/// reviews it shows (so a change to one review finds the pages that list it).
public struct PageJob: Sendable {
    /// The output file relative to the site root: `movies/parasite/index.html`.
    public let output: String
    public let template: String
    public let model: any PageModel
    /// Indexes (in the site's reviews) of the reviews the page shows.
    public let lists: [Int]

    public init(output: String, template: String, model: any PageModel, lists: [Int] = []) {
        self.output = output
        self.template = template
        self.model = model
        self.lists = lists
    }

    /// A page served at the folder `path` (`movies/parasite/`).
    static func folder(_ path: String, template: String, model: any PageModel, lists: [Int] = []) -> PageJob {
        PageJob(output: path + "index.html", template: template, model: model, lists: lists)
    }
}
