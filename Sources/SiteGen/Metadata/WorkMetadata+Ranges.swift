import Foundation
import Mustache

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

    /// The ids TMDB gives, as a review's `tmdb:` takes them.
    static let tmdbIDs = 1...Int(Int32.max)

    /// What in a fetched answer a review could not name, in words: a TMDB id out of the range
    /// of `tmdb:` (`sitegen new` writes it into the review). Entries already cached are not
    /// checked for it (a hand-made entry may have no id).
    var fetchedIDProblem: String? {
        guard source == "tmdb", !(Int(id).map(Self.tmdbIDs.contains) ?? false) else { return nil }
        return "a TMDB \"id\" must be a whole number from 1 to \(Self.tmdbIDs.upperBound), not \"\(id)\""
    }

    /// The year of a date written `YYYY-MM-DD` (or `YYYY-MM`, or `YYYY`), as providers write
    /// them; nil for anything else (a year of five digits or with a sign, which its first four
    /// characters would misread).
    static func year(ofDate date: String) -> Int? {
        let bytes = date.utf8
        guard bytes.count >= 4, bytes.prefix(4).allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            bytes.count == 4 || bytes.dropFirst(4).first == UInt8(ascii: "-")
        else { return nil }
        return bytes.prefix(4).reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// `date` when it is a real day, month or year of the calendar written `YYYY-MM-DD`,
    /// `YYYY-MM` or `YYYY` (a year from 0001 to 9999, a month from 01 to 12, a day that month
    /// has); nil for anything else, so that no wrong date is stored.
    static func calendarDate(_ date: String) -> String? {
        let parts = date.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4, parts.dropFirst().allSatisfy({ $0.count == 2 })
        else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard part.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            numbers.append(part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
        }
        let year = numbers[0]
        guard year >= 1 else { return nil }
        if numbers.count > 1, !(1...12).contains(numbers[1]) { return nil }
        if numbers.count > 2 {
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][numbers[1] - 1]
            guard (1...days).contains(numbers[2]) else { return nil }
        }
        return date
    }

    /// What in this entry is out of its range, in words, and where in its JSON; nil when
    /// nothing is.
    var rangeProblem: (message: String, at: [JSONPathStep])? {
        if let year, Self.plausibleYear(year) == nil {
            return ("\"year\" must be a year from -9999 to 9999 (there is no year 0), not \(year)", [.key("year")])
        }
        let counts = [runtime, pages, series?.seasons, series?.episodes]
        for case ((let name, let steps), let value?) in zip(Self.countFields, counts) where !Self.counts.contains(value)
        {
            return ("\"\(name)\" must be a whole number from 0 to \(Self.counts.upperBound), not \(value)", steps)
        }
        // Pages show these dates and structured data publishes them as written: fetch stores
        // only real ones (``calendarDate(_:)``), and one edited by hand must be one too.
        let dates = [
            ("release_date", releaseDate, [JSONPathStep.key("release_date")]),
            ("last_air_date", series?.lastAirDate, [.key("series"), .key("last_air_date")]),
        ]
        for (name, date, steps) in dates {
            if let date, Self.calendarDate(date) == nil {
                return (
                    "\"\(name)\" must be a date of the calendar written YYYY-MM-DD (or YYYY-MM, or YYYY), "
                        + "not \"\(date)\"", steps
                )
            }
        }
        if let (problem, index) = genreProblem { return (problem, [.key("genres"), .index(index)]) }
        for (index, image) in images.enumerated() where !Self.isImageFile(image.file) {
            return (
                "the image \"\(image.file)\" must be a file in images/ (such as images/tmdb-496243-w342.jpg)",
                [.key("images"), .index(index), .key("file")]
            )
        }
        for (index, image) in images.enumerated()
        where !Self.imageSides.contains(image.width) || !Self.imageSides.contains(image.height) {
            let side = Self.imageSides.contains(image.width) ? "height" : "width"
            return (
                "the image \(image.file) must be 1 to \(Self.imageSides.upperBound) pixels wide and high, "
                    + "not \(image.width)×\(image.height)", [.key("images"), .index(index), .key(side)]
            )
        }
        return nil
    }

    /// The counts an entry holds (besides the year and the images' sides), by name and where
    /// its JSON has them.
    private static let countFields: [(name: String, at: [JSONPathStep])] = [
        ("runtime", [.key("runtime")]), ("pages", [.key("pages")]),
        ("seasons", [.key("series"), .key("seasons")]), ("episodes", [.key("series"), .key("episodes")]),
    ]

    /// Where the entry's JSON `json` holds a fraction in a field that takes a whole number (the
    /// year, a count, an image's side), which `JSONDecoder`'s error does not say; nil when none does.
    static func fractionPath(in json: Value) -> [JSONPathStep]? {
        func holdsFraction(_ steps: [JSONPathStep], in value: Value) -> Bool {
            if case .double? = value[steps] { return true } else { return false }
        }
        for steps in [[.key("year")]] + countFields.map(\.at) where holdsFraction(steps, in: json) { return steps }
        if case .array(let images)? = json["images"] {
            for (index, image) in images.enumerated() {
                for side in ["width", "height"] where holdsFraction([.key(side)], in: image) {
                    return [.key("images"), .index(index), .key(side)]
                }
            }
        }
        return nil
    }

    /// What in the genres cannot make a genre's page, in words, and which genre: one whose page
    /// name (its slug, as for tags) would be empty (`""`, `"."`) or longer than a file name may be.
    var genreProblem: (message: String, index: Int)? {
        for (index, genre) in genres.enumerated() {
            let bytes = genre.slug.utf8.count
            if bytes == 0 { return ("the genre \"\(genre)\" has no letters or digits, so it can have no page", index) }
            if bytes > String.slugByteLimit {
                return (
                    "the genre \"\(genre.prefix(40))…\" is too long: its page name would be \(bytes) bytes, "
                        + "and at most \(String.slugByteLimit) are allowed", index
                )
            }
        }
        return nil
    }

    /// Whether `file` names a file right in `images/`: a name after it, without `/`, `\`, a
    /// control character or a leading dot (so never `..`, an entry, or a folder).
    static func isImageFile(_ file: String) -> Bool {
        guard let name = file.removingPathPrefix("images/")?.utf8 else { return false }
        return !name.isEmpty && name.first != UInt8(ascii: ".")
            && !name.contains { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }
            && !file.unicodeScalars.contains(where: isControl)
    }
}
