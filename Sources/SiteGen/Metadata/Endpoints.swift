import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// TMDB API v3 requests.
enum TMDBEndpoint {
    /// A film with its credits, in `language` (`en-US`, `ko-KR`).
    case movie(id: Int, language: String)
    case search(title: String, year: Int?, language: String)
    /// A TV series with its credits (creators, seasons and networks come with it).
    case series(id: Int, language: String)
    /// Series by name, and the year the first episode aired.
    case searchSeries(title: String, year: Int?, language: String)

    func request(_ sources: MetadataSources) throws(MetadataError) -> URLRequest {
        var query: [URLQueryItem]
        let path: String
        switch self {
        case .movie(let id, let language):
            path = "movie/\(id)"
            query = [
                URLQueryItem(name: "append_to_response", value: "credits"),
                URLQueryItem(name: "language", value: language),
            ]
        case .search(let title, let year, let language):
            path = "search/movie"
            query = [URLQueryItem(name: "query", value: title), URLQueryItem(name: "language", value: language)]
            if let year { query.append(URLQueryItem(name: "year", value: String(year))) }
        case .series(let id, let language):
            path = "tv/\(id)"
            query = [
                URLQueryItem(name: "append_to_response", value: "credits"),
                URLQueryItem(name: "language", value: language),
            ]
        case .searchSeries(let title, let year, let language):
            path = "search/tv"
            query = [URLQueryItem(name: "query", value: title), URLQueryItem(name: "language", value: language)]
            if let year { query.append(URLQueryItem(name: "first_air_date_year", value: String(year))) }
        }
        if let key = sources.tmdbAPIKey { query.append(URLQueryItem(name: "api_key", value: key)) }
        var request = URLRequest(url: try endpointURL(sources.tmdbAPI, path, query))
        if let token = sources.tmdbAccessToken, sources.tmdbAPIKey == nil {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }
}

/// Naver book search requests.
enum NaverEndpoint {
    case isbn(String)
    case search(title: String, author: String?)

    func request(_ sources: MetadataSources) throws(MetadataError) -> URLRequest {
        let query: [URLQueryItem]
        let path: String
        switch self {
        case .isbn(let isbn):
            path = "v1/search/book_adv.json"
            query = [URLQueryItem(name: "d_isbn", value: isbn)]
        case .search(let title, let author):
            path = "v1/search/book.json"
            query = [
                URLQueryItem(name: "query", value: [title, author].compactMap { $0 }.joined(separator: " ")),
                URLQueryItem(name: "display", value: "5"),
            ]
        }
        var request = URLRequest(url: try endpointURL(sources.naverAPI, path, query))
        request.setValue(sources.naverClientID, forHTTPHeaderField: "X-Naver-Client-Id")
        request.setValue(sources.naverClientSecret, forHTTPHeaderField: "X-Naver-Client-Secret")
        return request
    }
}

/// Open Library requests (no key needed).
enum OpenLibraryEndpoint {
    /// An edition by ISBN; the server redirects to `/books/OL…M.json`.
    case isbn(String)
    case search(title: String, author: String?)
    /// A work, author or edition by its key, such as `/works/OL45883W`.
    case key(String)

    func request(_ sources: MetadataSources) throws(MetadataError) -> URLRequest {
        switch self {
        case .isbn(let isbn):
            return URLRequest(url: try endpointURL(sources.openLibraryAPI, "isbn/\(isbn).json", []))
        case .search(let title, let author):
            var query = [URLQueryItem(name: "title", value: title), URLQueryItem(name: "limit", value: "5")]
            if let author { query.append(URLQueryItem(name: "author", value: author)) }
            return URLRequest(url: try endpointURL(sources.openLibraryAPI, "search.json", query))
        case .key(let key):
            return URLRequest(url: try endpointURL(sources.openLibraryAPI, try answerPath(key) + ".json", []))
        }
    }
}

/// An image file at a provider.
enum ImageEndpoint {
    /// A TMDB poster path (`/abc.jpg`) at a size (`w342`).
    case tmdb(path: String, size: String)
    /// An Open Library cover by cover id at a size (`M`, `L`).
    case openLibraryCover(id: Int, size: String)
    /// An image at a full URL (Naver gives one).
    case url(URL)

    func request(_ sources: MetadataSources) throws(MetadataError) -> URLRequest {
        switch self {
        case .tmdb(let path, let size):
            return URLRequest(url: try endpointURL(sources.tmdbImages, try answerPath(size + path), []))
        case .openLibraryCover(let id, let size):
            return URLRequest(url: try endpointURL(sources.openLibraryCovers, "b/id/\(id)-\(size).jpg", []))
        case .url(let url):
            return URLRequest(url: url)
        }
    }
}

/// A path an answer gave (an Open Library key, a TMDB poster path), without its leading
/// slashes, when it is one: names of letters, digits, `-`, `.`, `_` and `~` (what URLs write
/// as they are), none of them `.` or `..`. Anything else (`/../../x`, `?q=1#`) could leave
/// the provider's base path or change the request, and is refused.
private func answerPath(_ text: String) throws(MetadataError) -> String {
    var path = Substring(text)
    while let rest = path.removingPathPrefix("/") { path = rest }
    let names = path.pathSegments(omittingEmpty: false)
    let fine = names.allSatisfy { name in
        !name.isEmpty && name != "." && name != ".."
            && name.utf8.allSatisfy { $0.isASCIIAlphanumeric || "-._~".utf8.contains($0) }
    }
    guard fine else { throw MetadataError.malformed("the answer names a path that is not one: \"\(text)\"") }
    return String(path)
}

/// `base` + `path` + query, keeping any path the base already has.
private func endpointURL(_ base: URL, _ path: String, _ query: [URLQueryItem]) throws(MetadataError) -> URL {
    let joined = base.absoluteString.hasSuffix("/") ? base.absoluteString + path : base.absoluteString + "/" + path
    guard var components = URLComponents(string: joined) else {
        throw MetadataError.badConfiguration("cannot make a URL from \(base) and \(path)")
    }
    if !query.isEmpty { components.queryItems = query }
    // `+` in a query means a space to many servers; encode it.
    components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
    guard let url = components.url else { throw MetadataError.badConfiguration("cannot make a URL from \(joined)") }
    return url
}
