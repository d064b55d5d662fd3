import Foundation

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
        for image in images where !Self.isImageFile(image.file) {
            return "the image \"\(image.file)\" must be a file in images/ (such as images/tmdb-496243-w342.jpg)"
        }
        for image in images where !Self.imageSides.contains(image.width) || !Self.imageSides.contains(image.height) {
            return "the image \(image.file) must be 1 to \(Self.imageSides.upperBound) pixels wide and high, "
                + "not \(image.width)×\(image.height)"
        }
        return nil
    }

    /// Whether `file` names a file right in `images/`: a name after it, without `/`, `\`, NUL
    /// or a leading dot (so never `..`, an entry, or a folder).
    static func isImageFile(_ file: String) -> Bool {
        guard let name = file.removingPathPrefix("images/")?.utf8 else { return false }
        return !name.isEmpty && name.first != UInt8(ascii: ".")
            && !name.contains { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 }
    }
}

/// Control characters a provider (or a hand) put in a cache entry's text, which pages and
/// feeds cannot show: removed when the entry is read.
extension WorkMetadata {
    /// Whether the entry's JSON may hold one: JSON writes them only as escapes (`\u001b`,
    /// `\b`, `\f`), so entries without such an escape are left as they are.
    static func mayHoldControlCharacters(_ json: Data) -> Bool {
        json.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            guard var position = buffer.baseAddress else { return false }
            let end = position + buffer.count
            // Backslashes are rare in an entry: jump from one to the next.
            while position < end, let found = memchr(position, Int32(UInt8(ascii: "\\")), end - position) {
                let next = UnsafeRawPointer(found) + 1
                guard next < end else { return false }
                let byte = next.load(as: UInt8.self)
                if byte == UInt8(ascii: "u") || byte == UInt8(ascii: "b") || byte == UInt8(ascii: "f") { return true }
                position = next + 1
            }
            return false
        }
    }

    /// The entry with control characters (but tab and line breaks) removed from its text.
    func removingControlCharacters() -> WorkMetadata {
        let clean = { (text: String) -> String in
            guard text.unicodeScalars.contains(where: Self.isControl) else { return text }
            var kept = String.UnicodeScalarView()
            kept.append(contentsOf: text.unicodeScalars.lazy.filter { !Self.isControl($0) })
            return String(kept)
        }
        var entry = self
        entry.title = clean(title)
        entry.originalTitle = originalTitle.map(clean)
        entry.overview = overview.map(clean)
        entry.genres = genres.map(clean)
        entry.directors = directors.map(clean)
        entry.authors = authors.map(clean)
        entry.cast = cast.map { CastMember(name: clean($0.name), character: $0.character.map(clean)) }
        entry.publisher = publisher.map(clean)
        entry.series?.creators = series?.creators.map(clean) ?? []
        entry.series?.networks = series?.networks.map(clean) ?? []
        return entry
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0..<0x20, 0x7F...0x9F: true
        default: false
        }
    }
}
