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
            add(path, data, display: "\(defaultPath)/\(path)", to: &templates, &assets)
        }
        return Theme(templates: templates, assets: assets)
    }

    /// The default theme overlaid with the site's `Templates/` folder.
    static func load(site: URL, fileSystem: FileSystem) throws -> Theme {
        var theme = builtIn
        var templates = theme.templates
        var assets = theme.assets
        let folder = site.appendingPathComponent(folderName)
        for path in try fileSystem.files(under: folder) {
            add(
                path, try fileSystem.read(folder.appendingPathComponent(path)), display: "\(folderName)/\(path)",
                to: &templates, &assets)
        }
        theme = Theme(templates: templates, assets: assets)
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

    private static func add(
        _ path: String, _ data: Data, display: String,
        to templates: inout [String: (text: String, path: String)], _ assets: inout [String: Data]
    ) {
        if path.hasSuffix(".mustache") {
            templates[String(path.dropLast(".mustache".count))] = (String(decoding: data, as: UTF8.self), display)
        } else if path.hasPrefix("assets/") {
            assets[path] = data
        }
    }
}
