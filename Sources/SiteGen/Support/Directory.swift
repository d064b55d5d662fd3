import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Lists folders with `readdir`, which says whether each entry is a file, folder or link
/// without a system call per entry (Foundation's resource values cost one or more).
public enum Directory {
    /// What an entry is; links are never followed.
    public enum Kind: Sendable, Equatable {
        case file
        case folder
        case link
        case other
    }

    /// The entries of the folder at `path`, sorted by name unless `sorted` is false, without
    /// `.` and `..`; nil if it cannot be opened. A name that is not valid UTF-8 (which no path
    /// made of a `String` can name again) comes with `decodable` false, shown with U+FFFD in
    /// place of its bad bytes.
    public static func entries(_ path: String, sorted: Bool = true) -> [(name: String, kind: Kind, decodable: Bool)]? {
        guard let stream = opendir(path) else { return nil }
        defer { closedir(stream) }
        var found: [(name: String, kind: Kind, decodable: Bool)] = []
        while let entry = readdir(stream) {
            let (name, decodable) = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let bytes = raw.bindMemory(to: CChar.self).baseAddress!
                let valid = String(validatingCString: bytes)
                return (valid ?? String(cString: bytes), valid != nil)
            }
            if name == "." || name == ".." { continue }
            found.append((name, kind(Int32(entry.pointee.d_type), at: path + "/" + name), decodable))
        }
        return sorted ? found.sorted { $0.name < $1.name } : found
    }

    /// Every file and link below `path`, as paths relative to it; entries whose names are not
    /// valid UTF-8 go to `undecodable` instead (their paths, shown with U+FFFD), not entered.
    public static func files(under path: String, prefix: String = "", undecodable: inout [String]) -> [String] {
        var found: [String] = []
        for entry in entries(path) ?? [] {
            let relative = prefix.isEmpty ? entry.name : prefix + "/" + entry.name
            if !entry.decodable {
                undecodable.append(relative)
            } else if entry.kind == .folder {
                found += files(under: path + "/" + entry.name, prefix: relative, undecodable: &undecodable)
            } else {
                found.append(relative)
            }
        }
        return found
    }

    /// ``files(under:prefix:undecodable:)`` for callers that write nothing named by the listing.
    public static func files(under path: String, prefix: String = "") -> [String] {
        var undecodable: [String] = []
        return files(under: path, prefix: prefix, undecodable: &undecodable)
    }

    /// The kind of the entry at `path` that `readdir` gave the type `type` (`DT_REG`…), asking
    /// the file system (`lstat`) where it did not say (the path is made only then: a folder of
    /// a site's reviews is listed three times a build).
    static func kind(_ type: Int32, at path: @autoclosure () -> String) -> Kind {
        switch type {
        case Int32(DT_REG): return .file
        case Int32(DT_DIR): return .folder
        case Int32(DT_LNK): return .link
        case Int32(DT_UNKNOWN):
            var info = stat()
            guard lstat(path(), &info) == 0 else { return .other }
            switch info.st_mode & S_IFMT {
            case S_IFREG: return .file
            case S_IFDIR: return .folder
            case S_IFLNK: return .link
            default: return .other
            }
        default: return .other
        }
    }

    /// Makes the folder at `path` and any missing folders above it, like `mkdir -p`;
    /// a failure names the path that could not be made and the system's reason.
    public static func make(_ path: String) throws(FileSystemError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw FileSystemError(path: path, reason: "a file is where a folder is needed")
            }
            return
        }
        let parent = path.parentPath
        if !parent.isEmpty && parent != path { try make(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw FileSystemError(path: path, code: errno) }
    }
}
