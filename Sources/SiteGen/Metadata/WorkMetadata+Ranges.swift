/// The ranges a cache entry's numbers keep to. `sitegen fetch` writes only such values
/// (``plausibleYear(_:)``); an entry edited by hand or damaged is refused instead of showing a
/// year of billions or an image of negative width (or trapping on `-Int.min`).
extension WorkMetadata {
    static let years = -9999...9999
    static let imageSides = 1...65_535
    static let counts = 0...10_000_000

    /// `year` when it can be a year (from -9999 to 9999, no year 0), else nil.
    static func plausibleYear(_ year: Int?) -> Int? {
        year.flatMap { years.contains($0) && $0 != 0 ? $0 : nil }
    }

    /// What in this entry is out of its range, in words; nil when nothing is.
    var rangeProblem: String? {
        if let year, Self.plausibleYear(year) == nil {
            return "\"year\" must be a year from -9999 to 9999 (there is no year 0), not \(year)"
        }
        let counts = [
            ("runtime", runtime), ("pages", pages), ("seasons", series?.seasons), ("episodes", series?.episodes),
        ]
        for case (let name, let value?) in counts where !Self.counts.contains(value) {
            return "\"\(name)\" must be a whole number from 0 to \(Self.counts.upperBound), not \(value)"
        }
        for image in images where !Self.imageSides.contains(image.width) || !Self.imageSides.contains(image.height) {
            return "the image \(image.file) must be 1 to \(Self.imageSides.upperBound) pixels wide and high, "
                + "not \(image.width)×\(image.height)"
        }
        return nil
    }
}
