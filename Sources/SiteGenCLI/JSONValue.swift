import Foundation
import Mustache

/// Reading template data from JSON files.
enum JSONValue {
    /// The JSON value in the file at `path` (any JSON value, not only an object).
    static func read(_ path: String, relativeTo base: URL) throws -> Value {
        let url = URL(fileURLWithPath: path, relativeTo: base)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CommandError("\(path): cannot read data: \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw CommandError(syntaxError(in: data, path: path) ?? "\(path): not valid JSON: \(error)")
        }
    }

    /// Foundation's parser reports a byte offset ("around character 16"); this turns it
    /// into `path:line:column: message`.
    static func syntaxError(in data: Data, path: String) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            let text = String(decoding: data, as: UTF8.self)
            var offset = data.count
            if let range = detail.range(of: #"character (\d+)"#, options: .regularExpression),
                let number = Int(detail[range].dropFirst("character ".count))
            {
                offset = min(number, data.count)
            }
            let location = SourceLocation(path: path, source: text, offset: offset)
            return "\(location): not valid JSON: \(detail)"
        }
    }
}
