import Foundation

/// A page bundle's other files (`content/movies/2046/still.jpg` beside its `index.md`),
/// published as they are beside the review's page (`movies/2046/still.jpg`), so that the body's
/// `![A still](still.jpg)` shows on the page as it does in the folder. Files in the bundle's
/// folders go with their folders (`stills/1.jpg`). Left out: Markdown files (`notes.md`: text
/// for the author, never a page of its own), hidden files and folders, and the file the
/// review names as its `image`, which is published in its sizes instead. A published file
/// may not stand where another needs a folder, nor the other way round (``PublishedPaths``).
struct BundleFiles {
    /// The step their errors are reported under (by `build` and by `serve`).
    static let step = "publishing page bundles' files"
    let folder: SiteFolder
    /// Large files are read when written, not now (a build; see ``CopiedFile``).
    var copiesLater = false

    /// The files of `review`'s page bundle by output path (large ones to read when written,
    /// apart), and any problem (a file that cannot be read, one in the place of the page);
    /// nothing for a review that is no bundle.
    func files(of review: Review) -> (files: [String: Data], later: [String: CopiedFile], problems: [Diagnostic]) {
        guard ReviewFile.isBundle(review.source) else { return ([:], [:], []) }
        let bundle = ReviewFile.folder(of: review.source)
        var problems: [Diagnostic] = []
        var files: [String: Data] = [:]
        var later: [String: CopiedFile] = [:]
        for name in folder.files(under: bundle, &problems) where Self.isPublished(name) {
            let source = bundle + "/" + name
            guard source != review.image?.source else { continue }
            let output = review.path + name
            // The page's own file, or a folder of that name (its files would need the page to be one).
            if name == "index.html" {
                problems.append(
                    folder.problem(
                        "would replace the review's page at /\(output): a page bundle's files are published "
                            + "beside its page, so rename or remove this one", at: source))
                continue
            }
            if name.hasPathPrefix("index.html/") {
                problems.append(
                    folder.problem(
                        "needs a folder where the review's page is (/\(review.path)index.html): a page bundle's files "
                            + "are published beside its page, so rename the folder index.html", at: source))
                continue
            }
            switch folder.readCopied(source, later: copiesLater, &problems) {
            case .held(let data)?: files[output] = data
            case .later(let file)?: later[output] = file
            case nil: break
            }
        }
        return (files, later, problems)
    }

    /// Whether a file of a bundle (by its path in the bundle) is published: not a Markdown file.
    static func isPublished(_ name: String) -> Bool {
        !name.hasSuffix(".md")
    }
}
