import CommonMark
import Mustache

/// A plain page such as `content/about.md`, published at `/about/`.
public struct Page: Sendable, Equatable {
    public let source: String
    public let slug: String
    public let title: String
    public let description: String
    public let html: String
    public let extra: [String: Value]
    /// Links in the body to other files of the site by their path (`movies/parasite.md`).
    public let sourceLinks: [SourceLink]
    /// Where the slug comes from: the `slug` key's value, else the file (its name is the slug).
    public let slugLocation: SourceLocation

    public init(
        source: String, slug: String, title: String, description: String, html: String,
        extra: [String: Value], sourceLinks: [SourceLink] = [], slugLocation: SourceLocation? = nil
    ) {
        self.slugLocation = slugLocation ?? SourceLocation(path: source, line: 1, column: 1)
        self.source = source
        self.slug = slug
        self.title = title
        self.description = description
        self.html = html
        self.extra = extra
        self.sourceLinks = sourceLinks
    }

    /// The output folder relative to the site root: `about/`.
    public var path: String { "\(slug)/" }

    /// Reads a plain page: the page (when there is no error) and the problems found, errors
    /// and warnings. `extraFields` are keys sitegen does not know that `site.yml` says are meant.
    static func read(
        _ text: String, source: String, allowRawHTML: Bool, links: MarkdownLinks,
        extraFields: Set<String> = []
    ) -> (Page?, [Diagnostic]) {
        let front: FrontMatter
        var reader: FieldReader
        switch FrontMatter.read(text, path: source) {
        case .success(let parsed): (front, reader) = parsed
        case .failure(let problems): return (nil, problems.diagnostics)
        }
        let title = reader.string("title", required: true)
        let summary = reader.string("summary")
        let slug = reader.slug(for: source)
        let slugLocation = reader.slugLocation()
        let extra = reader.extraFields(allowing: extraFields, template: "extra")
        guard !reader.diagnostics.contains(where: { $0.severity == .error }), let title else {
            return (nil, reader.diagnostics)
        }
        let (body, sourceLinks) = links.render(front, source: source, allowRawHTML: allowRawHTML)
        var warnings = reader.diagnostics
        if !allowRawHTML,
            let omitted = Diagnostic.rawHTMLOmitted(
                in: body, body: front.body, path: source, firstLine: front.bodyFirstLine)
        {
            warnings.append(omitted)
        }
        return (
            Page(
                source: source, slug: slug, title: title, description: summary ?? body.firstParagraph,
                html: body.html, extra: extra, sourceLinks: sourceLinks, slugLocation: slugLocation), warnings
        )
    }
}
