import Foundation

@testable import SiteGen

/// A site folder held in memory (relative path → text), loaded through a ``FileSystem`` of closures.
struct InMemorySite {
    static let root = URL(fileURLWithPath: "/in-memory-site", isDirectory: true)
    static let defaultConfig = "title: Test Reviews\nbase_url: https://example.org/\n"

    var files: [String: String]

    /// A site with `site.yml` (unless `files` has its own) and `files`.
    init(_ files: [String: String] = [:], config: String = InMemorySite.defaultConfig) {
        self.files = ["site.yml": config].merging(files) { _, new in new }
    }

    var fileSystem: FileSystem {
        let data = files.mapValues { Data($0.utf8) }
        let prefix = Self.root.path + "/"
        let relative = { @Sendable (url: URL) -> String? in
            let path = url.standardizedFileURL.path
            if path == Self.root.path { return "" }
            return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
        }
        let folders = Set(
            data.keys.flatMap { path in
                let parts = path.split(separator: "/").dropLast()
                return parts.indices.map { parts[...($0)].joined(separator: "/") }
            })
        return FileSystem(
            read: { url in
                guard let path = relative(url), let bytes = data[path] else { throw CocoaError(.fileNoSuchFile) }
                return bytes
            },
            list: { url in
                guard let path = relative(url), path.isEmpty || folders.contains(path) else { return [] }
                let start = path.isEmpty ? "" : path + "/"
                var entries: [String: Bool] = [:]
                for key in data.keys where key.hasPrefix(start) {
                    let rest = key.dropFirst(start.count)
                    let name = String(rest.prefix { $0 != "/" })
                    entries[name, default: false] = entries[name, default: false] || rest.contains("/")
                }
                return entries.keys.sorted().map { FileSystem.Entry(name: $0, isDirectory: entries[$0]!) }
            },
            isDirectory: { url in relative(url).map { $0.isEmpty || folders.contains($0) } ?? false },
            fileExists: { url in relative(url).map { data[$0] != nil || folders.contains($0) } ?? false })
    }

    func loader(includeDrafts: Bool = false, baseURL: BaseURL? = nil) -> SiteLoader {
        SiteLoader(
            root: Self.root, fileSystem: fileSystem,
            options: .init(includeDrafts: includeDrafts, baseURL: baseURL))
    }

    /// The loaded site; fails the test with the diagnostics when it does not load.
    func load(includeDrafts: Bool = false) throws -> SiteContent {
        try loader(includeDrafts: includeDrafts).load()
    }

    /// The problems loading reports, as `path:line:column: message` lines; empty when it loads.
    func problems(includeDrafts: Bool = false) -> [String] {
        do {
            _ = try load(includeDrafts: includeDrafts)
            return []
        } catch let error as BuildError {
            return error.diagnostics.map(\.description)
        } catch {
            return ["unexpected error: \(error)"]
        }
    }
}

/// A review file: front matter lines between `---` fences, then the body.
func reviewFile(_ frontMatter: String, body: String = "A review.") -> String {
    "---\n\(frontMatter)\n---\n\(body)\n"
}
