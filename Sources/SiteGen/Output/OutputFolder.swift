import Foundation
import Mustache

#if canImport(Glibc)
    import Glibc
#endif

/// The rules for where a build may write. sitegen only ever removes files it wrote itself,
/// and some folders it never writes into at all, even with `--force`.
enum OutputFolder {
    /// Where a build writes unless told otherwise: `public/` in the site folder.
    static let defaultName = "public"

    /// Folders no site belongs in: the root of the file system and the top of the system's own folders.
    static let systemFolders: Set<String> = [
        "/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32", "/media", "/mnt",
        "/opt", "/proc", "/root", "/run", "/sbin", "/srv", "/sys", "/tmp", "/usr", "/var", "/var/tmp",
    ]

    /// Folders whose every folder is the system's (programs, libraries, settings, devices): no
    /// site is written anywhere below them. (Below `/var`, `/srv`, `/opt`, `/tmp` or `/home`
    /// a site may go: `/var/www/html`.)
    static let systemTrees: [String] = [
        "/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/run", "/sbin", "/sys",
        "/usr",
    ]

    /// Folders of memory for anyone's files inside those: a site may go below them
    /// (`/dev/shm/site`, as the benchmarks build).
    static let writableTrees: [String] = ["/dev/shm", "/run/shm", "/run/user"]

    /// Why no site may be written into `folder` (it may not exist yet) for being the system's,
    /// or nil: `sitegen init` refuses these as `build` does.
    static func systemRefusal(_ folder: URL) -> String? {
        systemRefusal(resolved: realPath(of: folder.standardizedFileURL.path))
    }

    private static func systemRefusal(resolved target: String) -> String? {
        let inside = { (folder: String) in
            target == folder || target.hasPathPrefix(folder == "/" ? "/" : folder + "/")
        }
        if systemFolders.contains(target) {
            return "it is a system folder"
        }
        if let tree = systemTrees.first(where: inside), !writableTrees.contains(where: inside) {
            return "it is inside a system folder (\(tree))"
        }
        return nil
    }

    /// Why the build may not write into `output`, or nil when it may.
    /// - Parameters:
    ///   - output: the output folder (it may not exist yet).
    ///   - source: the site folder.
    ///   - home: the user's home folder.
    static func refusal(
        output: URL, source: URL, home: String?, links: [(path: String, target: String)]? = nil
    ) -> String? {
        let target = realPath(of: output.standardizedFileURL.path)
        let site = realPath(of: source.standardizedFileURL.path)
        let inside = { (path: String, folder: String) in
            path == folder || path.hasPathPrefix(folder == "/" ? "/" : folder + "/")
        }
        if let refusal = systemRefusal(resolved: target) { return refusal }
        if inside(site, target) {
            return "it holds the site's sources"
        }
        if let home, !home.isEmpty, inside(realPath(of: home), target) {
            return "it is your home folder or holds it"
        }
        let sources = ["content", "Templates", "static", "metadata", "site.yml", ".git", ".sitegen"]
        if sources.contains(where: { inside(target, site + "/" + $0) }) {
            return "it is inside the site's sources"
        }
        // A source that is a link into the output (Templates -> public), or a link inside one
        // (content/movies -> ../films, a bundle's poster, a theme file), would be read from it,
        // then removed from it as a file the new site does not have.
        for name in sources {
            let real = realPath(of: site + "/" + name)
            if real != site + "/" + name && (inside(real, target) || inside(target, real)) {
                return "the site's \(name) is a link into it, or to a folder that holds it"
            }
        }
        // (A link out of the site is the loading's to refuse, which it does before anything is
        // written, with its own words.)
        for link in links ?? followedLinks(in: site)
        where inside(link.target, site) && (inside(link.target, target) || inside(target, link.target)) {
            return "the site's \(link.path) is a link into it, or to a folder that holds it"
        }
        return nil
    }

    /// The links a build follows: the folders it reads (`content/`, `Templates/`, `static/`,
    /// `metadata/`) when they are links, and the links inside them, by path in the site, each
    /// with the real path it leads to; the folders they lead to are searched too, each once.
    /// Hidden names are left out, as the build never reads them; a link that leads nowhere is
    /// left to the build to report, and a folder out of the site is not searched. `site` is
    /// the site folder's real path.
    static func followedLinks(in site: String) -> [(path: String, target: String)] {
        var found: [(path: String, target: String)] = []
        var walked: Set<String> = []
        func walk(_ path: String, _ relative: String) {
            guard let stream = opendir(path) else { return }
            var folders: [(path: String, relative: String)] = []
            while let entry = readdir(stream) {
                let type = Int32(entry.pointee.d_type)
                // Only folders and links matter: a file's name is not even read.
                guard type == DT_DIR || type == DT_LNK || type == DT_UNKNOWN else { continue }
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                guard !name.isHiddenName else { continue }
                let inner = (path: path + "/" + name, relative: relative + "/" + name)
                let kind = Directory.kind(type, at: inner.path)
                if kind == .link {
                    guard let target = SafePath.resolved(inner.path) else { continue }
                    found.append((inner.relative, target))
                    // Never searched out of the site (a link to / would be the whole disk):
                    // the build refuses such a link.
                    if SafePath.isWithin(target, site), DiskFile.kind(target) == .folder,
                        walked.insert(target).inserted
                    {
                        folders.append(inner)
                    }
                } else if kind == .folder {
                    folders.append(inner)
                }
            }
            closedir(stream)
            for folder in folders { walk(folder.path, folder.relative) }
        }
        for name in ["content", "Templates", "static", "metadata"] {
            var info = stat()
            if lstat(site + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
                guard let target = SafePath.resolved(site + "/" + name) else { continue }
                found.append((name, target))
                guard SafePath.isWithin(target, site), walked.insert(target).inserted else { continue }
            }
            walk(site + "/" + name, name)
        }
        return found
    }

    /// `path` with links resolved, as far as it exists (a folder still to be made keeps its name).
    static func realPath(of path: String) -> String {
        SafePath.realPath(path, keepingUnresolved: true) ?? path
    }

    /// The user's home folder: `$HOME`, else the password database's.
    static func homeFolder(environment: [String: String]) -> String? {
        if let home = environment["HOME"], !home.isEmpty { return home }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }
}
