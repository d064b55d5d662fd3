import Foundation

/// The charts of a stats page, each with its table, from a ``StatsTally``.
struct StatsCharts {
    let tally: StatsTally
    let words: StatsWords
    let site: Presentation
    /// The year of a year's page; nil for all time.
    let year: Int?

    func all() -> [ChartModel] {
        var charts: [ChartModel] = []
        if year == nil {
            charts.append(perYear())
            charts.append(perMonthGrid())
        } else {
            charts.append(perMonth())
        }
        charts.append(ratings())
        charts.append(ranked("genres", words.topGenres, tally.genres, heading: words.genre))
        if !tally.directors.isEmpty {
            charts.append(ranked("directors", words.topDirectors, tally.directors, heading: words.director))
        }
        if !tally.authors.isEmpty {
            charts.append(ranked("authors", words.topAuthors, tally.authors, heading: words.author))
        }
        if !tally.creators.isEmpty {
            charts.append(ranked("creators", words.topCreators, tally.creators, heading: words.creator))
        }
        charts.append(decades())
        return charts
    }

    private var format: Formatter { site.context.format }
    private var language: String { site.context.config.language.rawValue }

    private func row(_ heading: String, _ values: String...) -> ChartRow {
        ChartRow(heading: heading, language: TextLanguage.of(heading, otherwise: language), values: values)
    }

    private func chart(_ id: String, _ title: String, svg: String, columns: [String], rows: [ChartRow]) -> ChartModel {
        ChartModel(
            id: id, title: title, svg: rows.isEmpty ? "" : svg, columns: columns, rows: rows,
            empty: rows.isEmpty ? words.nothing : nil)
    }

    func perYear() -> ChartModel {
        let years = tally.perYear.keys.sorted()
        let all = years.isEmpty ? [] : Array(years.first!...years.last!)
        let items = all.map {
            StatsChart.Item(
                label: String($0), value: Double(tally.perYear[$0] ?? 0), text: format.number(tally.perYear[$0] ?? 0))
        }
        return chart(
            "per-year", words.perYear, svg: StatsChart.columns(items), columns: [words.year, words.reviews],
            rows: all.map { row(String($0), format.number(tally.perYear[$0] ?? 0)) })
    }

    func perMonthGrid() -> ChartModel {
        let years = tally.perMonth.keys.sorted(by: >)
        let rows = years.map { (label: String($0), counts: tally.perMonth[$0]!) }
        return chart(
            "per-month", words.perMonth, svg: StatsChart.grid(rows, columns: words.shortMonths),
            columns: [words.year] + words.shortMonths,
            rows: years.map { year in
                ChartRow(heading: String(year), language: language, values: tally.perMonth[year]!.map(format.number))
            })
    }

    func perMonth() -> ChartModel {
        let counts = tally.perMonth[year ?? 0] ?? [Int](repeating: 0, count: 12)
        let items = counts.enumerated().map {
            StatsChart.Item(
                label: words.shortMonths[$0.offset], value: Double($0.element), text: format.number($0.element))
        }
        return chart(
            "per-month", words.perMonth, svg: StatsChart.columns(items), columns: [words.month, words.reviews],
            rows: counts.enumerated().map { row(words.months[$0.offset], format.number($0.element)) })
    }

    func ratings() -> ChartModel {
        let halves = (tally.ratings[0] > 0 ? 0 : 1)...10
        let label = { (half: Int) in format.rating(Rating(halves: half)!).value }
        let items = halves.map {
            StatsChart.Item(label: label($0), value: Double(tally.ratings[$0]), text: format.number(tally.ratings[$0]))
        }
        var rows = halves.reversed().map {
            row(format.ratingHeading(Rating(halves: $0)!), format.number(tally.ratings[$0]))
        }
        if tally.unrated > 0 { rows.append(row(site.context.labels.notRated, format.number(tally.unrated))) }
        return chart(
            "ratings", words.ratings, svg: StatsChart.columns(items), columns: [words.rating, words.reviews],
            rows: tally.rated == 0 ? [] : rows)
    }

    func ranked(_ id: String, _ title: String, _ counts: [String: Int], heading: String) -> ChartModel {
        let top = Self.top(StatsPresenter.topCount, of: counts, collation: site.context.collation)
        let items = top.map { StatsChart.Item(label: $0.key, value: Double($0.value), text: format.number($0.value)) }
        return chart(
            id, title, svg: StatsChart.bars(items), columns: [heading, words.reviews],
            rows: top.map { row($0.key, format.number($0.value)) })
    }

    /// The `limit` names with the highest counts, ties in collation order (then by code point,
    /// so the order never depends on the dictionary's). Counts are compared first and only the
    /// names tied at the cut are collated, in one pass keeping the first few: a site has
    /// thousands of directors, and collating is slow.
    static func top(_ limit: Int, of counts: [String: Int], collation: Collation) -> [(key: String, value: Int)] {
        let byCount = counts.sorted { $0.value > $1.value }
        guard limit > 0, !byCount.isEmpty else { return [] }
        let cut = byCount[min(limit, byCount.count) - 1].value
        let before = { (lhs: String, rhs: String) -> Bool in
            switch collation.ordered(lhs, rhs) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: lhs < rhs
            }
        }
        let above = byCount.prefix { $0.value > cut }.sorted { lhs, rhs in
            lhs.value != rhs.value ? lhs.value > rhs.value : before(lhs.key, rhs.key)
        }
        let room = limit - above.count
        var first: [String] = []
        for (name, _) in byCount.dropFirst(above.count).prefix(while: { $0.value == cut })
        where first.count < room || before(name, first[room - 1]) {
            first.insert(name, at: first.partitioningIndex { before(name, $0) })
            if first.count > room { first.removeLast() }
        }
        return above + first.map { (key: $0, value: cut) }
    }

    func decades() -> ChartModel {
        let decades = tally.decades.keys.sorted().filter { tally.decades[$0]!.rated > 0 }
        let average = { (decade: Int) -> (Double, String) in
            let entry = tally.decades[decade]!
            return (Double(entry.halves) / 2 / Double(entry.rated), StatsPresenter.average(entry.halves, entry.rated))
        }
        // In the site's words for a decade (`decadeHeading`, `decadeBCE`), as the lists by year.
        let name = { (key: Int) in
            let (start, isBCE) = StatsTally.decadeStart(key)
            return format.decade(startingAt: start, isBCE: isBCE)
        }
        let items = decades.map { StatsChart.Item(label: name($0), value: average($0).0, text: average($0).1) }
        return chart(
            "decades", words.byDecade, svg: StatsChart.columns(items),
            columns: [words.decadeHeading, words.averageRating, words.reviews],
            rows: decades.map { row(name($0), average($0).1, format.number(tally.decades[$0]!.rated)) })
    }
}

/// The stats pages' words, in the site's language.
struct StatsWords {
    let heading: String
    let yearHeading: (String) -> String
    let since: (String, String) -> String
    let reviews, films, books, series, averageRating, years, allTime, yearsLabel, topRated: String
    let perYear, perMonth, ratings, topGenres, topDirectors, topAuthors, topCreators, byDecade, nothing: String
    let year, month, rating, genre, director, author, creator, decadeHeading: String
    let months: [String]
    let shortMonths: [String]

    static func `for`(_ language: SiteLanguage) -> StatsWords {
        // English, also for the languages without words of their own here; Korean.
        switch language.usesKoreanWords {
        case false:
            StatsWords(
                heading: "Stats", yearHeading: { "\($0) in review" }, since: { "\($0) since \($1)" },
                reviews: "Reviews", films: "Films", books: "Books", series: "Series", averageRating: "Average rating",
                years: "Years",
                allTime: "All time", yearsLabel: "Year", topRated: "Best rated this year",
                perYear: "Reviews per year", perMonth: "Reviews per month", ratings: "Ratings, in half stars",
                topGenres: "Top genres", topDirectors: "Top directors", topAuthors: "Top authors",
                topCreators: "Top series creators",
                byDecade: "Average rating by decade of release", nothing: "Nothing to count yet.", year: "Year",
                month: "Month", rating: "Rating", genre: "Genre", director: "Director", author: "Author",
                creator: "Creator",
                decadeHeading: "Decade",
                months: [
                    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                    "November", "December",
                ],
                shortMonths: ["J", "F", "M", "A", "M", "J", "J", "A", "S", "O", "N", "D"])
        case true:
            StatsWords(
                heading: "통계", yearHeading: { "\($0) 결산" }, since: { "\($1)부터 \($0)" },
                reviews: "리뷰", films: "영화", books: "책", series: "시리즈", averageRating: "평균 평점", years: "햇수",
                allTime: "전체", yearsLabel: "연도", topRated: "올해 가장 높은 평점",
                perYear: "연도별 리뷰 수", perMonth: "월별 리뷰 수", ratings: "평점 분포 (반 별 단위)",
                topGenres: "많이 본 장르", topDirectors: "많이 본 감독", topAuthors: "많이 읽은 작가",
                topCreators: "많이 본 시리즈 제작자",
                byDecade: "개봉·출간 연대별 평균 평점", nothing: "아직 셀 것이 없습니다.", year: "연도",
                month: "월", rating: "평점", genre: "장르", director: "감독", author: "작가", creator: "제작자",
                decadeHeading: "연대",
                months: (1...12).map { "\($0)월" }, shortMonths: (1...12).map { String($0) })
        }
    }
}
