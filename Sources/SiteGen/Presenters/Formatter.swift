import Foundation
import Synchronization

/// Turns values into the words and numbers pages show, in the site's language.
public struct Formatter: Sendable {
    public let language: SiteLanguage
    private let locale: Locale
    private let calendar: Calendar
    /// Each date, month and number formatted once: Foundation's format styles are far too
    /// slow to run for every page that shows a value.
    private let cache = Cache()

    private final class Cache: Sendable {
        let dates = Mutex<[Day: DateModel]>([:])
        let months = Mutex<[Int: String]>([:])
        let numbers = Mutex<[Int: String]>([:])
        let ratings = Mutex<[Int: String]>([:])
    }

    public init(language: SiteLanguage) {
        self.language = language
        self.locale = language.locale
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        self.calendar = calendar
    }

    /// "March 14, 2026" / "2026년 3월 14일", and the ISO form for `datetime=`.
    public func date(_ day: Day) -> DateModel {
        if let known = cache.dates.withLock({ $0[day] }) { return known }
        let model = DateModel(iso: day.description, display: format(day, Date.FormatStyle(date: .long, time: .omitted)))
        cache.dates.withLock { $0[day] = model }
        return model
    }

    /// "March 2026" / "2026년 3월".
    public func month(_ day: Day) -> String {
        let key = day.year * 100 + day.month
        if let known = cache.months.withLock({ $0[key] }) { return known }
        let text = format(day, Date.FormatStyle().year().month(.wide))
        cache.months.withLock { $0[key] = text }
        return text
    }

    /// A number with the language's digit grouping: "12,345".
    public func number(_ value: Int) -> String {
        if let known = cache.numbers.withLock({ $0[value] }) { return known }
        let text = value.formatted(.number.locale(locale))
        cache.numbers.withLock { $0[value] = text }
        return text
    }

    /// "12 reviews" / "리뷰 12편".
    public func reviewCount(_ count: Int) -> String {
        switch language {
        case .english: "\(number(count)) review\(count == 1 ? "" : "s")"
        case .korean: "리뷰 \(number(count))편"
        }
    }

    /// Stars (★★★★½), a label a screen reader can say, and the number.
    public func rating(_ rating: Rating) -> RatingModel {
        let value = ratingNumber(rating)
        let stars =
            rating.halves == 0
            ? "☆" : String(repeating: "★", count: rating.halves / 2) + (rating.halves % 2 == 1 ? "½" : "")
        let label =
            switch language {
            case .english: "\(value) out of 5 stars"
            case .korean: "별 5개 중 \(value)개"
            }
        return RatingModel(stars: stars, label: label, value: value)
    }

    /// A heading for reviews with this rating: "4.5 stars" / "별 4.5개".
    public func ratingHeading(_ rating: Rating) -> String {
        let value = ratingNumber(rating)
        return switch language {
        case .english: "\(value) star\(rating.halves == 2 ? "" : "s")"
        case .korean: "별 \(value)개"
        }
    }

    /// "2019" / "2019년".
    public func year(_ year: Int) -> String {
        language == .korean ? "\(year)년" : String(year)
    }

    /// "4 min read" / "4분 분량", at 200 words a minute.
    public func readingTime(words: Int) -> String {
        let minutes = max(1, Int((Double(words) / 200).rounded()))
        return language == .korean ? "\(minutes)분 분량" : "\(minutes) min read"
    }

    /// "Page 2 of 5" / "5쪽 중 2쪽".
    public func pageOf(_ page: Int, _ total: Int) -> String {
        language == .korean ? "\(total)쪽 중 \(page)쪽" : "Page \(page) of \(total)"
    }

    /// The label of a section ordering.
    public func sortLabel(_ order: SortOrder) -> String {
        switch (order, language) {
        case (.date, .english): "Newest"
        case (.title, .english): "Title"
        case (.rating, .english): "Rating"
        case (.year, .english): "Year"
        case (.date, .korean): "최신순"
        case (.title, .korean): "제목순"
        case (.rating, .korean): "평점순"
        case (.year, .korean): "연도순"
        }
    }

    /// The heading of a tag's page: "Reviews tagged “thriller”".
    public func taggedHeading(_ tag: String) -> String {
        language == .korean ? "“\(tag)” 태그가 붙은 리뷰" : "Reviews tagged “\(tag)”"
    }

    /// The heading of a genre's page: "Genre: Drama".
    public func genreHeading(_ genre: String) -> String {
        language == .korean ? "장르: \(genre)" : "Genre: \(genre)"
    }

    /// A list page's description: "Films: 12 reviews, newest first" / "영화: 리뷰 12편 (최신순)".
    public func listDescription(_ title: String, count: Int, order: SortOrder) -> String {
        switch language {
        case .english:
            let phrase = order == .date ? "newest first" : "by \(sortLabel(order).lowercased())"
            return "\(title): \(reviewCount(count)), \(phrase)"
        case .korean:
            return "\(title): \(reviewCount(count)) (\(sortLabel(order)))"
        }
    }

    /// A tag page's description: "3 reviews tagged “noir”" / "“누아르” 태그가 붙은 리뷰 3편".
    public func taggedDescription(_ tag: String, count: Int) -> String {
        language == .korean ? "“\(tag)” 태그가 붙은 \(reviewCount(count))" : "\(reviewCount(count)) tagged “\(tag)”"
    }

    /// "Films, by title" / "Films (제목순)".
    public func sortedTitle(_ title: String, _ order: SortOrder) -> String {
        language == .korean ? "\(title) (\(sortLabel(order)))" : "\(title), by \(sortLabel(order).lowercased())"
    }

    /// "120 min" → "2 h" / "2시간"; minutes as hours and minutes.
    public func runtime(minutes: Int) -> String {
        let (hours, rest) = (minutes / 60, minutes % 60)
        switch language {
        case .english:
            return hours == 0 ? "\(rest) min" : rest == 0 ? "\(hours) h" : "\(hours) h \(rest) min"
        case .korean:
            return hours == 0 ? "\(rest)분" : rest == 0 ? "\(hours)시간" : "\(hours)시간 \(rest)분"
        }
    }

    /// "Poster of Parasite" / "기생충 포스터"; "Cover of Stoner" / "스토너 표지".
    public func imageAlt(title: String, kind: WorkKind) -> String {
        switch (language, kind) {
        case (.english, .movie): "Poster of \(title)"
        case (.english, .book): "Cover of \(title)"
        case (.korean, .movie): "\(title) 포스터"
        case (.korean, .book): "\(title) 표지"
        }
    }

    /// "Song Kang-ho (Kim Ki-taek), Lee Sun-kyun (Park Dong-ik)"; nil for nobody.
    public func cast(_ members: [CastMember]) -> String? {
        guard !members.isEmpty else { return nil }
        // Non-breaking hyphens, so "Song Kang-ho (Kim Ki-taek)" never breaks at a hyphen.
        return members.map { member in
            let text = member.character.map { "\(member.name) (\($0))" } ?? member.name
            return text.replacingOccurrences(of: "-", with: "\u{2011}")
        }.joined(separator: ", ")
    }

    /// "320 pages" / "320쪽".
    public func pages(_ count: Int) -> String {
        language == .korean ? "\(number(count))쪽" : "\(number(count)) pages"
    }

    /// Text cut at a word boundary to at most `limit` characters, with an ellipsis when cut.
    public func excerpt(_ text: String, limit: Int = 160) -> String {
        let collapsed = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard collapsed.count > limit else { return collapsed }
        let cut = collapsed.prefix(limit)
        let boundary = cut.lastIndex(of: " ") ?? cut.endIndex
        return String(cut[..<boundary]) + "…"
    }
}

private extension Formatter {
    func ratingNumber(_ rating: Rating) -> String {
        if let known = cache.ratings.withLock({ $0[rating.halves] }) { return known }
        let text =
            rating.halves % 2 == 0 ? String(rating.halves / 2) : (rating.value).formatted(.number.locale(locale))
        cache.ratings.withLock { $0[rating.halves] = text }
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
