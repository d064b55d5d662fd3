import CommonMark
import Foundation
import Mustache

/// Rewrites the links of a review, page or section intro so that they survive publishing:
///
/// - a root-relative link or image (`/books/piranesi/`, `/images/x.png`) is a path of the
///   site, so it goes under the base URL's path (`/reviews/books/piranesi/`);
/// - a link to a Markdown file (`../movies/parasite.md`, `/content/about.md#team`) names a
///   review, page or section by its source: a path relative to the linking file's folder, or
///   with a leading `/` relative to the site folder (as a repository's web view reads it when
///   the site is its root). It leads to that file's URL, `#fragment` and `?query` kept; a
///   section's `_index.md` stands for the section's page.
///
/// Other links (absolute URLs, `#fragment`, relative paths to anything else) stay as written.
struct MarkdownLinks: Sendable {
    /// Output paths by source path: `content/movies/parasite.md` → `movies/parasite/`.
    typealias Targets = @Sendable (String) -> String?

    /// The base URL's path, such as `/reviews/`.
    let basePath: String
    /// Where each source path is published; nil in a site's first reading, before every file's
    /// URL is known, when links to sources are recorded and left as written.
    let targets: Targets?

    init(basePath: String, targets: Targets? = nil) {
        self.basePath = basePath
        self.targets = targets
    }

    /// These rules with the published files known.
    func resolving(_ targets: @escaping Targets) -> MarkdownLinks {
        MarkdownLinks(basePath: basePath, targets: targets)
    }

    /// Renders the body of `front`, the file `source`, with its links rewritten; also returns
    /// the file's links to sources (whether or not they name something published).
    /// `shownIn`, for text shown on several pages (a section's intro, on each of its pages and
    /// orders: `movies/`), is the folder its relative links and images are written against:
    /// they are made root-relative to it, so that they lead to the same file from every page.
    func render(
        _ front: FrontMatter, source: String, allowRawHTML: Bool, shownIn folder: String? = nil
    ) -> (RenderedMarkdown, [SourceLink]) {
        var links: [SourceLink] = []
        let lineOffset = front.bodyFirstLine - 1
        // Characters no page may hold (a vertical tab pasted from a word processor) are replaced first.
        let rendered = Markdown.render(front.body.replacingUnshowable(), allowRawHTML: allowRawHTML) { link in
            if !link.isImage, let (path, suffix) = Self.sourcePath(link.destination) {
                let target = Self.resolve(path, from: source)
                let location = SourceLocation(path: source, line: lineOffset + link.line, column: link.column)
                links.append(SourceLink(written: link.destination, target: target, location: location))
                guard let target, let output = targets?(target) else { return nil }
                return basePath + output.percentEncodedPath + suffix
            }
            if let folder, let first = link.destination.utf8.first,
                first != UInt8(ascii: "/") && first != UInt8(ascii: "#") && first != UInt8(ascii: "?"),
                LinkResolver.scheme(of: link.destination) == nil
            {
                return Self.rooted(link.destination, in: basePath + folder)
            }
            guard basePath != "/", let path = link.destination.removingPathPrefix("/"), !path.hasPathPrefix("/")
            else { return nil }
            return basePath + path
        }
        return (rendered, links)
    }

    /// The relative URL `destination` written against the folder `folder` (`/reviews/movies/`):
    /// `map.png` → `/reviews/movies/map.png`, `../books/` → `/reviews/books/`; `.` and `..` are
    /// resolved as browsers resolve them (``LinkTarget/normalized(_:)``), the query and
    /// fragment kept as written.
    static func rooted(_ destination: String, in folder: String) -> String {
        let end = destination.firstIndex { $0 == "?" || $0 == "#" } ?? destination.endIndex
        return LinkTarget.normalized(folder + destination[..<end]) + destination[end...]
    }

    /// The links among `links` that name nothing published, as diagnostics (none before the
    /// targets are known). A link to a file that cannot be read is left to that file's own
    /// diagnostic.
    func problems(_ links: [SourceLink], in folder: SiteFolder) -> [Diagnostic] {
        guard let targets else { return [] }
        var diagnostics: [Diagnostic] = []
        for link in links {
            guard let target = link.target else {
                diagnostics.append(
                    Diagnostic("the link \"\(link.written)\" leads out of the site folder", at: link.location))
                continue
            }
            guard targets(target) == nil, let reason = Self.unpublished(target, in: folder) else { continue }
            diagnostics.append(Diagnostic("the link \"\(link.written)\" names \(target), \(reason)", at: link.location))
        }
        return diagnostics
    }

    /// The output path of every review, page and section by the source path that names it.
    static func targets(reviews: [Review], pages: [Page], sections: [ReviewSection]) -> [String: String] {
        var targets: [String: String] = [:]
        targets.reserveCapacity(reviews.count + pages.count + sections.count)
        for section in sections { targets["content/\(section.name)/_index.md"] = "\(section.name)/" }
        for page in pages { targets[page.source] = page.path }
        for review in reviews { targets[review.source] = review.path }
        return targets
    }
}

private extension MarkdownLinks {
    /// The file path (percent escapes undone) and the `?query#fragment` of a link to a Markdown
    /// file; nil for any other link.
    static func sourcePath(_ destination: String) -> (path: String, suffix: String)? {
        guard !destination.hasPathPrefix("//"), LinkResolver.scheme(of: destination) == nil else { return nil }
        // Found as bytes: as Characters, a `#` or `?` followed by a combining mark is another one.
        let cut =
            destination.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? destination.endIndex
        let written = destination[..<cut]
        let path = written.removingPercentEncoding ?? String(written)
        guard path.lowercased().hasSuffix(".md") else { return nil }
        return (path, String(destination[cut...]))
    }

    /// `path` relative to the folder of `source` (or, with a leading `/`, to the site folder),
    /// as a path relative to the site folder; nil when it climbs out of it.
    static func resolve(_ path: String, from source: String) -> String? {
        var parts = path.hasPathPrefix("/") ? [] : Array(source.pathSegments().dropLast())
        for part in path.pathSegments() {
            switch part {
            case ".":
                continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default:
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// Why the file at `target` is not published; nil when its front matter cannot be read,
    /// which its own diagnostic reports.
    static func unpublished(_ target: String, in folder: SiteFolder) -> String? {
        guard folder.kind(target) == .file else { return "which does not exist" }
        let parts = target.pathSegments()
        // A page, a review, or a review's page bundle (`content/movies/2046/index.md`).
        let isBundle = parts.count == 4 && parts.last.map(String.init) == ReviewFile.bundleIndex
        guard parts.first == "content", parts.count == 2 || parts.count == 3 || isBundle else {
            return "which is not a review or page (only content/*.md, content/<section>/*.md and "
                + "content/<section>/<bundle>/index.md are published)"
        }
        var ignored: [Diagnostic] = []
        guard let data = folder.read(target, &ignored), let text = String(data: data, encoding: .utf8),
            case .success(var (_, reader)) = FrontMatter.read(text, path: target)
        else { return nil }
        guard reader.bool("draft") == true else {
            // Neither missing nor a draft: left out for its date.
            if let day = reader.day("date") {
                return "dated \(day), after today, which this build leaves out until then (or use --future)"
            }
            return "which is not published"
        }
        return "a draft, which this build leaves out (publish it, or use --drafts)"
    }
}
