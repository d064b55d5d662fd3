import Foundation
import Mustache
import SiteGen

/// Reading template data from JSON files.
enum JSONValue {
    /// The JSON value in the file at `path` (any JSON value, not only an object).
    ///
    /// Strict RFC 8259 (see ``Mustache/Value/init(json:path:)``): a trailing comma or a
    /// repeated key is an error at its `path:line:column`.
    static func read(_ path: String, relativeTo base: URL) throws -> Value {
        let url = URL(fileURLWithPath: path, relativeTo: base)
        let data: Data
        do {
            data = try FileSystem.disk.read(url.path, FileSystem.textSizeLimit, nil)
        } catch {
            throw CommandError("\(path): cannot read data: \(error.reason)")
        }
        do {
            return try Value(json: Array(data), path: path)
        } catch {
            throw CommandError(error.description)
        }
    }
}
