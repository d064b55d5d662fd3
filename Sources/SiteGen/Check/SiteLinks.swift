/// What the check of every page shares: the resolved URLs and each page's ids.
struct SiteLinks: Sendable {
    let base: BaseURL
    let targets: [LinkKey: LinkTarget]
    /// Each page's ids, by its path.
    let ids: [ByteString: Set<ByteString>]

    /// One page's findings.
    struct Checked: Sendable {
        var links = 0
        var problems: [LinkChecker.Problem] = []
        var external: [(target: String, use: LinkChecker.ExternalUse)] = []
    }

    /// Checks the links of `page`, the file at `path`; each link is reported once per page.
    func check(_ page: HTMLScanner.Page, at path: String) -> Checked {
        let address = LinkChecker.address(of: path, base: base)
        var checked = Checked()
        var seen: Set<FoundLink> = []
        for link in page.links {
            // A feed entry's HTML is a review's: only its relative URLs lead elsewhere than on
            // the review's own page, which is checked for the rest.
            let url = link.url
            if link.inEntry && (url.hasPathPrefix("/") || url.hasPrefix("#") || LinkResolver.scheme(of: url) != nil) {
                continue
            }
            let first = seen.insert(link).inserted
            let target =
                link.url.hasPrefix("#")
                ? .file(path, fragment: String(link.url.dropFirst()))
                : targets[
                    LinkKey(link.url, document: LinkChecker.document(of: link, on: address, base: base))]
                    ?? .ignored
            let problem = { (reason: String) in
                LinkChecker.Problem(page: path, kind: link.kind.rawValue, url: link.url, reason: reason)
            }
            switch target {
            case .ignored:
                continue
            case .external(let url):
                if first {
                    checked.external.append((url, .init(page: path, kind: link.kind.rawValue, url: link.url)))
                }
            case .file(let file, let fragment):
                checked.links += 1
                // `#top` in any case is the top of the page, as browsers scroll to it.
                guard first, let fragment, !fragment.isEmpty, fragment.lowercased() != "top", LinkChecker.isPage(file)
                else {
                    continue
                }
                let decoded = LinkResolver.percentDecoded(fragment)
                guard !(ids[ByteString(file)]?.contains(ByteString(decoded)) ?? false) else { continue }
                let place = ByteString(file) == ByteString(path) ? "this page" : "/" + LinkChecker.pagePath(file)
                checked.problems.append(problem("no element with id \"\(decoded)\" on \(place)"))
            case .missing(let relative):
                checked.links += 1
                guard first else { continue }
                let isPage =
                    link.kind == .link && (relative.isEmpty || relative.endsWithSlash || LinkChecker.isPage(relative))
                checked.problems.append(problem(isPage ? "no such page" : "no such file"))
            case .outside:
                checked.links += 1
                guard first else { continue }
                checked.problems.append(problem("outside the site, whose address is \(base.absolute)"))
            }
        }
        return checked
    }
}
