/// TMDB's JSON, decoded as it comes: nullable poster paths, empty release dates,
/// runtimes that are 0 or null. Only the decoding layer sees these types.
struct TMDBMovie: Decodable {
    let id: Int
    let title: String?
    let originalTitle: String?
    let overview: String?
    let releaseDate: String?
    let runtime: Int?
    let posterPath: String?
    let genres: [Genre]?
    let credits: Credits?

    struct Genre: Decodable { let name: String }

    struct Credits: Decodable {
        let cast: [Cast]?
        let crew: [Crew]?
    }

    struct Cast: Decodable {
        let name: String
        let character: String?
        let order: Int?
    }

    struct Crew: Decodable {
        let name: String
        let job: String?
    }

    enum CodingKeys: String, CodingKey {
        case id, title, overview, runtime, genres, credits
        case originalTitle = "original_title"
        case releaseDate = "release_date"
        case posterPath = "poster_path"
    }
}

struct TMDBSearch: Decodable {
    let results: [Result]

    struct Result: Decodable { let id: Int }
}

extension TMDBMovie {
    /// The finished metadata, without images (they are downloaded next).
    var metadata: WorkMetadata {
        let date = releaseDate.flatMap(WorkMetadata.calendarDate)
        let cast = (credits?.cast ?? []).sorted { ($0.order ?? .max) < ($1.order ?? .max) }.prefix(5)
        return WorkMetadata(
            kind: "movie", source: "tmdb", id: String(id), title: title ?? originalTitle ?? "",
            originalTitle: originalTitle == title ? nil : originalTitle,
            overview: overview.flatMap { $0.isEmpty ? nil : $0 }, releaseDate: date,
            year: WorkMetadata.plausibleYear(date.flatMap(WorkMetadata.year(ofDate:))),
            genres: (genres ?? []).map(\.name),
            directors: (credits?.crew ?? []).filter { $0.job == "Director" }.map(\.name),
            cast: cast.map { CastMember(name: $0.name, character: $0.character.flatMap { $0.isEmpty ? nil : $0 }) },
            runtime: runtime.flatMap { $0 > 0 ? $0 : nil })
    }
}
