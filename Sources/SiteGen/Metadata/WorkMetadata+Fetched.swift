/// What `sitegen fetch` keeps of an answer, whatever the provider.
extension WorkMetadata {
    /// The most genres an entry keeps: TMDB gives a handful, and each genre is a page.
    static let genreLimit = 10

    /// The answer as the cache stores it: without control characters in any text, and with a
    /// date only where it is a real one (``calendarDate(_:)``), never a wrong one; with the first
    /// ``genreLimit`` genres that can have a page (one named `"."`, or too long for a file
    /// name, cannot).
    func cleanedForCache() -> WorkMetadata {
        var entry = removingControlCharacters()
        entry.releaseDate = entry.releaseDate.flatMap(Self.calendarDate)
        if var series = entry.series {
            series.lastAirDate = series.lastAirDate.flatMap(Self.calendarDate)
            entry.series = series
        }
        let makesPage = { (genre: String) in (1...String.slugByteLimit).contains(genre.slug.utf8.count) }
        entry.genres = Array(entry.genres.lazy.filter(makesPage).prefix(Self.genreLimit))
        return entry
    }
}
