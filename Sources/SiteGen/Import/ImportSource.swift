/// Where an import reads from.
public enum ImportSource: String, Sendable, CaseIterable {
    /// A Letterboxd export: its `.zip` or the folder unzipped, with `diary.csv`, `reviews.csv`
    /// and `ratings.csv`.
    case letterboxd
    /// A Goodreads library export, one CSV file.
    case goodreads

    /// The kind of section its reviews go in.
    var kind: WorkKind { self == .letterboxd ? .movie : .book }

    /// What one entry is, for messages: `film`, `book`.
    var noun: String { self == .letterboxd ? "film" : "book" }
}
