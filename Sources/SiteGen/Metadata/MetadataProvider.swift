import Foundation

/// Finds a film on TMDB or a book on Naver (with credentials) or Open Library, and
/// says which images to download; hands back finished values, never raw JSON.
struct MetadataProvider: Sendable {
    let transport: Transport
    let sources: MetadataSources
    let language: SiteLanguage

    /// An image to download for an entry (its pixel size is read from what arrives).
    struct ImageRequest: Sendable {
        let size: String
        let endpoint: ImageEndpoint
        let fileExtension: String
    }

    /// What a lookup found: the metadata and the images to download for it.
    ///
    /// A struct, not a tuple: an async function returning a tuple is miscompiled by the
    /// Swift 6.3 optimizer (its parts are written across a suspension), which crashed
    /// release builds of `sitegen fetch`.
    struct Found: Sendable {
        let metadata: WorkMetadata
        let images: [ImageRequest]
    }

    func fetch(_ lookup: Lookup) async throws(MetadataError) -> Found {
        switch lookup {
        case .tmdb(let id):
            return try await movie(id)
        case .movieSearch(let title, let year):
            try requireTMDBCredentials()
            let found = try await transport.decode(
                TMDBSearch.self,
                try TMDBEndpoint.search(title: title, year: year, language: tmdbLanguage).request(sources))
            guard let first = found.results.first else { throw MetadataError.notFound(lookup.description + " on TMDB") }
            return try await movie(first.id)
        case .isbn(let isbn):
            return sources.usesNaver ? try await naver(.isbn(isbn), lookup) : try await openLibraryEdition(isbn)
        case .bookSearch(let title, let author):
            return sources.usesNaver
                ? try await naver(.search(title: title, author: author), lookup)
                : try await openLibrarySearch(title: title, author: author, lookup)
        case .tmdbSeries(let id):
            return try await series(id)
        case .seriesSearch(let title, let year):
            try requireTMDBCredentials()
            let found = try await transport.decode(
                TMDBSearch.self,
                try TMDBEndpoint.searchSeries(title: title, year: year, language: tmdbLanguage).request(sources))
            guard let first = found.results.first else { throw MetadataError.notFound(lookup.description + " on TMDB") }
            return try await series(first.id)
        }
    }

    /// The site's language as TMDB takes it: `en-US`, `ko-KR`, `pt-BR`, `de`.
    var tmdbLanguage: String { language.tmdbLanguage }
}

private extension MetadataProvider {
    func requireTMDBCredentials() throws(MetadataError) {
        guard sources.tmdbAPIKey != nil || sources.tmdbAccessToken != nil else {
            throw MetadataError.missingCredentials("TMDB needs TMDB_API_KEY or TMDB_ACCESS_TOKEN in the environment")
        }
    }

    func movie(_ id: Int) async throws(MetadataError) -> Found {
        try requireTMDBCredentials()
        let movie = try await transport.decode(
            TMDBMovie.self, try TMDBEndpoint.movie(id: id, language: tmdbLanguage).request(sources))
        return Found(metadata: movie.metadata, images: posterRequests(movie.posterPath))
    }

    func series(_ id: Int) async throws(MetadataError) -> Found {
        try requireTMDBCredentials()
        let series = try await transport.decode(
            TMDBSeries.self, try TMDBEndpoint.series(id: id, language: tmdbLanguage).request(sources))
        return Found(metadata: series.metadata, images: posterRequests(series.posterPath))
    }

    /// A TMDB poster in the two sizes pages use.
    func posterRequests(_ path: String?) -> [ImageRequest] {
        guard let path else { return [] }
        return ["w342", "w780"].map { size in
            ImageRequest(size: size, endpoint: .tmdb(path: path, size: size), fileExtension: Self.fileExtension(path))
        }
    }

    func naver(_ endpoint: NaverEndpoint, _ lookup: Lookup) async throws(MetadataError) -> Found {
        let found = try await transport.decode(NaverBookSearch.self, try endpoint.request(sources))
        guard let item = found.items.first else { throw MetadataError.notFound(lookup.description + " on Naver") }
        let images =
            item.image.flatMap(URL.init(string:)).map {
                [
                    ImageRequest(size: "naver", endpoint: .url($0), fileExtension: Self.fileExtension($0.path))
                ]
            } ?? []
        return Found(metadata: item.metadata, images: images)
    }

    func openLibraryEdition(_ isbn: String) async throws(MetadataError) -> Found {
        let edition = try await transport.decode(
            OpenLibraryEdition.self, try OpenLibraryEndpoint.isbn(isbn).request(sources))
        var work: OpenLibraryWork?
        if let key = edition.works?.first?.key {
            work = try await transport.decode(OpenLibraryWork.self, try OpenLibraryEndpoint.key(key).request(sources))
        }
        var authors: [String] = []
        let references = edition.authors ?? work?.authors?.compactMap(\.author) ?? []
        for reference in references.prefix(3) {
            let author = try await transport.decode(
                OpenLibraryAuthor.self,
                try OpenLibraryEndpoint.key(reference.key).request(sources))
            authors.append(author.name)
        }
        // The year of the date as stored (a year such as 1450 too), as Naver's and TMDB's are.
        let date = normalizedDate(edition.publishDate)
        let metadata = WorkMetadata(
            kind: "book", source: "openlibrary", id: isbn, title: edition.title,
            overview: (edition.description ?? work?.description)?.value,
            releaseDate: date,
            year: WorkMetadata.plausibleYear(date.flatMap(WorkMetadata.year(ofDate:))),
            genres: Array((work?.subjects ?? []).prefix(3)), authors: authors,
            pages: edition.numberOfPages, publisher: edition.publishers?.first, isbn: isbn)
        return Found(metadata: metadata, images: coverRequests(edition.covers?.first ?? work?.covers?.first))
    }

    func openLibrarySearch(title: String, author: String?, _ lookup: Lookup) async throws(MetadataError) -> Found {
        let found = try await transport.decode(
            OpenLibrarySearch.self, try OpenLibraryEndpoint.search(title: title, author: author).request(sources))
        guard let doc = found.docs.first else { throw MetadataError.notFound(lookup.description + " on Open Library") }
        let work = try await transport.decode(
            OpenLibraryWork.self, try OpenLibraryEndpoint.key(doc.key).request(sources))
        let isbn = doc.isbn?.first { $0.count == 13 } ?? doc.isbn?.first
        let metadata = WorkMetadata(
            kind: "book", source: "openlibrary", id: String(doc.key.pathSegments().last ?? ""), title: doc.title,
            overview: work.description?.value, releaseDate: doc.firstPublishYear.map(String.init),
            year: WorkMetadata.plausibleYear(doc.firstPublishYear), genres: Array((work.subjects ?? []).prefix(3)),
            authors: doc.authorName ?? [],
            pages: doc.pages, publisher: doc.publisher?.first, isbn: isbn)
        return Found(metadata: metadata, images: coverRequests(doc.coverID ?? work.covers?.first))
    }

    func coverRequests(_ id: Int?) -> [ImageRequest] {
        guard let id, id > 0 else { return [] }
        return ["M", "L"].map { size in
            ImageRequest(size: size, endpoint: .openLibraryCover(id: id, size: size), fileExtension: "jpg")
        }
    }

    static func fileExtension(_ path: String) -> String {
        let ext = (path as NSString).pathExtension.lowercased()
        return ["jpg", "jpeg", "png", "webp", "gif"].contains(ext) ? ext : "jpg"
    }
}
