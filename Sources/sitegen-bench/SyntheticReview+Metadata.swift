import Foundation
import SiteGen

extension SyntheticReview {
    /// A metadata cache entry like the one `sitegen fetch` stores: TMDB for films, Open Library for books.
    static func metadata(
        _ random: inout SplitMix, section: String, title: String, year: Int, creator: String, id: Int, korean: Bool
    ) -> WorkMetadata {
        let movie = section == "movies"
        let isbn = "979" + String(format: "%010d", id)
        let overview = ReviewText(words: random.int(40...70), korean: korean).plainParagraph(&random)
        let release = CalendarDay(year: year, month: random.int(1...12), day: random.int(1...28)).iso
        let genres = random.pick(2, of: movie ? Vocabulary.filmGenres : Vocabulary.bookGenres)
        let name = { (random: inout SplitMix) in
            random.pick(Vocabulary.firstNames) + " " + random.pick(Vocabulary.lastNames)
        }
        if movie {
            let cast = (0..<5).map { _ in CastMember(name: name(&random), character: random.pick(Vocabulary.firstNames))
            }
            return WorkMetadata(
                kind: "movie", source: "tmdb", id: String(10_000 + id), title: title, originalTitle: title,
                overview: overview, releaseDate: release, year: year, genres: genres, directors: [creator], cast: cast,
                runtime: random.int(80...180))
        }
        return WorkMetadata(
            kind: "book", source: "openlibrary", id: isbn, title: title, originalTitle: title, overview: overview,
            releaseDate: release, year: year, genres: genres, authors: [creator], pages: random.int(120...640),
            publisher: random.pick(Vocabulary.publishers), isbn: isbn)
    }

    /// The cache file's bytes, encoded as `sitegen fetch` encodes them.
    static func encode(_ metadata: WorkMetadata) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try! encoder.encode(metadata) + Data("\n".utf8)
    }
}
