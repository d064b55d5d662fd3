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

    public init(reviews: [Review], collation: Collation) {
        let byTitle = reviews.indices.sorted { lhs, rhs in
            switch collation.ordered(reviews[lhs].title, reviews[rhs].title) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame:
                return (reviews[lhs].slug, reviews[lhs].section) < (reviews[rhs].slug, reviews[rhs].section)
            }
        }
        var rank = [Int](repeating: 0, count: reviews.count)
        for (position, index) in byTitle.enumerated() { rank[index] = position }
        titleRank = rank
        dayKeys = reviews.map { $0.date.year * 10_000 + $0.date.month * 100 + $0.date.day }
        ratingKeys = reviews.map { $0.rating?.halves ?? -1 }
        years = reviews.map { $0.work.year ?? $0.date.year }
    }

    /// The release or publication year: front matter, else the review's own year.
    public func year(of index: Int) -> Int {
        years[index]
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
            let review = content.reviews[index]
            let (key, heading): (String, String) =
                switch order {
                case .date:
                    (String(format: "month-%04d-%02d", review.date.year, review.date.month), format.month(review.date))
                case .title:
                    {
                        let letter = collation.initial(of: review.title)
                        return ("initial-\(letter)", letter)
                    }()
                case .rating:
                    review.rating.map { ("rating-\($0.halves)", format.ratingHeading($0)) } ?? (
                        "unrated", labels.notRated
                    )
                case .year:
                    {
                        let year = ordering.year(of: index)
                        return ("year-\(year)", format.year(year))
                    }()
                }
            if let position = positions[key] {
                groups[position].members.append(index)
            } else {
                positions[key] = groups.count
                groups.append((key, heading, [index]))
            }
        }
        return groups.map { group in
            ReviewGroup(heading: group.heading, id: group.key, reviews: group.members.map { cards[$0] })
        }
    }
}
