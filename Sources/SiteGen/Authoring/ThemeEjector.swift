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
        var written: [String] = []
        for (path, data) in files {
            _ = try NewFile.create(data, at: folder.appendingPathComponent(path), replacing: force)
            written.append("\(Theme.folderName)/\(path)")
        }
        return written
    }
}
