import Foundation

/// `sitegen new`: a review file with its front matter filled in, written where a section of
/// its kind keeps reviews, never over an existing file; with what `sitegen fetch` finds about
/// the film or book (fetched into the same cache) when it can be had.
public struct NewReview: Sendable {
    public var kind: WorkKind
    public var title: String
    public var date: Day
    public var tmdbID: Int?
    public var isbn: String?
    public var year: Int?
    /// The director (films) or author (books), as given.
    public var creator: String?
    /// The section folder, when given; else the first section of the kind.
    public var section: String?

    public init(
        kind: WorkKind, title: String, date: Day, tmdbID: Int? = nil, isbn: String? = nil, year: Int? = nil,
        creator: String? = nil, section: String? = nil
    ) {
        self.kind = kind
        self.title = title
        self.date = date
        self.tmdbID = tmdbID
        self.isbn = isbn
        self.year = year
        self.creator = creator
        self.section = section
    }

    /// Where the review goes in a site, and what the site says about fetching.
    public struct Plan: Sendable {
        /// The review file relative to the site folder: `content/movies/parasite.md`.
        public let path: String
        public let config: SiteConfig
    }

    /// Finds the section and the file name (the title's slug), checking that the site exists,
    /// that the section holds reviews of this kind, and that no file is in the way.
    public func plan(site: URL) throws(AuthoringError) -> Plan {
        let loader = SiteLoader(root: site)
        let (read, problems) = loader.reloadConfig()
        guard let config = read else {
            throw AuthoringError(problems.map(\.description).joined(separator: "\n"))
        }
        let name = try sectionName(loader)
        // Composed (NFC), as web addresses are; a file whose name is the same text composed
        // otherwise ("e" and a combining accent) is the same review to the build.
        var slug = title.slug.precomposedStringWithCanonicalMapping
        // A section's own pages take these names (/movies/page/, /movies/by-title/): import does the same.
        if SiteLoader.sectionIndexNames.contains(slug) { slug += "-2" }
        guard !slug.isEmpty else {
            throw AuthoringError("the title \(title.yamlQuoted) has no letters or digits to make a file name of")
        }
        guard slug.utf8.count <= String.slugByteLimit else {
            throw AuthoringError(
                "the title is too long for a file name (\(slug.utf8.count) bytes as a slug, at most "
                    + "\(String.slugByteLimit)): give a shorter one and set the full title in the file")
        }
        var path = "content/\(name)/\(slug).md"
        var ignored: [Diagnostic] = []
        if let same = loader.folder.entries("content/\(name)", &ignored).first(where: { $0.name == "\(slug).md" }) {
            path = same.path
        }
        if loader.folder.kind(path) != nil
            || (try? FileManager.default.destinationOfSymbolicLink(atPath: site.appendingPathComponent(path).path))
                != nil
        {
            throw AuthoringError(
                "\(path) already exists: nothing was written (edit that file, or give another title and set "
                    + "slug: in the front matter)")
        }
        // A page bundle of that name, or a review that says `slug:` with it, has the address
        // this one would take.
        let bundle = "content/\(name)/\(slug)/\(ReviewFile.bundleIndex)"
        if loader.folder.kind(bundle) != nil {
            throw AuthoringError(
                "\(bundle) already exists, a review at the address this one would take: nothing was written "
                    + "(edit that file, or give another title and set slug: in the front matter)")
        }
        if let claim = Self.slugClaim(slug, in: name, loader) {
            throw AuthoringError(
                "\(claim) says slug: \(slug), the address this review would take: nothing was written (edit that "
                    + "file, or give another title and set slug: in the front matter)")
        }
        return Plan(path: path, config: config)
    }

    /// The lookup that finds the film or book now: its id or ISBN, else a search by title
    /// (and year or author).
    public var lookup: Lookup {
        switch kind {
        case .movie: tmdbID.map(Lookup.tmdb) ?? .movieSearch(title: title, year: year)
        case .book: isbn.map(Lookup.isbn) ?? .bookSearch(title: title, author: creator)
        case .tv: tmdbID.map(Lookup.tmdbSeries) ?? .seriesSearch(title: title, year: year)
        }
    }

    /// The front matter's fields, filled from `metadata` where the command line said nothing.
    public func work(with metadata: WorkMetadata?) -> Work {
        let originalTitle = metadata?.originalTitle.flatMap { $0 == title || $0.isEmpty ? nil : $0 }
        switch kind {
        case .movie:
            let directors = metadata?.directors ?? []
            return Work(
                kind: .movie, year: year ?? metadata?.year, originalTitle: originalTitle,
                creator: creator ?? (directors.isEmpty ? nil : directors.joined(separator: ", ")),
                tmdbID: tmdbID ?? metadata.flatMap { $0.source == "tmdb" ? Int($0.id) : nil })
        case .book:
            let authors = metadata?.authors ?? []
            return Work(
                kind: .book, year: year ?? metadata?.year, originalTitle: originalTitle,
                creator: creator ?? (authors.isEmpty ? nil : authors.joined(separator: ", ")),
                isbn: isbn ?? metadata?.isbn.flatMap(Review.isbn))
        case .tv:
            let creators = metadata?.series?.creators ?? []
            return Work(
                kind: .tv, year: year ?? metadata?.year, originalTitle: originalTitle,
                creator: creator ?? (creators.isEmpty ? nil : creators.joined(separator: ", ")),
                tmdbID: tmdbID ?? metadata.flatMap { $0.source == "tmdb" ? Int($0.id) : nil })
        }
    }

    /// The lookup a build will make for the review written with `metadata`: where the cache
    /// must keep what was fetched (a search is stored under the id the file then names).
    public func storedLookup(for metadata: WorkMetadata?) -> Lookup? {
        let section = kind.defaultSection
        let review = Review(
            source: "", section: section, slug: "", title: title, date: date, rating: nil, tags: [], draft: true,
            summary: nil, language: nil, work: work(with: metadata), extra: [:],
            body: .init(html: "", firstParagraph: "", wordCount: 0))
        return Lookup(review)
    }

    /// The review file's text: front matter (every text quoted), then an empty body.
    public func text(with metadata: WorkMetadata?) -> String {
        let work = work(with: metadata)
        var lines = [
            "title: \(title.yamlQuoted)", "date: \(date)",
            "# Left out of the site until you set draft: false (sitegen build --drafts shows it).",
            "draft: true", "# rating: 3.5", "# tags: []", "# summary: \"One sentence for lists and feeds.\"",
        ]
        if let id = work.tmdbID { lines.append("tmdb: \(id)") }
        if let isbn = work.isbn { lines.append("isbn: \(isbn.yamlQuoted)") }
        if let year = work.year { lines.append("year: \(year)") }
        if let originalTitle = work.originalTitle { lines.append("original_title: \(originalTitle.yamlQuoted)") }
        if let creator = work.creator {
            lines.append("\(kind.creatorField): \(creator.yamlQuoted)")
        }
        return "---\n" + lines.joined(separator: "\n") + "\n---\n\n"
    }

    /// Writes `text` at `plan.path` in `site`, unless a file appeared there meanwhile.
    public func write(_ text: String, plan: Plan, site: URL) throws(AuthoringError) {
        guard try NewFile.create(Data(text.utf8), at: site.appendingPathComponent(plan.path)) else {
            throw AuthoringError("\(plan.path) already exists: nothing was written")
        }
    }
}

private extension NewReview {
    /// The review file of `section` whose front matter gives `slug` as its `slug:`, if any
    /// (files that cannot be read are the build's to report).
    static func slugClaim(_ slug: String, in section: String, _ loader: SiteLoader) -> String? {
        let folder = loader.folder
        var ignored: [Diagnostic] = []
        for source in loader.reviewSources(in: section).sources {
            guard let text = loader.text(of: source, folder, &ignored),
                case .success(var (_, reader)) = FrontMatter.read(text, path: source)
            else { continue }
            if reader.string("slug") == slug { return source }
        }
        return nil
    }

    /// The section folder: the one given (which must hold this kind), else the first section of
    /// this kind in navigation order, else `movies` or `books` (made when it is written).
    func sectionName(_ loader: SiteLoader) throws(AuthoringError) -> String {
        let folder = loader.folder
        var problems: [Diagnostic] = []
        let folders = folder.entries("content", &problems).filter(\.isFolder).map(\.name)
        guard problems.isEmpty else { throw AuthoringError(problems.map(\.description).joined(separator: "\n")) }
        var sections: [ReviewSection] = []
        for name in folders where section == nil || section == name {
            let (read, _) = loader.reloadSection(name, rawHTML: false, links: MarkdownLinks(basePath: "/"))
            if let read { sections.append(read) }
        }
        let noun = kind.noun
        if let section {
            guard section.isSafeSlug else {
                throw AuthoringError("--section must be a folder name in content/, not \"\(section)\"")
            }
            // A name sitegen's own pages use could not be built as a section.
            guard !SiteLoader.reservedNames.contains(section) else {
                throw AuthoringError("--section \"\(section)\" cannot be a section folder: sitegen uses that name")
            }
            guard folders.contains(section) else {
                let defaultName = kind.defaultSection
                if section == defaultName || (kind == .movie && section == "films") { return section }
                throw AuthoringError(
                    "content/\(section) does not exist: make it, with an _index.md saying kind: \(kind.rawValue), "
                        + "or leave out --section")
            }
            guard let read = sections.first else {
                throw AuthoringError("content/\(section) is not a section sitegen can read: sitegen build says why")
            }
            guard read.kind == kind else {
                throw AuthoringError(
                    "content/\(section) holds \(read.kind.noun) reviews, not \(noun) reviews")
            }
            return section
        }
        sections.sort { ($0.weight, $0.name) < ($1.weight, $1.name) }
        if let found = sections.first(where: { $0.kind == kind }) { return found.name }
        // No section of this kind: the default folder, unless it is there for another kind.
        let defaultName = kind.defaultSection
        guard folders.contains(defaultName) else { return defaultName }
        guard let other = sections.first(where: { $0.name == defaultName }) else {
            throw AuthoringError("content/\(defaultName) is not a section sitegen can read: sitegen build says why")
        }
        throw AuthoringError(
            "no section holds \(noun) reviews, and content/\(defaultName) holds \(other.kind.noun) reviews: make a "
                + "folder in content/ with an _index.md saying kind: \(kind.rawValue), and name it with --section")
    }
}

extension WorkKind {
    /// The section folder a new review of this kind goes to when the site has none: `movies`, `books`, `tv`.
    public var defaultSection: String {
        switch self {
        case .movie: "movies"
        case .book: "books"
        case .tv: "tv"
        }
    }

    /// What a review of this kind is about, in messages: film, book, series.
    public var noun: String {
        switch self {
        case .movie: "film"
        case .book: "book"
        case .tv: "series"
        }
    }

    /// The front matter field that names its maker: `director`, `author`, `creator`.
    public var creatorField: String {
        switch self {
        case .movie: "director"
        case .book: "author"
        case .tv: "creator"
        }
    }
}
