import Foundation
import Mustache

/// The site folder as the loader reads it: paths relative to the site, symbolic links
/// checked to stay inside it, and every failure a diagnostic naming the path. A folder
/// that cannot be read is an error, never an empty folder; a missing optional folder
/// (`static/`, `Templates/`…) is simply empty.
struct SiteFolder: Sendable {
    let root: URL
    let fileSystem: FileSystem
    /// The site folder's path, as given.
    let rootPath: String
    /// The site folder with its links resolved.
    let realRoot: String
    /// The folders it reads files from, each opened once (on disk): a section's reviews are
    /// read by name in their open folder, with no check of each file's real path after opening.
    private let folders: OpenFolders?

    init(root: URL, fileSystem: FileSystem) {
        self.root = root
        self.fileSystem = fileSystem
        rootPath = root.path
        realRoot = fileSystem.realPath(rootPath) ?? root.standardizedFileURL.path
        folders = fileSystem.readsDisk ? OpenFolders(realRoot: realRoot) : nil
    }

    /// One entry of a folder, checked.
    struct Entry: Sendable, Equatable {
        let name: String
        /// The path relative to the site folder: `content/movies/parasite.md`.
        let path: String
        let isFolder: Bool
    }

    /// The absolute path of `relative` (a path this folder listed, or a fixed name).
    func path(_ relative: String) -> String {
        relative.isEmpty ? rootPath : SafePath.join(rootPath, relative)
    }

    /// What is at `relative` (links followed), or nil when nothing is.
    func kind(_ relative: String) -> FileSystem.Kind? {
        fileSystem.kind(path(relative))
    }

    /// The visible entries of the folder at `relative` (names starting with `.` are skipped),
    /// with links that leave the site, broken links, FIFOs and devices reported and left out.
    /// A missing folder has no entries; one that cannot be read is a diagnostic.
    func entries(_ relative: String, _ diagnostics: inout [Diagnostic]) -> [Entry] {
        guard isInside(relative, &diagnostics) else { return [] }
        let listed: [FileSystem.Entry]
        do {
            listed = try fileSystem.list(path(relative))
        } catch {
            if !error.isMissing {
                diagnostics.append(problem("cannot read the folder: \(error.reason)", at: relative))
            }
            return []
        }
        var entries: [Entry] = []
        for entry in listed where !entry.name.isHiddenName {
            let path = relative.isEmpty ? entry.name : relative + "/" + entry.name
            guard !Self.hasControlCharacter(entry.name) else {
                diagnostics.append(problem("a file name with a control character (such as a tab) is refused", at: path))
                continue
            }
            guard !entry.hasUndecodableName else {
                diagnostics.append(
                    problem(
                        "a file or folder name that is not valid UTF-8 (shown with �) is refused: rename it", at: path))
                continue
            }
            guard let kind = entry.kind else {
                diagnostics.append(
                    problem("a broken symbolic link: it leads to nothing, or into a loop of links", at: path))
                continue
            }
            if entry.isSymbolicLink && !isInside(path, &diagnostics) { continue }
            guard kind != .special else {
                diagnostics.append(notRegular(path))
                continue
            }
            entries.append(Entry(name: entry.name, path: path, isFolder: kind == .folder))
        }
        return entries
    }

    /// Every visible file below the folder at `relative`, as paths relative to that folder,
    /// sorted; folders reached twice through links (a loop) are reported once and not entered.
    /// Two paths that differ only in how an accented letter is encoded (composed `é`, or `e`
    /// and a combining accent) are reported, and the second left out: Swift's strings, and so
    /// every table of the site's files, take them for one.
    func files(under relative: String, _ diagnostics: inout [Diagnostic]) -> [String] {
        var found: [String] = []
        var visited: Set<[UInt8]> = []
        walk(relative, prefix: "", into: &found, visited: &visited, &diagnostics)
        var seen: Set<String> = []
        let inFolder = { (path: String) in relative.isEmpty ? path : relative + "/" + path }
        return found.filter { path in
            guard let index = seen.firstIndex(of: path) else { return seen.insert(path).inserted }
            diagnostics.append(.sameName(inFolder(path), as: inFolder(seen[index])))
            return false
        }
    }

    /// The bytes of the file at `relative`; a failure is a diagnostic. Files over `limit`
    /// bytes are refused (text files are read whole and parsed).
    func read(_ relative: String, limit: Int = DiskFile.sizeLimit, _ diagnostics: inout [Diagnostic]) -> Data? {
        do {
            if let folders, let bytes = try folders.read(path(relative), limit: limit) { return bytes }
            return try fileSystem.read(path(relative), limit, realRoot)
        } catch {
            diagnostics.append(problem("cannot read: \(error.reason)", at: relative))
            return nil
        }
    }

    /// Why the file at `relative`, where ``kind(_:)`` finds nothing, cannot be read: nil when
    /// nothing is there (nor a folder to hold it), the reading's error when its folder is there
    /// and the file cannot be reached (a folder that may be listed but not searched).
    func unreachable(_ relative: String) -> Diagnostic? {
        guard kind(relative.parentPath) == .folder else { return nil }
        do {
            _ = try fileSystem.read(path(relative), DiskFile.sizeLimit, realRoot)
            return nil
        } catch {
            return error.isMissing ? nil : problem("cannot read: \(error.reason)", at: relative)
        }
    }

    /// Whether `relative` resolves to a place inside the site folder that sitegen reads;
    /// reports it when not. A link may not lead out of the site, nor into a hidden folder of it
    /// (`.sitegen/`, `.git/`: sitegen never reads those), nor into an output folder sitegen
    /// wrote (its files would be published again inside themselves, growing with every build).
    func isInside(_ relative: String, _ diagnostics: inout [Diagnostic]) -> Bool {
        guard let real = fileSystem.realPath(path(relative)) else { return true }
        guard SafePath.isWithin(real, realRoot) else {
            diagnostics.append(problem("refused: it is a link to a place outside the site folder", at: relative))
            return false
        }
        // Where it leads is where it is written (nearly always): nothing more to look at.
        if real == SafePath.join(realRoot, relative) { return true }
        let inner = real.removingPathPrefix(SafePath.join(realRoot, ""))?.pathSegments() ?? []
        if let hidden = inner.firstIndex(where: \.isHiddenName) {
            let shown = inner[...hidden].joined(separator: "/")
            diagnostics.append(
                problem(
                    "refused: it is a link into \(shown), which is hidden: sitegen never reads hidden files and folders",
                    at: relative))
            return false
        }
        var folder = realRoot
        for (index, part) in inner.enumerated() {
            folder = SafePath.join(folder, String(part))
            if fileSystem.kind(SafePath.join(folder, OutputRecord.fileName)) == .file {
                let shown = inner[...index].joined(separator: "/")
                diagnostics.append(
                    problem(
                        "refused: it is a link into \(shown), a folder sitegen wrote a site into: "
                            + "its files would be published again inside themselves", at: relative))
                return false
            }
        }
        return true
    }

    /// The error for a FIFO, socket or device at `relative`, which is never read.
    func notRegular(_ relative: String) -> Diagnostic {
        problem("not a regular file or folder (a FIFO, socket or device)", at: relative)
    }

    /// A diagnostic about a path as a whole (line 1, column 1).
    func problem(_ message: String, at relative: String) -> Diagnostic {
        Diagnostic(message, at: SourceLocation(path: relative.isEmpty ? "." : relative, line: 1, column: 1))
    }
}

private extension SiteFolder {
    func walk(
        _ relative: String, prefix: String, into found: inout [String], visited: inout Set<[UInt8]>,
        _ diagnostics: inout [Diagnostic]
    ) {
        let real = fileSystem.realPath(path(relative)) ?? relative
        // Compared as bytes: `café` composed and decomposed are two folders, not a loop.
        guard visited.insert(Array(real.utf8)).inserted else {
            diagnostics.append(problem("a link loop: this folder is already part of the site", at: relative))
            return
        }
        for entry in entries(relative, &diagnostics) {
            let inner = prefix.isEmpty ? entry.name : prefix + "/" + entry.name
            if entry.isFolder {
                walk(entry.path, prefix: inner, into: &found, visited: &visited, &diagnostics)
            } else {
                found.append(inner)
            }
        }
    }
}

private extension Character {
    var isControlCharacter: Bool {
        unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

extension SiteFolder {
    /// Whether a file name holds a control character; a name of ASCII (nearly every one) is
    /// read as bytes, without breaking it into characters.
    static func hasControlCharacter(_ name: String) -> Bool {
        var ascii = true
        for byte in name.utf8 {
            if byte < 0x20 || byte == 0x7F { return true }
            if byte >= 0x80 { ascii = false }
        }
        return ascii ? false : name.contains(where: \.isControlCharacter)
    }
}
