/// What sitegen knows about a film or book from a metadata provider: one cache file,
/// pretty-printed JSON meant to be committed beside the content.
public struct WorkMetadata: Codable, Sendable, Equatable {
    /// `movie`, `book` or `tv`.
    public var kind: String
    /// `tmdb`, `naver` or `openlibrary`.
    public var source: String
    /// The provider's id: a TMDB id, an ISBN, an Open Library key.
    public var id: String
    public var title: String
    public var originalTitle: String?
    public var overview: String?
    /// `YYYY-MM-DD`, `YYYY-MM` or `YYYY`, as precise as the provider says.
    public var releaseDate: String?
    public var year: Int?
    public var genres: [String]
    /// Directors of a film.
    public var directors: [String]
    /// Authors of a book.
    public var authors: [String]
    public var cast: [CastMember]
    /// A film's length in minutes.
    public var runtime: Int?
    /// A book's length in pages.
    public var pages: Int?
    public var publisher: String?
    public var isbn: String?
    /// Poster or cover files in the cache's `images/` folder, smallest first.
    public var images: [CachedImage]
    /// A TV series' creators, networks, seasons and episodes (nil for films and books).
    public var series: SeriesFacts?

    public init(
        kind: String, source: String, id: String, title: String, originalTitle: String? = nil,
        overview: String? = nil, releaseDate: String? = nil, year: Int? = nil, genres: [String] = [],
        directors: [String] = [], authors: [String] = [], cast: [CastMember] = [], runtime: Int? = nil,
        pages: Int? = nil, publisher: String? = nil, isbn: String? = nil, images: [CachedImage] = [],
        series: SeriesFacts? = nil
    ) {
        self.kind = kind
        self.source = source
        self.id = id
        self.title = title
        self.originalTitle = originalTitle
        self.overview = overview
        self.releaseDate = releaseDate
        self.year = year
        self.genres = genres
        self.directors = directors
        self.authors = authors
        self.cast = cast
        self.runtime = runtime
        self.pages = pages
        self.publisher = publisher
        self.isbn = isbn
        self.images = images
        self.series = series
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, source, id, title, overview, year, genres, directors, authors, cast, runtime, pages, publisher
        case isbn, images, series
        case originalTitle = "original_title"
        case releaseDate = "release_date"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(String.self, forKey: .kind)
        source = try container.decode(String.self, forKey: .source)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        originalTitle = try container.decodeIfPresent(String.self, forKey: .originalTitle)
        overview = try container.decodeIfPresent(String.self, forKey: .overview)
        releaseDate = try container.decodeIfPresent(String.self, forKey: .releaseDate)
        year = try container.decodeIfPresent(Int.self, forKey: .year)
        genres = try container.decodeIfPresent([String].self, forKey: .genres) ?? []
        directors = try container.decodeIfPresent([String].self, forKey: .directors) ?? []
        authors = try container.decodeIfPresent([String].self, forKey: .authors) ?? []
        cast = try container.decodeIfPresent([CastMember].self, forKey: .cast) ?? []
        runtime = try container.decodeIfPresent(Int.self, forKey: .runtime)
        pages = try container.decodeIfPresent(Int.self, forKey: .pages)
        publisher = try container.decodeIfPresent(String.self, forKey: .publisher)
        isbn = try container.decodeIfPresent(String.self, forKey: .isbn)
        images = try container.decodeIfPresent([CachedImage].self, forKey: .images) ?? []
        series = try container.decodeIfPresent(SeriesFacts.self, forKey: .series)
    }
}

/// What a TV series has that films and books do not.
public struct SeriesFacts: Codable, Sendable, Equatable {
    /// Who created it ("Created by").
    public var creators: [String]
    /// The networks that air it.
    public var networks: [String]
    public var seasons: Int?
    public var episodes: Int?
    /// `YYYY-MM-DD` of the last episode aired so far (the first is the entry's `release_date`).
    public var lastAirDate: String?

    public init(
        creators: [String] = [], networks: [String] = [], seasons: Int? = nil, episodes: Int? = nil,
        lastAirDate: String? = nil
    ) {
        self.creators = creators
        self.networks = networks
        self.seasons = seasons
        self.episodes = episodes
        self.lastAirDate = lastAirDate
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case creators, networks, seasons, episodes
        case lastAirDate = "last_air_date"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        creators = try container.decodeIfPresent([String].self, forKey: .creators) ?? []
        networks = try container.decodeIfPresent([String].self, forKey: .networks) ?? []
        seasons = try container.decodeIfPresent(Int.self, forKey: .seasons)
        episodes = try container.decodeIfPresent(Int.self, forKey: .episodes)
        lastAirDate = try container.decodeIfPresent(String.self, forKey: .lastAirDate)
    }
}

/// A credited actor and the part played.
public struct CastMember: Codable, Sendable, Equatable {
    public var name: String
    public var character: String?

    public init(name: String, character: String? = nil) {
        self.name = name
        self.character = character
    }
}

/// A downloaded poster or cover.
public struct CachedImage: Codable, Sendable, Equatable {
    /// The provider's size name: `w342`, `w780`, `M`, `L`…
    public var size: String
    /// The file, relative to the cache folder: `images/tmdb-496243-w342.jpg`.
    public var file: String
    public var width: Int
    public var height: Int

    public init(size: String, file: String, width: Int, height: Int) {
        self.size = size
        self.file = file
        self.width = width
        self.height = height
    }
}
