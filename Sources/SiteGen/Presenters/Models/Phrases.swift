import Foundation

/// The theme's fixed phrases with values in them, in the site's language: patterns whose
/// `{placeholders}` ``Formatter`` fills ("{count} reviews" → "12 reviews"). English or
/// Korean, English for other languages; `labels:` in `site.yml` replaces any of them by name,
/// as it does ``Labels``. A phrase ending in `One` is the one used for exactly 1.
public struct Phrases: Codable, Sendable, Equatable {
    public let reviewCount: String
    public let reviewCountOne: String
    /// What a screen reader says for a rating.
    public let ratingLabel: String
    /// The heading over reviews of one rating.
    public let ratingHeading: String
    public let ratingHeadingOne: String
    /// The heading over reviews of one year.
    public let yearHeading: String
    /// A year before the common era, `year: -700` (`{year}` is 700).
    public let yearBCE: String
    /// A decade, in the jump links of a list by year that spans many years (`{decade}` is 1990).
    public let decadeHeading: String
    /// A decade before the common era (`{decade}` is 700 for the years 709 to 700 BCE).
    public let decadeBCE: String
    public let readingTime: String
    public let pageOf: String
    /// The names of a section's orders, in its links to them.
    public let sortDate: String
    public let sortTitle: String
    public let sortRating: String
    public let sortYear: String
    /// A list in each order, as page titles say it ("Films, by title").
    public let byDate: String
    public let byTitle: String
    public let byRating: String
    public let byYear: String
    /// A list by date, as its description says it ("newest first").
    public let newestFirst: String
    /// A list page's title and description.
    public let sortedTitle: String
    public let listDescription: String
    public let taggedHeading: String
    public let taggedDescription: String
    public let genreHeading: String
    public let runtimeMinutes: String
    public let runtimeHours: String
    public let runtimeHoursMinutes: String
    public let posterAlt: String
    public let coverAlt: String
    public let pageCount: String
    public let seasonCount: String
    public let seasonCountOne: String
    public let episodeCount: String
    public let episodeCountOne: String

    /// The phrases for `language`, with `site.yml`'s `labels:` over them.
    public static func `for`(_ language: SiteLanguage, overrides: [String: String] = [:]) -> Phrases {
        let phrases: Phrases = language.usesKoreanWords ? .korean : .english
        return overrides.isEmpty ? phrases : LabelTable.overriding(phrases, with: overrides)
    }

    /// Every phrase's name.
    public static let names = LabelTable.names(of: english)

    /// The placeholders each phrase may hold, by name (those of its English pattern).
    public static let placeholders: [String: Set<String>] = LabelTable.dictionary(english).mapValues(placeholders(in:))

    /// The `{names}` in `pattern`.
    static func placeholders(in pattern: String) -> Set<String> {
        Set(pattern.matches(of: /\{([A-Za-z]+)\}/).map { String($0.output.1) })
    }

    /// `pattern` with each `{name}` replaced by its value, in one pass (a value that holds
    /// braces, such as a title, is left as it is).
    static func fill(_ pattern: String, _ values: KeyValuePairs<String, String>) -> String {
        // Read as UTF-8: braces are ASCII, so no byte of another character is taken for one,
        // and no grapheme breaking runs for a phrase filled for every review and page.
        let bytes = pattern.utf8
        var text = ""
        var rest = bytes.startIndex
        var search = rest
        while let open = bytes[search...].firstIndex(of: UInt8(ascii: "{")) {
            let nameStart = bytes.index(after: open)
            guard let close = bytes[nameStart...].firstIndex(of: UInt8(ascii: "}")),
                let value = values.first(where: { $0.key.utf8.elementsEqual(bytes[nameStart..<close]) })?.value
            else {
                search = nameStart
                continue
            }
            text += pattern[rest..<open]
            text += value
            rest = bytes.index(after: close)
            search = rest
        }
        text += pattern[rest...]
        return text
    }

    static let english = Phrases(
        reviewCount: "{count} reviews", reviewCountOne: "{count} review", ratingLabel: "{rating} out of 5 stars",
        ratingHeading: "{rating} stars", ratingHeadingOne: "{rating} star", yearHeading: "{year}",
        yearBCE: "{year} BCE", decadeHeading: "{decade}s", decadeBCE: "{decade}s BCE",
        readingTime: "{minutes} min read", pageOf: "Page {page} of {total}",
        sortDate: "Newest", sortTitle: "Title", sortRating: "Rating", sortYear: "Year", byDate: "by newest",
        byTitle: "by title", byRating: "by rating", byYear: "by year", newestFirst: "newest first",
        sortedTitle: "{title}, {order}", listDescription: "{title}: {count}, {order}",
        taggedHeading: "Reviews tagged “{tag}”", taggedDescription: "{count} tagged “{tag}”",
        genreHeading: "Genre: {genre}", runtimeMinutes: "{minutes} min", runtimeHours: "{hours} h",
        runtimeHoursMinutes: "{hours} h {minutes} min", posterAlt: "Poster of {title}", coverAlt: "Cover of {title}",
        pageCount: "{count} pages", seasonCount: "{count} seasons", seasonCountOne: "{count} season",
        episodeCount: "{count} episodes", episodeCountOne: "{count} episode")

    static let korean = Phrases(
        reviewCount: "리뷰 {count}편", reviewCountOne: "리뷰 {count}편", ratingLabel: "별 5개 중 {rating}개",
        ratingHeading: "별 {rating}개", ratingHeadingOne: "별 {rating}개", yearHeading: "{year}년",
        yearBCE: "기원전 {year}년", decadeHeading: "{decade}년대", decadeBCE: "기원전 {decade}년대",
        readingTime: "{minutes}분 분량", pageOf: "{total}쪽 중 {page}쪽",
        sortDate: "최신순", sortTitle: "제목순", sortRating: "평점순", sortYear: "연도순", byDate: "최신순",
        byTitle: "제목순", byRating: "평점순", byYear: "연도순", newestFirst: "최신순", sortedTitle: "{title} ({order})",
        listDescription: "{title}: {count} ({order})", taggedHeading: "“{tag}” 태그가 붙은 리뷰",
        taggedDescription: "“{tag}” 태그가 붙은 {count}", genreHeading: "장르: {genre}", runtimeMinutes: "{minutes}분",
        runtimeHours: "{hours}시간", runtimeHoursMinutes: "{hours}시간 {minutes}분", posterAlt: "{title} 포스터",
        coverAlt: "{title} 표지", pageCount: "{count}쪽", seasonCount: "시즌 {count}개", seasonCountOne: "시즌 {count}개",
        episodeCount: "에피소드 {count}편", episodeCountOne: "에피소드 {count}편")
}
