/// What `sitegen fetch` keeps of an answer, whatever the provider.
extension WorkMetadata {
    /// The answer as the cache stores it: without control characters in any text, and with a
    /// date only where it is a real one (``calendarDate(_:)``), never a wrong one.
    func cleanedForCache() -> WorkMetadata {
        var entry = removingControlCharacters()
        entry.releaseDate = entry.releaseDate.flatMap(Self.calendarDate)
        if var series = entry.series {
            series.lastAirDate = series.lastAirDate.flatMap(Self.calendarDate)
            entry.series = series
        }
        return entry
    }
}
