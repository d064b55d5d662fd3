/// Where a list of reviews comes from: the whole site, one section, one tag or one genre.
public enum ListScope: Hashable, Sendable {
    case all
    case section(String)
    case tag(String)
    case genre(String)
}

/// One sorted list of reviews: a scope in an order.
public struct ListKey: Hashable, Sendable {
    public let scope: ListScope
    public let order: SortOrder

    public init(_ scope: ListScope, _ order: SortOrder) {
        self.scope = scope
        self.order = order
    }
}

/// A tag or genre as a review names it: its slug and the name written.
struct TaxonomyName: Sendable, Equatable {
    let slug: String
    let name: String
}

/// Everything that places a review in the site's lists and groups. Keys are compared whole
/// (the comparison is synthesized), so a change to any part of one moves the review.
struct ReviewKey: Sendable, Equatable {
    let section: String
    let slug: String
    let title: String
    /// The group of the title index it falls in: "A", "ㄱ", "0–9".
    let initial: String
    let day: Day
    /// When the review last changed (`updated`, else its day): the sitemap's date for its page.
    let modified: Day
    /// The rating in halves; -1 when unrated.
    let ratingHalves: Int
    /// The release or publication year, else the review's own year.
    let year: Int
    let tags: [TaxonomyName]
    let genres: [TaxonomyName]
    /// ``group(_:)`` in each order, made once (each is short enough to be stored inline).
    private let dateGroup: String
    private let titleGroup: String
    private let ratingGroup: String
    private let yearGroup: String

    init(_ review: Review, collation: Collation) {
        section = review.section
        slug = review.slug
        title = review.title
        initial = collation.initial(of: review.title)
        day = review.date
        modified = review.updated ?? review.date
        ratingHalves = review.rating?.halves ?? -1
        year = review.year ?? review.date.year
        tags = Self.names(review.tags)
        genres = Self.names(review.genres)
        dateGroup = "month-\(day.year)-\(day.month < 10 ? "0" : "")\(day.month)"
        titleGroup = "initial-\(initial)"
        ratingGroup = ratingHalves < 0 ? "unrated" : "rating-\(ratingHalves)"
        yearGroup = "year-\(year)"
    }

    /// The value an order sorts by, highest first; ties go by title.
    func primary(_ order: SortOrder) -> Int {
        switch order {
        case .date: day.year * 10_000 + day.month * 100 + day.day
        case .title: 0
        case .rating: ratingHalves
        case .year: year
        }
    }

    /// The id of the group the review falls in, in an order: a month, an initial, a rating, a year.
    func group(_ order: SortOrder) -> String {
        switch order {
        case .date: dateGroup
        case .title: titleGroup
        case .rating: ratingGroup
        case .year: yearGroup
        }
    }

    /// What of a key decides which pages the site has and the day the sitemap gives the
    /// review's page: its address, its days and the lists it is in (not its place in them).
    struct Place: Equatable {
        let section: String
        let slug: String
        let day: Day
        let modified: Day
        let lists: [ListKey]
    }

    var place: Place { Place(section: section, slug: slug, day: day, modified: modified, lists: lists) }

    /// Every list the review is in.
    var lists: [ListKey] {
        var keys = [ListKey(.all, .date)]
        keys += SortOrder.allCases.map { ListKey(.section(section), $0) }
        keys += tags.map { ListKey(.tag($0.slug), .date) }
        keys += genres.map { ListKey(.genre($0.slug), .date) }
        return keys
    }

    /// The distinct, non-empty slugs of `names`, each with the first name written for it.
    static func names(_ names: [String]) -> [TaxonomyName] {
        var seen: Set<String> = []
        return names.compactMap { name in
            let slug = name.slug
            guard !slug.isEmpty, seen.insert(slug).inserted else { return nil }
            return TaxonomyName(slug: slug, name: name)
        }
    }
}
