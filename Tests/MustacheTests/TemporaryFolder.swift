import Foundation
import Mustache

/// A fresh folder under the system's temporary directory, removed when the value is released.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("mustache-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` to `relativePath`, creating folders as needed; returns the file's path.
    @discardableResult
    func write(_ text: String, to relativePath: String) throws -> String {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// A loader that reads `<name>.mustache` from this folder, or finds nothing.
    ///
    /// `onLoad` is called with each name the library asks for.
    func loader(onLoad: @escaping @Sendable (String) -> Void = { _ in }) -> TemplateLibrary.Loader {
        let folder = url
        return { (name: String) throws(TemplateError) -> Template? in
            onLoad(name)
            let file = folder.appendingPathComponent("\(name).mustache")
            guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
            return try Template(String(decoding: data, as: UTF8.self), name: name, path: file.path)
        }
    }
}
