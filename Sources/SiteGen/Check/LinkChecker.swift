import Foundation

/// `sitegen check`'s internal pass over a built site: every link, `#fragment`, image,
/// `srcset` entry, stylesheet and script of every page (and the sitemap's and feeds' links)
/// must lead to a file of the output folder and, for a fragment, to an element with that id.
/// Links to other sites are collected for ``ExternalLinkChecker``.
public struct LinkChecker: Sendable {
    /// The built site.
    public let output: URL
    /// The address it was built for: links under its path are internal.
    public let base: BaseURL

    public init(output: URL, base: BaseURL) {
        self.output = output
        self.base = base
    }

    /// ``run()`` while no build of the site at `source` writes into the output folder: a build
    /// under way is waited for (`waiting` is called first), and none starts until the folder is
    /// read. Where `.sitegen` leads out of the site, or the lock cannot be had, it reads unlocked.
    public func run(lockingBuildsOf source: URL, waiting: () -> Void) throws -> Report {
        guard StateFolder.refusal(in: source) == nil else { return try run() }
        return try OutputLock.holding(source: source, output: output, shared: true, waiting: waiting) { try run() }
    }

    /// A link that leads nowhere.
    public struct Problem: Sendable, Equatable, Comparable, CustomStringConvertible {
        /// The page, relative to the output folder: `movies/x/index.html`.
        public let page: String
        /// `link`, `image`, `stylesheet`, `script` or `resource`.
        public let kind: String
        /// The URL as the page writes it.
        public let url: String
        public let reason: String

        public init(page: String, kind: String, url: String, reason: String) {
            self.page = page
            self.kind = kind
            self.url = url
            self.reason = reason
        }

        /// `movies/x/index.html: broken link /movies/y/ (no such page)`.
        /// (The page's name and the URL with control characters escaped, and a URL over 500
        /// characters cut short: they come from the pages. An empty URL is shown as `""`.)
        public var description: String {
            let shownURL = url.isEmpty ? "\"\"" : url.count > 500 ? String(url.prefix(500)) + "…" : url
            return "\(Diagnostic.shown(page)): broken \(kind) \(Diagnostic.shown(shownURL)) (\(reason))"
        }

        /// By page, URL and kind, each compared as bytes (as Swift compares text, two pages
        /// named `café.html`, with "é" and with "e" and an accent, would be in no order).
        public static func < (lhs: Problem, rhs: Problem) -> Bool {
            for (left, right) in [(lhs.page, rhs.page), (lhs.url, rhs.url), (lhs.kind, rhs.kind)]
            where !left.utf8.elementsEqual(right.utf8) {
                return left.utf8.lexicographicallyPrecedes(right.utf8)
            }
            return false
        }
    }

    /// What the internal pass found.
    public struct Report: Sendable {
        /// HTML pages scanned.
        public var pages = 0
        /// Files in the output folder.
        public var files = 0
        /// Internal links, images, stylesheets and scripts checked (each use counts).
        public var links = 0
        /// Distinct files they lead to.
        public var targets = 0
        public var problems: [Problem] = []
        /// Pages and feeds that could not be read, so were not checked, sorted by path.
        public var unreadable: [Unreadable] = []
        /// Links to other sites: URL (without fragment) → where each is used.
        public var external: [String: [ExternalUse]] = [:]
    }

    /// A page or feed that could not be read (unreadable, not a regular file, over the size
    /// of a file sitegen copies): a check that cannot read it cannot pass it.
    public struct Unreadable: Sendable, Equatable, CustomStringConvertible {
        /// The file, relative to the output folder.
        public let page: String
        public let reason: String

        /// `movies/x/index.html: cannot be checked: Permission denied`.
        public var description: String { "\(Diagnostic.shown(page)): cannot be checked: \(reason)" }
    }

    /// A page's use of an external URL.
    public struct ExternalUse: Sendable, Equatable {
        public let page: String
        public let kind: String
        public let url: String
    }

    /// Scans and checks every page; throws when the output folder cannot be read.
    public func run() throws(AuthoringError) -> Report {
        switch DiskFile.kind(output.path) {
        case .folder?: break
        case nil: throw AuthoringError("\(output.path): no such folder: build the site first")
        default: throw AuthoringError("\(output.path): not a folder: name the built site's folder with --output")
        }
        // A name that is not UTF-8 cannot be linked to from a page: it is not a target. A
        // hidden file is (`.well-known/security.txt`): a server serves it. A hidden file, or one
        // in a hidden folder (`.git`), is not read as a page: the site's own pages are not there.
        var undecodable: [String] = []
        // Each name as the folder has it: a set of Strings would keep one of `café.html` written
        // with "é" and with "e" and an accent, two files.
        let files = Directory.files(under: output.path, undecodable: &undecodable)
        let scanned = files.filter {
            (Self.isPage($0) || $0.hasSuffix(".xml")) && !$0.pathSegments().contains(where: \.isHiddenName)
        }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        // A folder without a page is not a site that passed (a wrong --output, a build not made).
        guard scanned.contains(where: Self.isPage) else {
            throw AuthoringError(
                "\(output.path): no HTML page to check: build the site first, or name its folder with --output")
        }
        let root = output
        let read: [Result<HTMLScanner.Page, FileSystemError>] = scanned.parallelMap { path in
            Result { () throws(FileSystemError) in
                let data = try DiskFile.read(root.appendingPathComponent(path).path, limit: DiskFile.copiedSizeLimit)
                return data.withUnsafeBytes { path.hasSuffix(".xml") ? HTMLScanner.scanXML($0) : HTMLScanner.scan($0) }
            }
        }
        var unreadable: [Unreadable] = []
        let pages = zip(scanned, read).map { path, result in
            switch result {
            case .success(let page):
                return page
            case .failure(let error):
                unreadable.append(Unreadable(page: path, reason: error.reason))
                return HTMLScanner.Page()
            }
        }
        // Each distinct URL is resolved once: by itself when it is absolute or root-relative,
        // else with the folder of the page that has it (or the page, for a query alone).
        var keys: Set<LinkKey> = []
        for (path, page) in zip(scanned, pages) {
            let address = Self.address(of: path, base: base)
            for link in page.links where !link.url.hasPrefix("#") {
                keys.insert(LinkKey(link.url, document: Self.document(of: link, on: address, base: base)))
            }
        }
        let resolver = LinkResolver(base: base, files: files)
        let distinct = Array(keys)
        let resolved = distinct.parallelMap { resolver.resolve($0.url, from: $0.directory) }
        let site = SiteLinks(
            base: base, targets: Dictionary(uniqueKeysWithValues: zip(distinct, resolved)),
            ids: Dictionary(uniqueKeysWithValues: zip(scanned.map(ByteString.init), pages.map(\.ids))))
        let checked = Array(zip(scanned, pages)).parallelMap { site.check($0.1, at: $0.0) }
        var report = Report(pages: scanned.filter(Self.isPage).count, files: files.count)
        report.unreadable = unreadable
        for page in checked {
            report.links += page.links
            report.problems += page.problems
            for use in page.external { report.external[use.target, default: []].append(use.use) }
        }
        var reached = Set(
            resolved.compactMap { target -> ByteString? in
                if case .file(let file, _) = target { return ByteString(file) }
                return nil
            })
        for (path, page) in zip(scanned, pages) where page.links.contains(where: { $0.url.hasPrefix("#") }) {
            reached.insert(ByteString(path))
        }
        report.targets = reached.count
        report.problems.sort()
        return report
    }

    /// The URL path of a page: `movies/x/index.html` → `/reviews/movies/x/index.html`,
    /// percent-encoded.
    static func address(of path: String, base: BaseURL) -> String {
        base.path + path.percentEncodedPath
    }

    /// The URL path `link`'s relative URL resolves against: its feed entry's `xml:base` when
    /// that is an address of the site (`https://example.org/reviews/movies/x/` →
    /// `/reviews/movies/x/`), else `page`, the address of the page or feed it is on.
    static func document(of link: FoundLink, on page: String, base: BaseURL) -> String {
        guard let url = link.base, let rest = url.removingPathPrefix(base.absolute) else { return page }
        let end = rest.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        return base.path + rest[..<end]
    }

    /// Whether the file at `path` is an HTML page, as a server types it by its name: one
    /// ending in `.html` or `.htm`, in any case (`old.htm`, `INDEX.HTML`).
    static func isPage(_ path: String) -> Bool {
        let name = path.utf8.suffix(5).map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        return name.elementsEqual(".html".utf8) || name.suffix(4).elementsEqual(".htm".utf8)
    }

    /// A page's path as a site path: `movies/x/index.html` → `movies/x/`.
    static func pagePath(_ file: String) -> String {
        file.hasSuffix("index.html") ? String(file.dropLast("index.html".count)) : file
    }
}

/// A URL as it resolves: alone when it names its own place; with its page's address when it
/// is empty or only a query or fragment (`?lang=en` is the page itself, whatever its name);
/// else with the folder of that address. Compared as bytes, as servers compare paths.
struct LinkKey: Hashable, Sendable {
    let url: String
    /// What `url` is appended to: empty, a page's address, or the folder ending in `/`.
    let directory: String

    /// `document` is the URL path of the page (or feed entry) that has `url`.
    init(_ url: String, document: String) {
        self.url = url
        let trimmed = LinkResolver.trimmed(url)
        if trimmed.hasPathPrefix("/") || LinkResolver.scheme(of: trimmed) != nil {
            directory = ""
        } else if trimmed.isEmpty || trimmed.utf8.first == UInt8(ascii: "?") || trimmed.utf8.first == UInt8(ascii: "#")
        {
            directory = document
        } else {
            // Cut as bytes: as Characters, a combining mark after the slash would go with it.
            directory = document.lastSlashIndex.map { String(document[..<document.utf8.index(after: $0)]) } ?? ""
        }
    }

    static func == (lhs: LinkKey, rhs: LinkKey) -> Bool {
        ByteString(lhs.url) == ByteString(rhs.url) && ByteString(lhs.directory) == ByteString(rhs.directory)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ByteString(url))
        hasher.combine(ByteString(directory))
    }
}

extension LinkChecker {
    /// The base URL in `site`'s `site.yml`; its problems as an error.
    public static func baseURL(ofSite site: URL) throws(AuthoringError) -> BaseURL {
        let (config, problems) = SiteLoader(root: site).reloadConfig()
        guard let config else { throw AuthoringError(problems.map(\.description).joined(separator: "\n")) }
        return config.baseURL
    }
}
