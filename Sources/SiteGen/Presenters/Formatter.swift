import Foundation
import Synchronization

/// Turns values into the words and numbers pages show, in the site's language: dates and
/// numbers through ICU (Foundation's `Locale`), phrases from ``Phrases``.
public struct Formatter: Sendable {
    public var language: SiteLanguage { parts.language }
    public var phrases: Phrases { parts.phrases }
    private var locale: Locale { parts.locale }
    private var calendar: Calendar { parts.calendar }
    /// All of it in one object: a formatter is copied into presenters and cards for every
    /// page, and a copy is then one reference count rather than one for each phrase.
    private let parts: Parts

    private final class Parts: Sendable {
        let language: SiteLanguage
        let phrases: Phrases
        let locale: Locale
        let calendar: Calendar
        /// Each date, month and number formatted once: Foundation's format styles are far too
        /// slow to run for every page that shows a value.
        let dates = Mutex<[Day: DateModel]>([:])
        let months = Mutex<[Int: String]>([:])
        let numbers = Mutex<[Int: String]>([:])
        let ratings = Mutex<[Int: String]>([:])
        /// Each month's ``DateShape``, or nil where ICU's own text must be asked for each date.
        let shapes = Mutex<[Int: DateShape?]>([:])

        init(language: SiteLanguage, phrases: Phrases, locale: Locale, calendar: Calendar) {
            self.language = language
            self.phrases = phrases
            self.locale = locale
            self.calendar = calendar
        }
    }

    /// A formatter for `language`, with its own phrases unless `phrases` are given.
    public init(language: SiteLanguage, phrases: Phrases? = nil) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        parts = Parts(
            language: language, phrases: phrases ?? Phrases.for(language), locale: language.locale, calendar: calendar)
    }

    /// "March 14, 2026" / "2026년 3월 14일", and the ISO form for `datetime=`.
    public func date(_ day: Day) -> DateModel {
        if let known = parts.dates.withLock({ $0[day] }) { return known }
        let shape = DateShape.years.contains(day.year) ? shape(ofMonth: day.month) : nil
        let model = DateModel(iso: day.description, display: shape?.text(day) ?? format(day, Self.longDate))
        parts.dates.withLock { $0[day] = model }
        return model
    }

    private static let longDate = Date.FormatStyle(date: .long, time: .omitted)

    /// The shape of long dates in `month`, when probes across days and years show it gives
    /// exactly ICU's text (a locale might pad days, write its own digits, or say "1st").
    func shape(ofMonth month: Int) -> DateShape? {
        if let known = parts.shapes.withLock({ $0[month] }) { return known }
        let sample = Day(year: DateShape.sample.year, month: month, day: DateShape.sample.day)!
        var shape = DateShape(format(sample, Self.longDate))
        let last = Day.length(ofMonth: month, year: 9999)
        for (year, day) in [(1600, 1), (1999, 2), (2024, 9), (2025, 10), (9999, last)] {
            let probe = Day(year: year, month: month, day: day)!
            if shape?.text(probe) != format(probe, Self.longDate) { shape = nil }
        }
        parts.shapes.withLock { $0[month] = shape }
        return shape
    }

    /// "March 2026" / "2026년 3월".
    public func month(_ day: Day) -> String {
        let key = day.year * 100 + day.month
        if let known = parts.months.withLock({ $0[key] }) { return known }
        let text = format(day, Date.FormatStyle().year().month(.wide))
        parts.months.withLock { $0[key] = text }
        return text
    }

    /// A number with the language's digit grouping: "12,345".
    public func number(_ value: Int) -> String {
        if let known = parts.numbers.withLock({ $0[value] }) { return known }
        let text = value.formatted(.number.locale(locale))
        parts.numbers.withLock { $0[value] = text }
        return text
    }

    /// "12 reviews" / "리뷰 12편".
    public func reviewCount(_ count: Int) -> String {
        Phrases.fill(count == 1 ? phrases.reviewCountOne : phrases.reviewCount, ["count": number(count)])
    }

    /// Stars (★★★★½), a label a screen reader can say, and the number.
    public func rating(_ rating: Rating) -> RatingModel {
        let value = ratingNumber(rating)
        let stars =
            rating.halves == 0
            ? "☆" : String(repeating: "★", count: rating.halves / 2) + (rating.halves % 2 == 1 ? "½" : "")
        return RatingModel(stars: stars, label: Phrases.fill(phrases.ratingLabel, ["rating": value]), value: value)
    }

    /// A heading for reviews with this rating: "4.5 stars" / "별 4.5개".
    public func ratingHeading(_ rating: Rating) -> String {
        Phrases.fill(
            rating.halves == 2 ? phrases.ratingHeadingOne : phrases.ratingHeading, ["rating": ratingNumber(rating)])
    }

    /// A heading for reviews of a year: "2019" / "2019년"; "700 BCE" / "기원전 700년" for -700.
    public func year(_ year: Int) -> String {
        year < 0
            ? Phrases.fill(phrases.yearBCE, ["year": String(year.magnitude)])
            : Phrases.fill(phrases.yearHeading, ["year": String(year)])
    }

    /// The decade a year falls in: "1990s" / "1990년대" for 1990 to 1999; "700s BCE" /
    /// "기원전 700년대" for 709 to 700 BCE (-709 to -700).
    public func decade(_ year: Int) -> String {
        decade(startingAt: Int(year.magnitude / 10 * 10), isBCE: year < 0)
    }

    /// The decade whose years count from `start` (back from it when `isBCE`): "1990s", "700s BCE".
    public func decade(startingAt start: Int, isBCE: Bool) -> String {
        Phrases.fill(isBCE ? phrases.decadeBCE : phrases.decadeHeading, ["decade": String(start)])
    }

    /// A release or publication year as cards and details show it: "2019"; "700 BCE" / "기원전 700년" for -700.
    public func workYear(_ year: Int) -> String {
        year < 0 ? Phrases.fill(phrases.yearBCE, ["year": String(year.magnitude)]) : String(year)
    }

    /// "4 min read" / "4분 분량", at 200 words a minute and 500 characters of Chinese or Japanese
    /// (which have no spaces between words to count by); empty for a review without words (a
    /// rating alone), which no one reads for a minute.
    public func readingTime(words: Int, characters: Int = 0) -> String {
        guard words > 0 || characters > 0 else { return "" }
        let minutes = max(1, Int((Double(words) / 200 + Double(characters) / 500).rounded()))
        return Phrases.fill(phrases.readingTime, ["minutes": number(minutes)])
    }

    /// "Page 2 of 5" / "5쪽 중 2쪽".
    public func pageOf(_ page: Int, _ total: Int) -> String {
        Phrases.fill(phrases.pageOf, ["page": number(page), "total": number(total)])
    }

    /// The label of a section ordering.
    public func sortLabel(_ order: SortOrder) -> String {
        switch order {
        case .date: phrases.sortDate
        case .title: phrases.sortTitle
        case .rating: phrases.sortRating
        case .year: phrases.sortYear
        }
    }

    /// The heading of a tag's page: "Reviews tagged “thriller”".
    public func taggedHeading(_ tag: String) -> String {
        Phrases.fill(phrases.taggedHeading, ["tag": tag])
    }

    /// The heading of a genre's page: "Genre: Drama".
    public func genreHeading(_ genre: String) -> String {
        Phrases.fill(phrases.genreHeading, ["genre": genre])
    }

    /// A list page's description: "Films: 12 reviews, newest first" / "영화: 리뷰 12편 (최신순)".
    public func listDescription(_ title: String, count: Int, order: SortOrder) -> String {
        Phrases.fill(
            phrases.listDescription,
            ["title": title, "count": reviewCount(count), "order": order == .date ? phrases.newestFirst : by(order)])
    }

    /// A tag page's description: "3 reviews tagged “noir”" / "“누아르” 태그가 붙은 리뷰 3편".
    public func taggedDescription(_ tag: String, count: Int) -> String {
        Phrases.fill(phrases.taggedDescription, ["tag": tag, "count": reviewCount(count)])
    }

    /// "Films, by title" / "Films (제목순)".
    public func sortedTitle(_ title: String, _ order: SortOrder) -> String {
        Phrases.fill(phrases.sortedTitle, ["title": title, "order": by(order)])
    }

    /// "120 min" → "2 h" / "2시간"; minutes as hours and minutes.
    public func runtime(minutes: Int) -> String {
        let (hours, rest) = (minutes / 60, minutes % 60)
        if hours == 0 { return Phrases.fill(phrases.runtimeMinutes, ["minutes": number(rest)]) }
        if rest == 0 { return Phrases.fill(phrases.runtimeHours, ["hours": number(hours)]) }
        return Phrases.fill(phrases.runtimeHoursMinutes, ["hours": number(hours), "minutes": number(rest)])
    }

    /// "Poster of Parasite" / "기생충 포스터" (films and series); "Cover of Stoner" / "스토너 표지".
    public func imageAlt(title: String, kind: WorkKind) -> String {
        Phrases.fill(kind == .book ? phrases.coverAlt : phrases.posterAlt, ["title": title])
    }

    /// "Song Kang-ho (Kim Ki-taek), Lee Sun-kyun (Park Dong-ik)"; nil for nobody.
    public func cast(_ members: [CastMember]) -> String? {
        guard !members.isEmpty else { return nil }
        // Non-breaking hyphens, so "Song Kang-ho (Kim Ki-taek)" never breaks at a hyphen.
        var bytes: [UInt8] = []
        let add = { (text: String, bytes: inout [UInt8]) in
            for byte in text.utf8 {
                if byte == UInt8(ascii: "-") { bytes += [0xE2, 0x80, 0x91] } else { bytes.append(byte) }
            }
        }
        for (index, member) in members.enumerated() {
            if index > 0 { bytes += Array(", ".utf8) }
            add(member.name, &bytes)
            if let character = member.character {
                bytes += Array(" (".utf8)
                add(character, &bytes)
                bytes.append(UInt8(ascii: ")"))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// "320 pages" / "320쪽".
    public func pages(_ count: Int) -> String {
        Phrases.fill(phrases.pageCount, ["count": number(count)])
    }

    /// "8 seasons, 73 episodes" / "시즌 8개, 에피소드 73편"; either alone when the other is unknown.
    public func seasons(_ seasons: Int?, episodes: Int?) -> String? {
        let parts = [
            seasons.map { Phrases.fill($0 == 1 ? phrases.seasonCountOne : phrases.seasonCount, ["count": number($0)]) },
            episodes.map {
                Phrases.fill($0 == 1 ? phrases.episodeCountOne : phrases.episodeCount, ["count": number($0)])
            },
        ].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// Text cut at a word boundary to at most `limit` characters, with an ellipsis when cut.
    public func excerpt(_ text: String, limit: Int = 160) -> String {
        Self.asciiExcerpt(text, limit: limit) ?? Self.excerptByCharacters(text, limit: limit)
    }

    /// ``excerpt(_:limit:)`` of text that is ASCII as far as the excerpt reads, byte by byte
    /// (each byte a character, whitespace being space and tab to carriage return); nil when
    /// a byte of another character comes first.
    static func asciiExcerpt(_ text: String, limit: Int) -> String? {
        var collapsed: [UInt8] = []
        collapsed.reserveCapacity(Swift.min(text.utf8.count, limit + 1))
        var spaceBefore = false
        for byte in text.utf8 {
            if byte >= 0x80 { return nil }
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                spaceBefore = !collapsed.isEmpty
                continue
            }
            if spaceBefore {
                collapsed.append(0x20)
                spaceBefore = false
            }
            collapsed.append(byte)
            if collapsed.count > limit { break }
        }
        guard collapsed.count > limit else { return String(decoding: collapsed, as: UTF8.self) }
        let cut = collapsed.prefix(limit)
        let boundary = cut.lastIndex(of: 0x20) ?? cut.endIndex
        return String(decoding: cut[..<boundary], as: UTF8.self) + "…"
    }

    /// ``excerpt(_:limit:)`` read character by character, for text in any script.
    static func excerptByCharacters(_ text: String, limit: Int) -> String {
        // Whitespace runs become one space (none at either end), reading no further than
        // one character past the limit.
        var collapsed = ""
        var count = 0
        var spaceBefore = false
        for character in text {
            if character.isWhitespace {
                spaceBefore = count > 0
                continue
            }
            if spaceBefore {
                collapsed.append(" ")
                count += 1
                spaceBefore = false
            }
            collapsed.append(character)
            count += 1
            if count > limit { break }
        }
        guard count > limit else { return collapsed }
        let cut = collapsed.prefix(limit)
        let boundary = cut.lastIndex(of: " ") ?? cut.endIndex
        return String(cut[..<boundary]) + "…"
    }
}

private extension Formatter {
    /// A list in `order`, as titles say it: "by title".
    func by(_ order: SortOrder) -> String {
        switch order {
        case .date: phrases.byDate
        case .title: phrases.byTitle
        case .rating: phrases.byRating
        case .year: phrases.byYear
        }
    }

    func ratingNumber(_ rating: Rating) -> String {
        if let known = parts.ratings.withLock({ $0[rating.halves] }) { return known }
        let text =
            rating.halves % 2 == 0 ? String(rating.halves / 2) : (rating.value).formatted(.number.locale(locale))
        parts.ratings.withLock { $0[rating.halves] = text }
        return text
    }

    func format(_ day: Day, _ style: Date.FormatStyle) -> String {
        let date =
            calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))
            ?? Date(timeIntervalSince1970: 0)
        var style = style
        style.locale = locale
        style.calendar = calendar
        style.timeZone = calendar.timeZone
        return date.formatted(style)
    }
}
