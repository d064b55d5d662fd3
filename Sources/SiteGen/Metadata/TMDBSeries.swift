/// TMDB's JSON for a TV series (`/tv/{id}?append_to_response=credits`), decoded as it
/// comes: empty dates, null posters, runtimes per episode as a list that may be empty.
/// Only the decoding layer sees this type.
struct TMDBSeries: Decodable {
    let id: Int
    let name: String?
    let originalName: String?
    let overview: String?
    let firstAirDate: String?
    let lastAirDate: String?
    let numberOfSeasons: Int?
    let numberOfEpisodes: Int?
    let episodeRunTime: [Int]?
    let posterPath: String?
    let genres: [TMDBMovie.Genre]?
    let networks: [Named]?
    let createdBy: [Named]?
    let credits: TMDBMovie.Credits?

    struct Named: Decodable { let name: String }

    enum CodingKeys: String, CodingKey {
        case id, name, overview, genres, networks, credits
        case originalName = "original_name"
        case firstAirDate = "first_air_date"
        case lastAirDate = "last_air_date"
        case numberOfSeasons = "number_of_seasons"
        case numberOfEpisodes = "number_of_episodes"
        case episodeRunTime = "episode_run_time"
        case posterPath = "poster_path"
        case createdBy = "created_by"
    }

    /// The finished metadata, without images (they are downloaded next).
    var metadata: WorkMetadata {
        let nonEmpty = { (text: String?) in text.flatMap { $0.isEmpty ? nil : $0 } }
        let first = firstAirDate.flatMap(WorkMetadata.calendarDate)
        let cast = (credits?.cast ?? []).sorted { ($0.order ?? .max) < ($1.order ?? .max) }.prefix(5)
        return WorkMetadata(
            kind: "tv", source: "tmdb", id: String(id), title: name ?? originalName ?? "",
            originalTitle: originalName == name ? nil : originalName, overview: nonEmpty(overview),
            releaseDate: first, year: WorkMetadata.plausibleYear(first.flatMap(WorkMetadata.year(ofDate:))),
            genres: (genres ?? []).map(\.name),
            cast: cast.map { CastMember(name: $0.name, character: nonEmpty($0.character)) },
            runtime: episodeRunTime?.first.flatMap { $0 > 0 ? $0 : nil },
            series: SeriesFacts(
                creators: (createdBy ?? []).map(\.name), networks: (networks ?? []).map(\.name),
                seasons: numberOfSeasons, episodes: numberOfEpisodes,
                lastAirDate: lastAirDate.flatMap(WorkMetadata.calendarDate)))
    }
}
