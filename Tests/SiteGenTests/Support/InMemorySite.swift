import Foundation

@testable import SiteGen

/// A site folder held in memory (relative path → text), loaded through a ``FileSystem`` of closures.
struct InMemorySite {
    static let root = URL(fileURLWithPath: "/in-memory-site", isDirectory: true)
    static let defaultConfig = "title: Test Reviews\nbase_url: https://example.org/\n"

    var files: [String: String]
    /// Files whose bytes are not text (such as invalid UTF-8).
    var binary: [String: Data] = [:]
    /// Symbolic links: relative path → the absolute path they resolve to (a file of the
    /// site under ``root``, or anywhere else).
    var links: [String: String] = [:]
    /// Folders (or files) that exist but cannot be read.
    var unreadable: Set<String> = []
    /// FIFOs, sockets or devices.
    var special: Set<String> = []
    /// Folders that can be listed but not searched (mode 644): nothing in them can be reached.
    var unsearchable: Set<String> = []

    /// A site with `site.yml` (unless `files` has its own) and `files`.
    init(_ files: [String: String] = [:], config: String = InMemorySite.defaultConfig) {
        self.files = ["site.yml": config].merging(files) { _, new in new }
    }

    var fileSystem: FileSystem {
        let data = files.mapValues { Data($0.utf8) }.merging(binary) { _, new in new }
        let links = self.links
        let unreadable = self.unreadable
        let special = self.special
        let unsearchable = self.unsearchable
        let beyondReach = { @Sendable (path: String) in
            unsearchable.contains { path.hasPathPrefix($0 + "/") }
        }
        let prefix = Self.root.path + "/"
        let relative = { @Sendable (absolute: String) -> String? in
            let path = URL(fileURLWithPath: absolute).standardizedFileURL.path
            if path == Self.root.path { return "" }
            return path.removingPathPrefix(prefix).map(String.init)
        }
        let everything = Set(data.keys).union(links.keys).union(unreadable).union(special)
        let folders = Set(
            everything.flatMap { path in
                let parts = path.pathSegments().dropLast()
                return parts.indices.map { parts[...($0)].joined(separator: "/") }
            })
        /// The site path a path leads to through a link (links resolve into the site or out of it).
        let target = { @Sendable (path: String) -> String? in
            guard let link = links[path] else { return path }
            return link.removingPathPrefix(prefix).map(String.init)
        }
        /// What a folder's listing says an entry is (the system's listing needs no search permission).
        let listedKind = { @Sendable (path: String) -> FileSystem.Kind? in
            guard let resolved = target(path) else { return links[path].map { _ in .file } }
            if special.contains(resolved) { return .special }
            if data[resolved] != nil { return .file }
            if resolved.isEmpty || folders.contains(resolved) || unreadable.contains(resolved) { return .folder }
            return nil
        }
        let kind = { @Sendable (path: String) -> FileSystem.Kind? in beyondReach(path) ? nil : listedKind(path) }
        return FileSystem(
            read: { absolute, _, _ throws(FileSystemError) in
                guard let path = relative(absolute) else { throw FileSystemError(path: absolute, code: ENOENT) }
                if unreadable.contains(path) || beyondReach(path) {
                    throw FileSystemError(path: absolute, code: EACCES)
                }
                guard let resolved = target(path), let bytes = data[resolved] else {
                    throw FileSystemError(path: absolute, code: ENOENT)
                }
                return bytes
            },
            list: { absolute throws(FileSystemError) in
                guard let path = relative(absolute) else { throw FileSystemError(path: absolute, code: ENOENT) }
                if unreadable.contains(path) { throw FileSystemError(path: absolute, code: EACCES) }
                guard path.isEmpty || folders.contains(path) else {
                    throw FileSystemError(path: absolute, code: ENOENT)
                }
                let start = path.isEmpty ? "" : path + "/"
                var names: Set<String> = []
                // Cut at '/' bytes, as the system does (a name may start with a combining mark).
                for key in everything {
                    guard let rest = start.isEmpty ? key[...] : key.removingPathPrefix(start) else { continue }
                    names.insert(String(rest[..<(rest.firstSlashIndex ?? rest.endIndex)]))
                }
                return names.sorted().map { name in
                    FileSystem.Entry(
                        name: name, kind: listedKind(start + name), isSymbolicLink: links[start + name] != nil)
                }
            },
            kind: { absolute in relative(absolute).flatMap(kind) },
            realPath: { absolute in
                guard let path = relative(absolute) else { return absolute }
                if let link = links[path] { return link }
                return path.isEmpty ? Self.root.path : prefix + path
            })
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
