import Foundation
import Mustache

/// The templates and assets a site renders with: the default theme built into sitegen,
/// with any file of the site's own `Templates/` folder taking the place of the same name.
public struct Theme: Sendable {
    /// Template sources by name (`review` for `review.mustache`), with the path errors show.
    public let templates: [String: (text: String, path: String)]
    /// Asset files by output path (`assets/site.css`).
    public let assets: [String: Data]

    public static let folderName = "Templates"
    static let defaultPath = "(default theme)"

    public init(templates: [String: (text: String, path: String)], assets: [String: Data]) {
        self.templates = templates
        self.assets = assets
    }

    /// The default theme alone.
    public static var builtIn: Theme {
        var templates: [String: (text: String, path: String)] = [:]
        var assets: [String: Data] = [:]
        for (path, base64) in DefaultTheme.files {
            guard let data = Data(base64Encoded: base64) else { continue }
            try? add(path, data, display: "\(defaultPath)/\(path)", to: &templates, &assets)
        }
        return Theme(templates: templates, assets: assets)
    }

    /// The default theme overlaid with the site's `Templates/` folder; unreadable files and
    /// links out of the site are diagnostics, files the theme cannot use are warnings.
    static func load(_ site: SiteFolder, _ diagnostics: inout [Diagnostic], _ warnings: inout [Diagnostic]) -> Theme {
        let theme = builtIn
        var templates = theme.templates
        var assets = theme.assets
        var ownAssets: Set<String> = []
        var folderWarnings: Set<String> = []
        for path in site.files(under: folderName, &diagnostics) {
            let source = "\(folderName)/\(path)"
            // A folder named like a template (`review.mustache/`): its files are no template of that name.
            let segments = path.pathSegments()
            if !path.hasPathPrefix("assets/"),
                let folder = segments.dropLast().firstIndex(where: { $0.hasSuffix(".mustache") }),
                folderWarnings.insert(segments[...folder].joined(separator: "/")).inserted
            {
                let name = segments[...folder].joined(separator: "/")
                warnings.append(
                    Diagnostic(
                        "ignored: \(folderName)/\(name) is a folder, and a template is a file: the default theme's "
                            + "is used in its place, if it has one",
                        at: SourceLocation(path: "\(folderName)/\(name)", line: 1, column: 1), severity: .warning))
                continue
            }
            guard path.hasSuffix(".mustache") || path.hasPathPrefix("assets/") else {
                warnings.append(
                    Diagnostic(
                        "ignored: a theme holds *.mustache templates and files under assets/",
                        at: SourceLocation(path: source, line: 1, column: 1), severity: .warning))
                continue
            }
            let limit = path.hasPathPrefix("assets/") ? DiskFile.copiedSizeLimit : DiskFile.sizeLimit
            guard let data = site.read(source, limit: limit, &diagnostics) else { continue }
            if path.hasPathPrefix("assets/") { ownAssets.insert(path) }
            do throws(TemplateError) {
                try add(path, data, display: source, to: &templates, &assets)
            } catch {
                diagnostics.append(Diagnostic(error.message, at: error.location))
            }
        }
        // A file of the site's assets in a folder named like a file of the default theme's that
        // the site does not replace (`assets/site.css/extra.css`): both cannot be published.
        for path in ownAssets.sorted() {
            guard let file = theme.assets.keys.first(where: { path.hasPathPrefix($0 + "/") }),
                !ownAssets.contains(file)
            else { continue }
            diagnostics.append(
                Diagnostic(
                    "\(folderName)/\(file) is a folder where the default theme has a file, published at /\(file): "
                        + "rename the folder, or make it a file to replace the theme's",
                    at: SourceLocation(path: "\(folderName)/\(path)", line: 1, column: 1)))
        }
        return Theme(templates: templates, assets: assets)
    }

    /// The theme of the site at `site`, or a ``BuildError`` naming each problem (as loading
    /// the site reports them: the theme is read with it).
    static func load(site: SiteFolder) throws -> Theme {
        var diagnostics: [Diagnostic] = []
        var warnings: [Diagnostic] = []
        let theme = load(site, &diagnostics, &warnings)
        guard diagnostics.isEmpty else { throw BuildError(step: "loading the site", diagnostics: diagnostics) }
        return theme
    }

    /// Compiles every template; every parse error becomes a diagnostic.
    public func library() -> (TemplateLibrary?, [Diagnostic]) {
        var compiled: [String: Template] = [:]
        var diagnostics: [Diagnostic] = []
        for (name, source) in templates.sorted(by: { $0.key < $1.key }) {
            do {
                compiled[name] = try Template(source.text, name: name, path: source.path)
            } catch {
                diagnostics.append(Diagnostic(error.message, at: error.location))
            }
        }
        guard diagnostics.isEmpty else { return (nil, diagnostics) }
        return (TemplateLibrary(templates: compiled, missingPartials: .fail), [])
    }

    /// Adds a file of a theme: a template's text (UTF-8, a byte order mark skipped; other
    /// bytes are an error at their place), or an asset's bytes.
    private static func add(
        _ path: String, _ data: Data, display: String,
        to templates: inout [String: (text: String, path: String)], _ assets: inout [String: Data]
    ) throws(TemplateError) {
        // Everything under assets/ is published as it is, a `.mustache` file too (a template for
        // a script in the browser), never compiled.
        if path.hasPathPrefix("assets/") {
            assets[path] = data
        } else if path.hasSuffix(".mustache") {
            templates[String(path.dropLast(".mustache".count))] = (
                try Template.text(utf8: [UInt8](data), path: display), display
            )
        }
    }
}
