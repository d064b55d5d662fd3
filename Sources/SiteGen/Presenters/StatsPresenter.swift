import Foundation

/// `/stats/` (every review) and a page per year of reviewing (`/stats/2024/`): reviews per
/// year and month, ratings in half stars, top genres, directors and authors, and the average
/// rating by decade of release. The all-time page reads every review once; a year's page only
/// that year's, found by binary search in the list by date.
struct StatsPresenter: PagePresenter {
    static let topCount = 10

    func owns(_ key: PageKey) -> Bool {
        if case .stats = key { return true }
        return false
    }

    func keys(_ site: Presentation) -> [PageKey] {
        [.stats(nil)] + site.index.writingYears.map { .stats($0) }
    }

    func output(_ key: PageKey, _ site: Presentation) -> String {
        guard case .stats(let year) = key else { return "" }
        return Self.path(year) + "index.html"
    }

    static func path(_ year: Int?) -> String {
        year.map { "stats/\($0)/" } ?? "stats/"
    }

    func job(_ key: PageKey, _ site: Presentation) -> PageJob {
        guard case .stats(let year) = key else { preconditionFailure("not a stats page: \(key)") }
        let context = site.context
        let words = StatsWords.for(context.config.language)
        let ids = year.map { reviews(in: $0, site) } ?? site.index.list(ListKey(.all, .date))[...]
        let tally = StatsTally(ids, site)
        let format = context.format
        let heading = year.map { words.yearHeading(format.year($0)) } ?? words.heading
        let lede: String
        if let year {
            lede = "\(format.year(year)): \(format.reviewCount(tally.count))"
        } else {
            lede =
                tally.count == 0
                ? format.reviewCount(0) : words.since(format.reviewCount(tally.count), format.year(tally.firstYear))
        }
        var figures = [
            StatFigure(label: words.reviews, value: format.number(tally.count)),
            StatFigure(label: words.films, value: format.number(tally.films)),
            StatFigure(label: words.books, value: format.number(tally.books)),
        ]
        // Series only on sites that review them (a tv section), not a 0 on every other site.
        if context.sections.contains(where: { $0.kind == .tv }) {
            figures.append(StatFigure(label: words.series, value: format.number(tally.series)))
        }
        figures += [
            StatFigure(
                label: words.averageRating,
                value: tally.rated == 0 ? "–" : Self.average(tally.ratingHalves, tally.rated))
        ]
        if year == nil { figures.append(StatFigure(label: words.years, value: format.number(tally.perYear.count))) }
        let charts = StatsCharts(tally: tally, words: words, site: site, year: year).all()
        let allYears = site.index.writingYears
        let links =
            [SortLink(label: words.allTime, url: context.urls.path(Self.path(nil)), current: year == nil)]
            + allYears.map { SortLink(label: String($0), url: context.urls.path(Self.path($0)), current: $0 == year) }
        let top = year == nil ? [] : topRated(ids, site)
        let model = StatsPageModel(
            site: context.sharedSite(at: .other), labels: context.sharedLabels,
            page: context.head(title: heading, description: lede, path: Self.path(year), kind: "stats"),
            heading: heading, lede: lede, figures: figures, charts: charts, topRated: top,
            topRatedHeading: words.topRated, years: links, yearsLabel: words.yearsLabel)
        return PageJob.folder(Self.path(year), template: "stats", model: model)
    }

    /// The all-time page and the pages of the years the changed reviews were written in, before
    /// and after; every page when a year came or went (each links to every year) or a
    /// genre's name changed (the pages count genres by name; tags they do not show).
    func affected(by change: IndexChange, _ site: Presentation) -> [PageKey] {
        let genreRenamed = change.namesChanged.contains { if case .genre = $0 { true } else { false } }
        if change.writingYearsChanged || genreRenamed { return keys(site) }
        guard !change.changed.isEmpty else { return [] }
        let years = Set(site.index.writingYears)
        return [.stats(nil)] + change.years.filter(years.contains).sorted().map { .stats($0) }
    }

    /// The reviews written in `year`: a run of the list by date, newest first.
    func reviews(in year: Int, _ site: Presentation) -> ArraySlice<Int> {
        let members = site.index.list(ListKey(.all, .date))
        let first = { (after: Int) -> Int in members.partitioningIndex { site.index[key: $0].day.year <= after } }
        return members[first(year)..<first(year - 1)]
    }

    /// The year's best-rated reviews, newest first among equals.
    func topRated(_ ids: ArraySlice<Int>, _ site: Presentation) -> [ReviewCard] {
        let rated = ids.filter { site.index[key: $0].ratingHalves > 0 }
        let best = rated.enumerated().sorted { lhs, rhs in
            let left = site.index[key: lhs.element].ratingHalves
            let right = site.index[key: rhs.element].ratingHalves
            return left != right ? left > right : lhs.offset < rhs.offset
        }
        return best.prefix(6).map { site.index.card($0.element) }
    }

    static func average(_ halves: Int, _ count: Int) -> String {
        String(format: "%.1f", Double(halves) / 2 / Double(count))
    }
}

/// The numbers of a stats page, counted in one pass over its reviews.
struct StatsTally {
    var count = 0
    var films = 0
    var books = 0
    var series = 0
    var rated = 0
    var ratingHalves = 0
    var unrated = 0
    var firstYear = 0
    /// Reviews per year of writing, and per month (a year's twelve counts).
    var perYear: [Int: Int] = [:]
    var perMonth: [Int: [Int]] = [:]
    /// Reviews per rating, in halves (0 to 10).
    var ratings = [Int](repeating: 0, count: 11)
    var genres: [String: Int] = [:]
    var directors: [String: Int] = [:]
    var authors: [String: Int] = [:]
    /// A series' creators.
    var creators: [String: Int] = [:]
    /// Per decade of release (``decade(of:)``): the rated reviews, their halves, and every review.
    var decades: [Int: (rated: Int, halves: Int, count: Int)] = [:]

    /// The key of `year`'s decade, in time order: 1990 for 1990 to 1999, 0 for 1 to 9; before
    /// the common era, decades count back from 1 BCE as years do (-1 for 1 to 9 BCE, -11 for
    /// 10 to 19 BCE, -751 for 750 to 759 BCE), so that 5 BCE and 5 CE are not one decade.
    static func decade(of year: Int) -> Int {
        // Years are within ±9999 (front matter and the metadata cache check): -year cannot overflow.
        year >= 0 ? year / 10 * 10 : -((-year) / 10 * 10) - 1
    }

    /// The years a decade key counts from (its start), and whether they are BCE.
    static func decadeStart(_ key: Int) -> (year: Int, isBCE: Bool) {
        key >= 0 ? (key, false) : (-(key + 1), true)
    }

    init(_ ids: some Collection<Int>, _ site: Presentation) {
        let index = site.index
        // Fields are read in place (index[key:], index[review:]): copying a whole review and
        // key for each of 10,000 reviews was most of the tally's time.
        var genreNames: [String: String] = [:]
        for id in ids {
            let day = index[key: id].day
            let halves = index[key: id].ratingHalves
            let kind = index[review: id].work.kind
            count += 1
            switch kind {
            case .movie: films += 1
            case .book: books += 1
            case .tv: series += 1
            }
            perYear[day.year, default: 0] += 1
            perMonth[day.year, default: [Int](repeating: 0, count: 12)][day.month - 1] += 1
            firstYear = firstYear == 0 ? day.year : min(firstYear, day.year)
            // By decade of release: a review whose work has no year (none written, none fetched)
            // is in none (the day it was written is no release's).
            let decade = index[review: id].year.map(Self.decade(of:))
            if let decade { decades[decade, default: (0, 0, 0)].count += 1 }
            if halves >= 0 {
                rated += 1
                ratingHalves += halves
                ratings[min(10, halves)] += 1
                if let decade {
                    decades[decade]!.rated += 1
                    decades[decade]!.halves += halves
                }
            } else {
                unrated += 1
            }
            for genre in index[key: id].genres {
                var name = genreNames[genre.slug]
                if name == nil, let known = index.names[.genre(genre.slug)] {
                    genreNames[genre.slug] = known
                    name = known
                }
                genres[name ?? genre.name, default: 0] += 1
            }
            let metadata = index[review: id].metadata
            let names = index[review: id].work.creator.map { [$0] }
            switch kind {
            case .movie: for name in names ?? metadata?.directors ?? [] { directors[name, default: 0] += 1 }
            case .book: for name in names ?? metadata?.authors ?? [] { authors[name, default: 0] += 1 }
            case .tv: for name in names ?? metadata?.series?.creators ?? [] { creators[name, default: 0] += 1 }
            }
        }
    }
}
