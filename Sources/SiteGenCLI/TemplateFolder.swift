import Foundation
import Mustache
import SiteGen

/// Reads partials and parents named `x` from `folder/x.mustache`.
public struct TemplateFolder: Sendable {
    /// The folder as the user wrote it, for messages.
    public let displayPath: String
    public let url: URL

    public init(displayPath: String, url: URL) {
        self.displayPath = displayPath
        self.url = url
    }

    /// A loader for ``TemplateLibrary``; names that would leave the folder are not found.
    public var loader: TemplateLibrary.Loader {
        { [self] name throws(TemplateError) in try load(name) }
    }

    /// The template called `name`, or `nil` when the folder has no such file.
    public func load(_ name: String) throws(TemplateError) -> Template? {
        let shown = displayPath.isEmpty ? "\(name).mustache" : "\(displayPath)/\(name).mustache"
        guard let file = SafePath.resolve(name + ".mustache", in: url) else {
            // A file there that links out of the folder is refused, and said so; a name that
            // is no file of the folder (`../secret`) is simply not one of its templates.
            guard SafePath.linkLeadsOut(name + ".mustache", in: url) else { return nil }
            throw TemplateError(
                .unreadable(detail: "refused: it is a link to a place outside its folder, or to nothing"),
                at: SourceLocation(path: shown, line: 1, column: 1))
        }
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let bytes: Data
        do {
            bytes = try FileSystem.disk.read(file.path, FileSystem.textSizeLimit, nil)
        } catch {
            throw TemplateError(
                .unreadable(detail: error.reason),
                at: SourceLocation(path: shown, line: 1, column: 1))
        }
        return try Template(utf8: Array(bytes), name: name, path: shown)
    }
}
