import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The watched folders by watch descriptor, and what an event means for them.
struct WatchTable {
    let descriptor: Int32
    let root: String
    let watched: [String]
    /// Watched folders by watch descriptor, relative to the root (`""` is the root itself).
    private(set) var folders: [Int32: String] = [:]
    /// The watch descriptor of each watched folder, by its path.
    private var watches: [String: Int32] = [:]
    /// Which folder each watch was added for (its device and inode), by watch descriptor.
    private var identities: [Int32: FolderIdentity] = [:]
    /// Links in the watched trees to a file or folder elsewhere in the site: each link's path
    /// and its target's, relative to the root. The build reads through a link, so a change at
    /// the target, or below it, is a change at the link.
    private(set) var links: [String: String] = [:]
    /// ``links`` turned around: the links that lead to each target, so that a changed path
    /// finds its links by looking up itself and the folders it is in.
    private var linksTo: [String: Set<String>] = [:]
    /// The root's real path, for finding where links lead.
    private var realRoot: String?

    init(descriptor: Int32, root: String, watched: [String]) {
        self.descriptor = descriptor
        self.root = root
        self.watched = watched
    }

    static let mask = UInt32(
        IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
            | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// Watches the root (for `site.yml` and folders that appear) and every watched tree.
    mutating func watchEverything() {
        realRoot = SafePath.realPath(root)
        addWatch("")
        for path in watched { addTree(path) }
    }

    /// Whether the site folder is no longer watched: deleted, or moved away.
    var lostRoot: Bool { watches[""] == nil }

    /// Once a folder is at the site's path again (made anew, or moved back), watches everything
    /// afresh and returns every watched path, for a full rebuild; else nothing.
    mutating func rewatchIfBack() -> Set<String> {
        var info = stat()
        guard stat(root, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return [] }
        forgetAll()
        watchEverything()
        return Set(watched)
    }

    /// Updates the watches for `event` and returns the paths it changed that matter to the
    /// site: its own, and the same paths through the links that lead to them.
    mutating func apply(_ event: WatchEvent) -> Set<String> {
        let touched = changes(event)
        return touched.union(aliases(of: touched)).filter(relevant)
    }
}

private extension WatchTable {
    /// Updates the watches (and the links) for `event` and returns every path it changed.
    mutating func changes(_ event: WatchEvent) -> Set<String> {
        if event.has(IN_Q_OVERFLOW) {
            // Events were lost: watch everything afresh and have everything rebuilt.
            forgetAll()
            watchEverything()
            return Set(watched)
        }
        if event.has(IN_IGNORED) {
            if let folder = folders[event.watch], watches[folder] == event.watch { watches[folder] = nil }
            folders[event.watch] = nil
            identities[event.watch] = nil
            return []
        }
        guard let folder = folders[event.watch] else { return [] }
        if event.name.isEmpty {
            // The watched folder itself moved away (its old parent usually said so first).
            guard event.has(IN_MOVE_SELF) else { return [] }
            if folder.isEmpty {
                // The site folder itself: what happens at its new place is not the site. Nothing
                // is watched until a folder is at its path again (``rewatchIfBack()``).
                forgetAll()
                return Set(watched)
            }
            // The move that brought a folder here can report it to the folder's new watch as well:
            // that watch is added once the new parent reports the folder, which can be before the
            // move has finished reporting. A folder that is still at its path has not left.
            if let identity = identities[event.watch], FolderIdentity(root + "/" + folder) == identity { return [] }
            removeTree(folder)
            return [folder]
        }
        let path = folder.isEmpty ? event.name : folder + "/" + event.name
        if path == StateFolder.name {
            // sitegen's own folder made or removed: nothing of the site. A link (or a file) put
            // there or taken away: the rebuild checks it, and one that fixes it is seen.
            return event.has(IN_ISDIR) ? [] : [path]
        }
        guard event.has(IN_ISDIR) else {
            // A link put in place of a watched tree (`content` → `src`, a folder of the site), or
            // taken away: its folders are watched, or no longer, as they would be at the start.
            if watched.contains(path) {
                if event.has(IN_DELETE | IN_MOVED_FROM) { removeTree(path) }
                // A link out of the site is refused by the rebuild, and its tree never watched.
                if event.has(IN_CREATE | IN_MOVED_TO), SafePath.resolve(path, in: URL(fileURLWithPath: root)) != nil {
                    addTree(path)
                }
            } else if event.has(IN_DELETE | IN_MOVED_FROM) {
                setLink(path, to: nil)
            } else if event.has(IN_CREATE | IN_MOVED_TO) {
                // A link made (or put in place of a file): what it leads to is watched from now on.
                setLink(path, to: nil)
                if lstatKind(root + "/" + path) == .link { follow(path) }
            }
            return [path]
        }
        if event.has(IN_DELETE | IN_MOVED_FROM) {
            removeTree(path)
            return [path]
        }
        // Its permissions changed (made unreadable, or readable again): it is read anew, and
        // watched now if it could not be before.
        let attributes = event.has(IN_ATTRIB)
        guard event.has(IN_CREATE | IN_MOVED_TO) || attributes, relevant(path) || isLinked(path) else { return [] }
        if attributes, watches[path] != nil { return [path] }
        addTree(path)
        let files = Set(Directory.files(under: root + "/" + path).map { path + "/" + $0 })
        // A folder put directly in a section is reported itself too: empty, or without
        // index.md, it is no review, and the rebuild says so.
        let inSection = path.hasPathPrefix("content/") && path.pathSegments().count == 3
        return attributes || inSection ? files.union([path]) : files
    }

    /// Notes the link at `path` and watches where it leads, if that is in the site and not
    /// watched yet. A link out of the site, to nothing or in a loop is left to the build,
    /// which refuses it.
    mutating func follow(_ path: String) {
        guard let realRoot, let real = SafePath.realPath(root + "/" + path), real != realRoot,
            SafePath.isWithin(real, realRoot)
        else { return }
        guard let target = real.removingPathPrefix(realRoot == "/" ? "/" : realRoot + "/").map(String.init)
        else { return }
        guard target != path, !target.hasPathPrefix(path + "/"), !path.hasPathPrefix(target + "/") else { return }
        setLink(path, to: target)
        switch lstatKind(real) {
        case .folder?:
            if watches[target] == nil { addTree(target) }
        case .file?:
            if watches[target.parentPath] == nil { addWatch(target.parentPath) }
        default: break
        }
    }

    /// Whether `path` is a link's target or below one.
    func isLinked(_ path: String) -> Bool {
        var linked = false
        forEachTarget(holding: path) { _, _ in linked = true }
        return linked
    }

    /// Calls `body` with each link target that is `path` or a folder it is in, and the rest of
    /// `path` after it (`""`, or `/` and the names below the target).
    func forEachTarget(holding path: String, _ body: (_ links: Set<String>, _ rest: Substring) -> Void) {
        guard !linksTo.isEmpty else { return }
        var end = path.endIndex
        while true {
            if let sources = linksTo[String(path[..<end])] { body(sources, path[end...]) }
            guard let slash = path[..<end].lastSlashIndex else { return }
            end = slash
        }
    }

    /// Notes that the link at `path` leads to `target` (relative to the root), or no longer
    /// leads anywhere that is watched.
    mutating func setLink(_ path: String, to target: String?) {
        if let old = links[path] {
            linksTo[old]?.remove(path)
            if linksTo[old]?.isEmpty == true { linksTo[old] = nil }
        }
        links[path] = target
        if let target { linksTo[target, default: []].insert(path) }
    }

    /// `paths` as seen through the links that lead to them (and through links to those, a
    /// few levels deep).
    func aliases(of paths: Set<String>) -> Set<String> {
        guard !links.isEmpty else { return [] }
        var found: Set<String> = []
        var round = paths
        for _ in 0..<8 where !round.isEmpty {
            var next: Set<String> = []
            for path in round {
                forEachTarget(holding: path) { sources, rest in
                    for link in sources {
                        let alias = link + rest
                        if found.insert(alias).inserted { next.insert(alias) }
                    }
                }
            }
            round = next
        }
        return found
    }

    /// Stops every watch and forgets every folder and link.
    mutating func forgetAll() {
        for watch in folders.keys { inotify_rm_watch(descriptor, watch) }
        folders.removeAll()
        watches.removeAll()
        identities.removeAll()
        links.removeAll()
        linksTo.removeAll()
    }

    /// Watches one folder; `identity` is the folder's when the caller has just read it.
    mutating func addWatch(_ relative: String, identity: FolderIdentity? = nil) {
        let path = relative.isEmpty ? root : root + "/" + relative
        let watch = inotify_add_watch(descriptor, path, Self.mask)
        if watch >= 0 {
            folders[watch] = relative
            watches[relative] = watch
            identities[watch] = identity ?? FolderIdentity(path)
        }
    }

    /// Watches a folder and every folder below it (not following links below it).
    mutating func addTree(_ relative: String) {
        guard let identity = FolderIdentity(root + "/" + relative) else { return }
        addWatch(relative, identity: identity)
        for entry in Directory.entries(root + "/" + relative) ?? [] {
            if entry.kind == .folder { addTree(relative + "/" + entry.name) }
            if entry.kind == .link { follow(relative + "/" + entry.name) }
        }
    }

    /// Stops watching a folder that left the site, and every folder below it.
    mutating func removeTree(_ relative: String) {
        for (watch, folder) in folders where folder == relative || folder.hasPathPrefix(relative + "/") {
            inotify_rm_watch(descriptor, watch)
            folders[watch] = nil
            identities[watch] = nil
            if watches[folder] == watch { watches[folder] = nil }
        }
        for link in links.keys where link == relative || link.hasPathPrefix(relative + "/") { setLink(link, to: nil) }
    }

    /// Whether a changed path matters: inside a watched folder or a watched file, not a hidden
    /// file, nor an editor's temporary file outside `static/` (where `build` publishes such names
    /// too, so their changes must be seen); or `.sitegen` itself, which every rebuild checks
    /// (``changes(_:)`` reports it only when a link or file is put there or taken away).
    func relevant(_ path: String) -> Bool {
        if path == StateFolder.name { return true }
        let name = path.pathSegments().last.map(String.init) ?? path
        if name.isHiddenName { return false }
        if !path.hasPathPrefix("static/"),
            name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".tmp") || name == "4913"
        {
            return false
        }
        return watched.contains { path == $0 || path.hasPathPrefix($0 + "/") }
    }
}

/// A folder's device and inode, which stay with it when it moves.
private struct FolderIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    /// The folder at `path` (following links), if there is one.
    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
