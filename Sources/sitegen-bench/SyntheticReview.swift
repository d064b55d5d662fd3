import Foundation
import SiteGen

/// One generated review: its front matter fields, its Markdown and its metadata cache entry.
struct SyntheticReview {
    let index: Int
    let section: String
    let korean: Bool
    let title: String
    /// The file name without `.md`, which is also the slug.
    let name: String
    let date: String
    let rating: Double?
    let tags: [String]
    let summary: String?
    let year: Int
    let creator: String
    let body: String
    /// Words of running text in the body.
    let wordCount: Int
    let metadata: WorkMetadata

    var isMovie: Bool { section == "movies" }
    /// `content/movies/name.md`
    var source: String { "content/\(section)/\(name).md" }
    /// `movies/name/`
    var page: String { "\(section)/\(name)/" }
    var lookupKey: String { isMovie ? "tmdb-\(tmdbID)" : "isbn-\(isbn)" }
    /// `metadata/movies/tmdb-10000.json`
    var metadataPath: String { "metadata/\(section)/\(lookupKey).json" }
    var tmdbID: Int { 10_000 + index }
    var isbn: String { "979" + String(format: "%010d", index) }

    /// The review file: YAML front matter, then the Markdown body.
    var text: String {
        var lines = ["---", "title: \"\(title)\"", "date: \(date)"]
        if let rating { lines.append("rating: \(rating == rating.rounded() ? String(Int(rating)) : String(rating))") }
        lines.append("tags: [\(tags.joined(separator: ", "))]")
        if let summary { lines.append("summary: \"\(summary)\"") }
        if korean { lines.append("language: ko") }
        lines +=
            isMovie
            ? ["tmdb: \(tmdbID)", "year: \(year)", "director: \(creator)"]
            : ["isbn: \"\(isbn)\"", "author: \(creator)"]
        return (lines + ["---", body]).joined(separator: "\n")
    }

    /// The metadata cache entry as `sitegen fetch` writes it.
    var metadataJSON: Data {
        Self.encode(metadata)
    }
}

extension SyntheticReview {
    /// Review number `index` of a site generated with `seed`; `taken` holds the names already used in its section.
    init(
        index: Int, seed: UInt64, words: ClosedRange<Int>, tagPool: [String] = Vocabulary.tags,
        taken: inout Set<String>
    ) {
        var random = SplitMix(seed: seed, stream: index)
        self.index = index
        section = index % 2 == 0 ? "movies" : "books"
        korean = index % 5 == 0
        (title, name) = Self.title(&random, korean: korean, taken: &taken)
        let day = CalendarDay(daysSince2006: random.int(0...7304))
        date = day.iso
        rating = random.chance(0.03) ? nil : Double(Self.ratingHalves(&random)) / 2
        tags = random.pickFew(3, of: tagPool)
        let text = ReviewText(words: random.int(words), korean: korean)
        summary = random.chance(0.7) ? text.summary(&random) : nil
        year = random.int(1950...day.year)
        creator = random.pick(Vocabulary.firstNames) + " " + random.pick(Vocabulary.lastNames)
        body = text.markdown(&random)
        wordCount = text.words
        metadata = Self.metadata(
            &random, section: section, title: title, year: year, creator: creator, id: index, korean: korean)
    }

    static func title(_ random: inout SplitMix, korean: Bool, taken: inout Set<String>) -> (String, String) {
        let title: String
        var name: String
        if korean {
            let (first, second) = (random.pick(Vocabulary.koreanTitleWords), random.pick(Vocabulary.koreanTitleWords))
            let possessive = random.chance(0.5)
            title = possessive ? "\(first.0)의 \(second.0)" : "\(first.0) \(second.0)"
            name = possessive ? "\(first.1)-ui-\(second.1)" : "\(first.1)-\(second.1)"
        } else {
            let adjective = random.pick(Vocabulary.titleAdjectives)
            let (noun, other) = (random.pick(Vocabulary.titleNouns), random.pick(Vocabulary.titleNouns))
            switch random.int(0...4) {
            case 0: title = "The \(adjective) \(noun)"
            case 1: title = "\(adjective) \(noun)s"
            case 2: title = "The \(noun) and the \(other)"
            case 3: title = "\(noun) \(random.int(2...12))"
            default: title = "A \(noun) in \(adjective) \(other)s"
            }
            name = title.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
        }
        if taken.contains(name) {
            var number = 2
            while taken.contains("\(name)-\(number)") { number += 1 }
            name = "\(name)-\(number)"
        }
        taken.insert(name)
        return (title, name)
    }

    /// A rating in halves from 1 to 10, most between 3 and 4 stars.
    static func ratingHalves(_ random: inout SplitMix) -> Int {
        let weights = [1, 1, 2, 3, 5, 8, 12, 12, 8, 4]
        var roll = random.int(1...weights.reduce(0, +))
        for (offset, weight) in weights.enumerated() {
            roll -= weight
            if roll <= 0 { return offset + 1 }
        }
        return 8
    }
}
