/// Where a review's file sits, and what follows from it: a Markdown file in a section
/// (`content/movies/parasite.md`) or a page bundle, a folder of the section holding
/// `index.md` (`content/movies/parasite/index.md`) and the review's own files.
enum ReviewFile {
    /// The name of a page bundle's review file.
    static let bundleIndex = "index.md"

    /// The `index.md` of a page bundle (a folder of a section), or nil when the folder has none.
    static func bundleIndex(of bundle: SiteFolder.Entry, in folder: SiteFolder) -> String? {
        let index = bundle.path + "/" + bundleIndex
        return folder.kind(index) == nil ? nil : index
    }

    /// Whether `source` is a page bundle's `index.md` (`content/<section>/<folder>/index.md`).
    static func isBundle(_ source: String) -> Bool {
        isBundle(source.pathSegments(omittingEmpty: false))
    }

    /// ``isBundle(_:)`` of a source already split at its slashes.
    private static func isBundle(_ parts: [Substring]) -> Bool {
        parts.count == 4 && parts[0] == "content" && parts[3] == Substring(bundleIndex)
    }

    /// The folder a review's own files are in: the bundle for a bundle, the section otherwise.
    static func folder(of source: String) -> String {
        String(source.pathSegments(omittingEmpty: false).dropLast().joined(separator: "/"))
    }

    /// The slug a review gets without a `slug` key: the bundle's folder name, else the file
    /// name without `.md`.
    static func defaultSlug(of source: String) -> String {
        let parts = source.pathSegments(omittingEmpty: false)
        if isBundle(parts) { return String(parts[2]) }
        return String(parts.last?.dropLast(3) ?? "")
    }
}
