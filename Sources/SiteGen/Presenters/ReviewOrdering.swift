import Foundation

/// The orders and groupings of reviews, computed once per build.
///
/// Titles are compared with the site's collation once, into a rank; every ordering then
/// breaks its ties by that rank (title, then slug), so output never depends on file order.
public struct ReviewOrdering: Sendable {
    /// For each review index, its place in title order.
    let titleRank: [Int]
    /// Per review index: date as a sortable number, rating in halves (-1 unrated), release year.
    let dayKeys: [Int]
    let ratingKeys: [Int]
    let years: [Int]
    /// Per review index: the id of the group it falls in, for each order (see ``groups``).
    let groupKeys: [SortOrder: [String]]
    /// Per review index: the slugs of its tags and of its genres, once each.
    let tagSlugs: [[String]]
    let genreSlugs: [[String]]
    /// Per review index: the older and the newer review of its section.
    let neighbours: [(previous: Int?, next: Int?)]
    /// Review indices by tag slug, newest first.
    let newestByTag: [String: [Int]]

    public init(reviews: [Review], collation: Collation) {
        let before = { @Sendable (lhs: Int, rhs: Int) -> Bool in
            switch collation.ordered(reviews[lhs].title, reviews[rhs].title) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame:
                return (reviews[lhs].slug, reviews[lhs].section) < (reviews[rhs].slug, reviews[rhs].section)
            }
        }
        let byTitle = Array(reviews.indices).parallelSorted(by: before)
        var rank = [Int](repeating: 0, count: reviews.count)
        for (position, index) in byTitle.enumerated() { rank[index] = position }
        titleRank = rank
        dayKeys = reviews.map { $0.date.year * 10_000 + $0.date.month * 100 + $0.date.day }
        ratingKeys = reviews.map { $0.rating?.halves ?? -1 }
        years = reviews.map { $0.year ?? $0.date.year }
        let ratings = ratingKeys
        let releaseYears = years
        groupKeys = [
            .date: reviews.map { String(format: "month-%04d-%02d", $0.date.year, $0.date.month) },
            .title: reviews.parallelMap { "initial-" + collation.initial(of: $0.title) },
            .rating: ratings.map { $0 < 0 ? "unrated" : "rating-\($0)" },
            .year: releaseYears.map { "year-\($0)" },
        ]
        tagSlugs = reviews.map { Self.uniqueSlugs($0.tags) }
        genreSlugs = reviews.map { Self.uniqueSlugs($0.genres) }
        let days = dayKeys
        let ranks = titleRank
        let newestFirst = reviews.indices.sorted { days[$0] != days[$1] ? days[$0] > days[$1] : ranks[$0] < ranks[$1] }
        var around = [(previous: Int?, next: Int?)](repeating: (nil, nil), count: reviews.count)
        var lastInSection: [String: Int] = [:]
        var byTag: [String: [Int]] = [:]
        for index in newestFirst {
            if let newer = lastInSection[reviews[index].section] {
                around[index].next = newer
                around[newer].previous = index
            }
            lastInSection[reviews[index].section] = index
            for tag in tagSlugs[index] { byTag[tag, default: []].append(index) }
        }
        neighbours = around
        newestByTag = byTag
    }

    /// The release or publication year: front matter, else the review's own year.
    public func year(of index: Int) -> Int {
        years[index]
    }

    /// The distinct, non-empty slugs of `names`, in order.
    static func uniqueSlugs(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.map(\.slug).filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// `indices` in `order`.
    public func sorted(_ indices: [Int], by order: SortOrder) -> [Int] {
        let keys: [Int]? =
            switch order {
            case .date: dayKeys
            case .title: nil
            case .rating: ratingKeys
            case .year: years
            }
        return indices.sorted { lhs, rhs in
            if let keys, keys[lhs] != keys[rhs] { return keys[lhs] > keys[rhs] }
            return titleRank[lhs] < titleRank[rhs]
        }
    }
}

extension SiteContext {
    /// Sorted reviews in groups with headings: months, initials, ratings or years.
    func groups(_ sorted: [Int], by order: SortOrder, ordering: ReviewOrdering) -> [ReviewGroup] {
        var groups: [(key: String, heading: String, members: [Int])] = []
        var positions: [String: Int] = [:]
        for index in sorted {
            let key = ordering.groupKeys[order]![index]
            if let position = positions[key] {
                groups[position].members.append(index)
            } else {
                positions[key] = groups.count
                groups.append((key, groupHeading(of: index, by: order, ordering: ordering), [index]))
            }
        }
        return groups.map { group in
            ReviewGroup(heading: group.heading, id: group.key, reviews: group.members.map { cards[$0] })
        }
    }

    /// The heading over a group, made once per group.
    private func groupHeading(of index: Int, by order: SortOrder, ordering: ReviewOrdering) -> String {
        let review = content.reviews[index]
        switch order {
        case .date: return format.month(review.date)
        case .title: return collation.initial(of: review.title)
        case .rating: return review.rating.map(format.ratingHeading) ?? labels.notRated
        case .year: return format.year(ordering.year(of: index))
        }
    }
}
