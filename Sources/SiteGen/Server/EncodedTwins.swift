/// Finds files and folders whose names differ from a neighbour's only in how an accented letter
/// is encoded (composed `é`, or `e` and a combining accent): Swift's strings take the two for
/// one name, so the disk is asked. Each folder is read once per update and its names grouped,
/// so a save of thousands of files in one folder costs one listing, not one per file.
struct EncodedTwins {
    /// The folder's path: each name in it (by Swift equality), and the byte spellings it has there.
    private var folders: [String: [String: Set<[UInt8]>]] = [:]

    /// Whether a folder on the way to `relative` in `root`, or the file itself, has such a neighbour.
    mutating func any(_ relative: String, in root: String) -> Bool {
        var parent = root
        for part in relative.pathSegments() {
            if spellings(of: String(part), in: parent).count > 1 { return true }
            parent += "/" + part
        }
        return false
    }

    /// The byte spellings of `name` among the entries of the folder at `path`.
    private mutating func spellings(of name: String, in path: String) -> Set<[UInt8]> {
        if folders[path] == nil {
            var grouped: [String: Set<[UInt8]>] = [:]
            for entry in Directory.entries(path) ?? [] {
                grouped[entry.name, default: []].insert(Array(entry.name.utf8))
            }
            folders[path] = grouped
        }
        return folders[path]?[name] ?? []
    }
}
