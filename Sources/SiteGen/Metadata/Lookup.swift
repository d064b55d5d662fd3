/// How a review names its film or book, and so which request finds it and which
/// cache file keeps it.
public enum Lookup: Sendable, Hashable, CustomStringConvertible {
    case tmdb(Int)
    case movieSearch(title: String, year: Int?)
    case isbn(String)
    case bookSearch(title: String, author: String?)

    /// The lookup for a review: its `tmdb` id, or title and `year` (films); its `isbn`, or
    /// title and `author` (books). Nil when it names nothing that could be looked up.
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
        }
    }

    public var kind: WorkKind {
        switch self {
        case .tmdb, .movieSearch: .movie
        case .isbn, .bookSearch: .book
        }
    }

    /// The cache file's base name: `tmdb-496243`, `isbn-9788936433598`, `search-2046-2004`.
    public var key: String {
        switch self {
        case .tmdb(let id): "tmdb-\(id)"
        case .isbn(let isbn): "isbn-\(isbn)"
        case .movieSearch(let title, let year): Self.searchKey(year.map { "\(title) \($0)" } ?? title)
        case .bookSearch(let title, let author): Self.searchKey(author.map { "\(title) \($0)" } ?? title)
        }
    }

    /// `search-` and the words searched for, as a file name: symbols dropped (as in every
    /// cache made so far), and a long one cut short with a fingerprint of the whole.
    static func searchKey(_ words: String) -> String {
        let slug = words.slug(spellingSymbols: false)
        guard slug.utf8.count > 120 else { return "search-" + slug }
        var cut = ""
        for character in slug {
            if cut.utf8.count + character.utf8.count > 100 { break }
            cut.append(character)
        }
        return "search-\(cut)-\(String(ContentHash(slug).high, radix: 16))"
    }

    /// The cache file relative to the cache folder: `movies/tmdb-496243.json`.
    public var path: String {
        "\(kind == .movie ? "movies" : "books")/\(key).json"
    }

    public var description: String {
        switch self {
        case .tmdb(let id): "TMDB \(id)"
        case .isbn(let isbn): "ISBN \(isbn)"
        case .movieSearch(let title, let year): "film \"\(title)\"" + (year.map { " (\($0))" } ?? "")
        case .bookSearch(let title, let author): "book \"\(title)\"" + (author.map { " by \($0)" } ?? "")
        }
    }
}
