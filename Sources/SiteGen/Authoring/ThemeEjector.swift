import Foundation

/// `sitegen theme eject`: copies the default theme built into sitegen (`Theme.builtIn`, made
/// from the package's `Templates/`) into a site's own `Templates/` folder, for editing.
public enum ThemeEjector {
    /// The default theme's files: path relative to `Templates/` and bytes, sorted by path.
    public static var files: [(path: String, data: Data)] {
        DefaultTheme.files.sorted { $0.key < $1.key }.compactMap { path, base64 in
            Data(base64Encoded: base64).map { (path, $0) }
        }
    }

    /// Copies every file into `site`'s `Templates/` and returns their paths relative to the
    /// site. A file already there is refused (nothing is written, and the error lists them
    /// all) unless `force`, which replaces it.
    public static func eject(into site: URL, force: Bool) throws(AuthoringError) -> [String] {
        guard FileManager.default.fileExists(atPath: site.appendingPathComponent(SiteConfig.fileName).path) else {
            throw AuthoringError(
                "no \(SiteConfig.fileName) in \(site.path): run this in a site folder, or name one with --source")
        }
        let folder = site.appendingPathComponent(Theme.folderName, isDirectory: true)
        let files = self.files
        // Templates/, or a folder in it, may be a link: never one that leads out of the site.
        let outside = files.map { "\(Theme.folderName)/\($0.path)" }.first { SafePath.linkLeadsOut($0, in: site) }
        if let outside {
            let shown = SafePath.linkLeadsOut(Theme.folderName, in: site) ? Theme.folderName : outside
            throw AuthoringError(
                "\(shown): refused: it leads out of the site folder (or nowhere) through a link; nothing was copied")
        }
        // Nor one into a place of the site that a build would not read the theme from (a
        // hidden folder, an output folder) or that holds the site's own files (content/,
        // static/, the metadata cache), which the theme's files would join or replace.
        let folders = self.folders(of: files.map(\.path))
        if let problem = misplaced(folders, in: site) {
            throw AuthoringError("\(problem); nothing was copied")
        }
        // Something of the wrong kind in the way (a file where a folder goes, a folder where a
        // file goes) is refused before anything is copied, with or without --force.
        var blocked: [String] = []
        for prefix in folders.dropFirst() {
            if let kind = DiskFile.kind(site.appendingPathComponent(prefix).path), kind != .folder {
                blocked.append("\(prefix) is a file where the theme needs a folder")
            }
        }
        for (path, _) in files {
            if DiskFile.kind(folder.appendingPathComponent(path).path) == .folder {
                blocked.append("\(Theme.folderName)/\(path) is a folder where the theme has a file")
            }
        }
        if let kind = DiskFile.kind(folder.path), kind != .folder {
            blocked.insert("\(Theme.folderName) is a file, not a folder", at: 0)
        }
        guard blocked.isEmpty else {
            throw AuthoringError(blocked.joined(separator: "; ") + ": nothing was copied (move it out of the way)")
        }
        if !force {
            let existing = files.map(\.path).filter { path in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent(path).path))
                    != nil || FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path)
            }
            guard existing.isEmpty else {
                let names = existing.map { "\(Theme.folderName)/\($0)" }.joined(separator: ", ")
                throw AuthoringError(
                    "already there: \(names); nothing was copied (use --force to replace them with the default theme's)"
                )
            }
        }
        // With --force, the files it replaces are read first, so that a failure can put them back.
        var kept: [URL: Data] = [:]
        if force {
            for (path, _) in files where DiskFile.kind(folder.appendingPathComponent(path).path) == .file {
                let url = folder.appendingPathComponent(path)
                do {
                    kept[url] = try DiskFile.read(url.path)
                } catch {
                    throw AuthoringError(
                        "\(Theme.folderName)/\(path): cannot read it to keep a copy while it is replaced: "
                            + "\(error.reason); nothing was copied")
                }
            }
        }
        var written: [String] = []
        // The files and folders this run makes where nothing was: removed again if a later
        // file fails (a full disk, a permission), and the files it replaced put back, so that a
        // failed eject leaves the site as it was.
        let newFolders = folders.filter { !isThere(site.appendingPathComponent($0)) }
        var made: [URL] = []
        var replaced: [URL] = []
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            let nothingThere = !isThere(url)
            do {
                if try NewFile.create(data, at: url, replacing: force) {
                    if nothingThere { made.append(url) } else if kept[url] != nil { replaced.append(url) }
                }
            } catch {
                for url in made.reversed() { try? FileManager.default.removeItem(at: url) }
                for name in newFolders.reversed() { rmdir(site.appendingPathComponent(name).path) }
                var notRestored: [String] = []
                for url in replaced {
                    do {
                        try AtomicFile.write(kept[url] ?? Data(), to: url)
                    } catch {
                        notRestored.append("\(url.path) (\(ErrorText.reason(error)))")
                    }
                }
                throw AuthoringError(
                    "\(error.message)\(undoneNote(made: made.count, replaced: replaced.count, notRestored))")
            }
            written.append("\(Theme.folderName)/\(path)")
        }
        return written
    }

    /// `Templates/` and each folder in it that one of `paths` (relative to it) goes in, every
    /// folder after the one it is in.
    static func folders(of paths: [String]) -> [String] {
        var folders = [Theme.folderName]
        var seen: Set<String> = [Theme.folderName]
        for path in paths {
            var prefix = Theme.folderName
            for part in path.pathSegments().dropLast() {
                prefix += "/\(part)"
                if seen.insert(prefix).inserted { folders.append(prefix) }
            }
        }
        return folders
    }

    /// The first of `folders` (`Templates/`, or one a theme file goes in) that
    /// is a link a build would refuse, or one into the site's content, static files or metadata.
    static func misplaced(_ folders: [String], in site: URL) -> String? {
        let folder = SiteFolder(root: site, fileSystem: .disk)
        let others = BuildManifest.inputFolders.filter { $0 != Theme.folderName }.map {
            SafePath.join(folder.realRoot, $0)
        }
        for relative in folders {
            var problems: [Diagnostic] = []
            guard folder.isInside(relative, &problems) else {
                return problems.first.map { "\($0.location.path): \($0.message)" } ?? relative
            }
            guard let real = FileSystem.disk.realPath(folder.path(relative)) else { continue }
            if real == folder.realRoot {
                return "\(relative): refused: it is a link to the site folder itself, which a build would not read "
                    + "a theme from"
            }
            // The folder a build writes by default, even before it holds a site.
            let output = SafePath.join(folder.realRoot, OutputFolder.defaultName)
            if SafePath.isWithin(real, output) {
                return "\(relative): refused: it is a link into public, the folder a build writes the site into "
                    + "(and removes files from)"
            }
            if let other = others.first(where: { SafePath.isWithin(real, $0) }) {
                let shown = other.removingPathPrefix(SafePath.join(folder.realRoot, "")).map(String.init) ?? other
                return "\(relative): refused: it is a link into \(shown), which holds the site's own files: "
                    + "the theme's files would join or replace them"
            }
        }
        return nil
    }

    /// What a failed eject undid: "(the 2 files copied before it were removed; the file it
    /// replaced was put back)", or nothing when it had done nothing.
    static func undoneNote(made: Int, replaced: Int, _ notRestored: [String]) -> String {
        var parts: [String] = []
        if made == 1 { parts.append("the file copied before it was removed") }
        if made > 1 { parts.append("the \(made) files copied before it were removed") }
        let restored = replaced - notRestored.count
        if restored == 1 { parts.append("the file it replaced was put back") }
        if restored > 1 { parts.append("the \(restored) files it replaced were put back") }
        if !notRestored.isEmpty {
            parts.append("could not put back what was in " + notRestored.joined(separator: ", "))
        }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: "; ") + ")"
    }

    /// Whether anything (a file, a folder, a link, even one to nothing) is at `url`.
    private static func isThere(_ url: URL) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: url.path)) != nil
    }

}
