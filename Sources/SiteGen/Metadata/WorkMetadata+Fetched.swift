/// What `sitegen fetch` keeps of an answer, whatever the provider.
extension WorkMetadata {
    /// The most genres an entry keeps: TMDB gives a handful, and each genre is a page.
    static let genreLimit = 10

    /// The answer as the cache stores it: without control characters in any text, and with a
    /// date only where it is a real one (``calendarDate(_:)``), never a wrong one; with the first
    /// ``genreLimit`` genres that can have a page (one named `"."`, or too long for a file
    /// name, cannot), each page once (of `Drama` and `drama `, which share one, the first).
    func cleanedForCache() -> WorkMetadata {
        var entry = removingControlCharacters()
        entry.releaseDate = entry.releaseDate.flatMap(Self.calendarDate)
        if var series = entry.series {
            series.lastAirDate = series.lastAirDate.flatMap(Self.calendarDate)
            entry.series = series
        }
        var pages: Set<String> = []
        var genres: [String] = []
        for genre in entry.genres where genres.count < Self.genreLimit {
            let slug = genre.slug
            if (1...String.slugByteLimit).contains(slug.utf8.count), pages.insert(slug).inserted {
                genres.append(genre)
            }
        }
        entry.genres = genres
        return entry
    }
}
