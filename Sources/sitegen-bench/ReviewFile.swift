import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A review file of the site being served, read and rewritten the way an editor saves it.
struct ReviewFile {
    /// Relative to the site: `content/movies/x.md`.
    var source: String
    var lines: [String]

    var section: String { String(source.split(separator: "/")[1]) }
    var name: String { String((source.split(separator: "/").last ?? "").dropLast(3)) }
    /// The page's path on the server: `/movies/x/`.
    var page: String { "/\(section)/\(field("slug") ?? name)/" }
    var title: String { field("title") ?? name }
    /// Where the front matter ends (the closing `---`).
    private var end: Int { lines.dropFirst().firstIndex(of: "---") ?? lines.count }

    init(site: URL, source: String) throws {
        self.source = source
        let text = try String(contentsOf: site.appendingPathComponent(source), encoding: .utf8)
        lines = text.components(separatedBy: "\n")
    }

    /// A front matter field's value, unquoted.
    func field(_ key: String) -> String? {
        lines[1..<end].first { $0.hasPrefix(key + ":") }.map {
            $0.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces).trimmingCharacters(
                in: CharacterSet(charactersIn: "\""))
        }
    }

    /// Sets a front matter field (adding it when missing); nil removes it.
    mutating func set(_ key: String, _ value: String?) {
        let at = lines[1..<end].firstIndex { $0.hasPrefix(key + ":") }
        switch (at, value) {
        case (let at?, let value?): lines[at] = "\(key): \(value)"
        case (let at?, nil): lines.remove(at: at)
        case (nil, let value?): lines.insert("\(key): \(value)", at: end)
        case (nil, nil): break
        }
    }

    mutating func appendToBody(_ text: String) {
        lines.append(text)
        lines.append("")
    }

    /// Saves the file as editors do: a temporary file beside it, renamed over it.
    func save(in site: URL) throws {
        try Self.save(Data(lines.joined(separator: "\n").utf8), to: site.appendingPathComponent(source))
    }

    /// Writes `data` to `url` through a hidden temporary file and a rename.
    static func save(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).bench-tmp")
        try data.writePlain(to: temporary)
        guard rename(temporary.path, url.path) == 0 else {
            throw BenchError("cannot rename \(temporary.path): \(String(cString: strerror(errno)))")
        }
    }
}
