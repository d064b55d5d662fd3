import Foundation

/// The files of a new site, as `sitegen init` writes them: a commented `site.yml`, a film and
/// a book section each with its `_index.md` and a sample review, and a `.gitignore`. The site
/// builds at once, without warnings.
public struct NewSite: Sendable {
    public var title: String
    public var baseURL: BaseURL
    public var language: SiteLanguage
    /// The sample reviews' date.
    public var today: Day

    public init(title: String, baseURL: BaseURL, language: SiteLanguage, today: Day) {
        self.title = title
        self.baseURL = baseURL
        self.language = language
        self.today = today
    }

    /// What ``create(in:force:)`` did.
    public struct Report: Sendable, Equatable {
        /// Files written, relative to the site folder, in order.
        public var created: [String] = []
        /// Files left as they were because something was already there.
        public var skipped: [String] = []
    }

    /// Every file, relative to the site folder, with its text, in the order they are written.
    public var files: [(path: String, text: String)] {
        [
            (SiteConfig.fileName, siteYAML),
            (".gitignore", "# What sitegen makes, not what you write.\npublic/\n.sitegen/\n"),
            ("content/movies/_index.md", Self.moviesIndex),
            ("content/movies/metropolis.md", sampleFilm),
            ("content/books/_index.md", Self.booksIndex),
            ("content/books/frankenstein.md", sampleBook),
        ]
    }

    /// Writes the site into `folder` (made if missing). A folder holding anything but hidden
    /// files (such as `.git`) is refused unless `force`; even then no existing file is touched:
    /// only the missing ones are added.
    public func create(in folder: URL, force: Bool) throws(AuthoringError) -> Report {
        // As build never writes there: a site goes in a folder of its own, not the system's.
        if let refusal = OutputFolder.systemRefusal(folder) {
            throw AuthoringError("\(folder.path): refused: \(refusal); make the site in a folder of its own")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw AuthoringError("\(folder.path) is a file, not a folder") }
            let visible: [String]
            do {
                visible = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                    .filter { !$0.isHiddenName }.sorted()
            } catch {
                throw AuthoringError("\(folder.path): cannot read the folder: \(ErrorText.reason(error))")
            }
            if !visible.isEmpty && !force {
                let shown = visible.prefix(3).joined(separator: ", ") + (visible.count > 3 ? "…" : "")
                throw AuthoringError(
                    "\(folder.path) is not empty (\(shown)): choose an empty or new folder, or use --force to add "
                        + "the files it lacks (existing files are never changed)")
            }
        }
        // With --force, a folder of the site may be a link: never one that leads out of it (or
        // nowhere, which would fail halfway). Checked for every file before any is written.
        if let outside = files.map(\.0).first(where: { SafePath.linkLeadsOut($0, in: folder) }) {
            throw AuthoringError(
                "\(outside): refused: it leads out of \(folder.path) (or nowhere) through a link; nothing was written")
        }
        // A file where one of the site's folders goes (`content/movies`): refused before any is
        // written, rather than stopping halfway.
        for (path, _) in files {
            var prefix = ""
            for part in path.pathSegments().dropLast() {
                prefix += (prefix.isEmpty ? "" : "/") + part
                if let kind = DiskFile.kind(folder.appendingPathComponent(prefix).path), kind != .folder {
                    throw AuthoringError(
                        "\(folder.appendingPathComponent(prefix).path): a file is where the folder for \(path) "
                            + "goes; move it away (nothing was written)")
                }
            }
        }
        var report = Report()
        for (path, text) in files {
            if try NewFile.create(Data(text.utf8), at: folder.appendingPathComponent(path)) {
                report.created.append(path)
            } else {
                report.skipped.append(path)
            }
        }
        return report
    }
}

private extension NewSite {
    var siteYAML: String {
        """
        # The settings of this site. sitegen's README ("site.yml") describes every key;
        # a key it does not know is an error, so a typo never passes silently.

        # The site's name: the header of every page, page titles, the feed.
        title: \(title.yamlQuoted)
        # The address the site will be published at. Links are made under its path
        # (https://example.org/reviews/ gives /reviews/movies/...), so a sub-folder works.
        # sitegen serve uses its own address instead.
        base_url: \(baseURL.absolute)
        # en or ko: dates, numbers, the theme's words and the order of titles follow it.
        language: \(language.rawValue)
        # Who writes the reviews, for the feed and page metadata.
        author: ""
        # One line for the home page, the feed and <meta name="description">.
        description: Films and books, reviewed.
        # Reviews per page on a section's main page (large cards), and on the compact
        # lists (the other orders, tags, genres).
        page_size: 10
        list_page_size: 60
        # Raw HTML in Markdown is left out of the pages unless this is true.
        raw_html: false
        # Where sitegen fetch finds posters, covers and details (these are the defaults).
        # Credentials come from the environment: TMDB_API_KEY or TMDB_ACCESS_TOKEN for
        # films, NAVER_CLIENT_ID and NAVER_CLIENT_SECRET for books (else Open Library).
        # metadata:
        #   tmdb_api: https://api.themoviedb.org/3
        #   openlibrary_api: https://openlibrary.org

        """
    }

    static let moviesIndex = """
        ---
        # A section of film reviews: every .md file in this folder is one review.
        title: Films
        kind: movie
        # The order of the section's main page: date, title, rating or year.
        sort: date
        # The place in the navigation: lower first.
        weight: 1
        ---
        Films, newest review first. This text, under the front matter, is the section's
        introduction: Markdown, like the reviews.

        """

    static let booksIndex = """
        ---
        # A section of book reviews.
        title: Books
        kind: book
        sort: title
        weight: 2
        ---
        Books, arranged by title the way a shelf would be.

        """

    var sampleFilm: String {
        """
        ---
        # A sample review: change it, or delete it once you have written your own.
        # sitegen new movie "Title" starts a new one.
        title: Metropolis
        date: \(today)
        rating: 4.5
        tags: [silent, science fiction, Fritz Lang]
        summary: A city of machines, and a film that still looks like the future.
        director: Fritz Lang
        # With tmdb (the film's TMDB id) or year, sitegen fetch finds its poster and details:
        # tmdb: 19
        # year: 1927
        # Until then the review shows a placeholder. A review is left out of the site
        # while it says draft: true.
        draft: false
        ---
        The review is Markdown. *Metropolis* imagines a city split in two: the
        planners above, the workers below, and the machines that hold them apart.

        Link to another review by its file, and the link follows it wherever it is
        published: this film was made a century after
        [the novel of the other section](../books/frankenstein.md) was written.

        """
    }

    var sampleBook: String {
        """
        ---
        # A sample book review.
        title: Frankenstein
        date: \(today)
        rating: 5
        tags: [gothic, classic]
        summary: The first science fiction novel asks who the monster is.
        # With isbn, or author, sitegen fetch finds the cover and details:
        # isbn: 9780141439471
        # author: Mary Shelley
        ---
        Victor Frankenstein makes a creature and then abandons it, and the novel's
        sympathy goes where his does not.

        Images and links that start with `/` are paths of the site, such as
        [the films](/movies/); they keep working when the site is published under a
        sub-folder of its address.

        """
    }
}
