/// How a review names its film or book, and so which request finds it and which
/// cache file keeps it.
public enum Lookup: Sendable, Hashable, CustomStringConvertible {
    case tmdb(Int)
    case movieSearch(title: String, year: Int?)
    case isbn(String)
    case bookSearch(title: String, author: String?)
    /// A TV series by its TMDB id (TMDB numbers series apart from films).
    case tmdbSeries(Int)
    case seriesSearch(title: String, year: Int?)

    /// The lookup for a review: its `tmdb` id, or title and `year` (films and series); its
    /// `isbn`, or title and `author` (books). Nil when it names nothing that could be looked up.
    public init?(_ review: Review) {
        let work = review.work
        switch work.kind {
        case .movie:
            if let id = work.tmdbID {
                self = .tmdb(id)
            } else if let year = work.year {
                self = .movieSearch(title: review.title, year: year)
            } else {
                return nil
            }
        case .book:
            if let isbn = work.isbn, !isbn.isEmpty {
                self = .isbn(isbn)
            } else if let author = work.creator {
                self = .bookSearch(title: review.title, author: author)
            } else {
                return nil
            }
        case .tv:
            if let id = work.tmdbID {
                self = .tmdbSeries(id)
            } else if let year = work.year {
                self = .seriesSearch(title: review.title, year: year)
            } else {
                return nil
            }
        }
    }

    public var kind: WorkKind {
        switch self {
        case .tmdb, .movieSearch: .movie
        case .isbn, .bookSearch: .book
        case .tmdbSeries, .seriesSearch: .tv
        }
    }

    /// The cache file's base name: `tmdb-496243`, `isbn-9788936433598`, `search-2046-2004`;
    /// for series `tmdb-tv-1396` and `search-tv-…`, so that their images never share a name
    /// with a film's.
    public var key: String {
        switch self {
        case .tmdb(let id): "tmdb-\(id)"
        case .isbn(let isbn): "isbn-\(isbn)"
        case .movieSearch(let title, let year): Self.searchKey(year.map { "\(title) \($0)" } ?? title)
        case .bookSearch(let title, let author): Self.searchKey(author.map { "\(title) \($0)" } ?? title)
        case .tmdbSeries(let id): "tmdb-tv-\(id)"
        case .seriesSearch(let title, let year):
            Self.searchKey(year.map { "\(title) \($0)" } ?? title, prefix: "search-tv-")
        }
    }

    /// The start of its images' names: its ``key``, but for searches of books and series,
    /// whose keys a film's search could also make (a book "Dune" and a film "Dune" are both
    /// `search-dune`; the series "Junkie" of 2006 and the film "TV Junkie" of 2006 are both
    /// `search-tv-junkie-2006`), which start `book-` and `series-`, as every image shares
    /// `images/`.
    public var imageKey: String {
        switch self {
        case .bookSearch: "book-\(key)"
        case .seriesSearch: "series-\(key)"
        case .tmdb, .isbn, .movieSearch, .tmdbSeries: key
        }
    }

    /// `search-` and the words searched for, as a file name: symbols dropped (as in every
    /// cache made so far), and a long one cut short with a fingerprint of the whole.
    static func searchKey(_ words: String, prefix: String = "search-") -> String {
        // Not folded: the names of the cache's files stay those of every cache made so far.
        let slug = words.slug(spellingSymbols: false, folding: false)
        guard slug.utf8.count > 120 else { return prefix + slug }
        var cut = ""
        for character in slug {
            if cut.utf8.count + character.utf8.count > 100 { break }
            cut.append(character)
        }
        return "\(prefix)\(cut)-\(String(ContentHash(slug).high, radix: 16))"
    }

    /// The cache file relative to the cache folder: `movies/tmdb-496243.json`, `tv/tmdb-tv-1396.json`.
    public var path: String {
        let folder =
            switch kind {
            case .movie: "movies"
            case .book: "books"
            case .tv: "tv"
            }
        return "\(folder)/\(key).json"
    }

    public var description: String {
        switch self {
        case .tmdb(let id): "TMDB \(id)"
        case .isbn(let isbn): "ISBN \(isbn)"
        case .movieSearch(let title, let year): "film \"\(title)\"" + (year.map { " (\($0))" } ?? "")
        case .bookSearch(let title, let author): "book \"\(title)\"" + (author.map { " by \($0)" } ?? "")
        case .tmdbSeries(let id): "TMDB TV \(id)"
        case .seriesSearch(let title, let year): "series \"\(title)\"" + (year.map { " (\($0))" } ?? "")
        }
    }
}
