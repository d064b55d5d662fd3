import Foundation

/// Where metadata comes from: base URLs (from `site.yml`, each overridden by an
/// environment variable, so tests and mirrors can point elsewhere) and credentials.
public struct MetadataSources: Sendable, Equatable {
    public var tmdbAPI: URL
    public var tmdbImages: URL
    public var naverAPI: URL
    public var openLibraryAPI: URL
    public var openLibraryCovers: URL
    public var tmdbAPIKey: String?
    public var tmdbAccessToken: String?
    public var naverClientID: String?
    public var naverClientSecret: String?

    public static let defaults = MetadataSources(
        tmdbAPI: URL(string: "https://api.themoviedb.org/3")!, tmdbImages: URL(string: "https://image.tmdb.org/t/p")!,
        naverAPI: URL(string: "https://openapi.naver.com")!, openLibraryAPI: URL(string: "https://openlibrary.org")!,
        openLibraryCovers: URL(string: "https://covers.openlibrary.org")!)

    /// The `site.yml` keys under `metadata:` and the variables that override them.
    static var settings: [(key: String, variable: String, path: WritableKeyPath<MetadataSources, URL>)] {
        [
            ("tmdb_api", "SITEGEN_TMDB_API", \.tmdbAPI),
            ("tmdb_images", "SITEGEN_TMDB_IMAGES", \.tmdbImages),
            ("naver_api", "SITEGEN_NAVER_API", \.naverAPI),
            ("openlibrary_api", "SITEGEN_OPENLIBRARY_API", \.openLibraryAPI),
            ("openlibrary_covers", "SITEGEN_OPENLIBRARY_COVERS", \.openLibraryCovers),
        ]
    }

    public init(
        tmdbAPI: URL, tmdbImages: URL, naverAPI: URL, openLibraryAPI: URL, openLibraryCovers: URL,
        tmdbAPIKey: String? = nil, tmdbAccessToken: String? = nil, naverClientID: String? = nil,
        naverClientSecret: String? = nil
    ) {
        self.tmdbAPI = tmdbAPI
        self.tmdbImages = tmdbImages
        self.naverAPI = naverAPI
        self.openLibraryAPI = openLibraryAPI
        self.openLibraryCovers = openLibraryCovers
        self.tmdbAPIKey = tmdbAPIKey
        self.tmdbAccessToken = tmdbAccessToken
        self.naverClientID = naverClientID
        self.naverClientSecret = naverClientSecret
    }

    /// These sources with the environment's overrides and credentials applied.
    public func applying(environment: [String: String]) throws -> MetadataSources {
        var sources = self
        for setting in Self.settings {
            guard let text = environment[setting.variable], !text.isEmpty else { continue }
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw MetadataError.badConfiguration(
                    "\(setting.variable) must be an http or https URL, not \"\(text)\"")
            }
            sources[keyPath: setting.path] = url
        }
        let value = { (name: String) in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        sources.tmdbAPIKey = value("TMDB_API_KEY")
        sources.tmdbAccessToken = value("TMDB_ACCESS_TOKEN")
        sources.naverClientID = value("NAVER_CLIENT_ID")
        sources.naverClientSecret = value("NAVER_CLIENT_SECRET")
        return sources
    }

    /// Whether Naver's book search can be used (both credentials set).
    public var usesNaver: Bool { naverClientID != nil && naverClientSecret != nil }
}
