/// The reviews as the presenters see them: each review's card and sort key, every sorted
/// list (per section and order, per tag, per genre, the whole site), the neighbours and
/// related reviews of each. A build makes it once; `sitegen serve` updates it in place
/// when reviews change (``update(_:context:)``), inserting and removing the changed reviews
/// instead of sorting again.
///
/// Reviews are numbered by id: their place in the loaded content, and for reviews added
/// while serving, the next free number (an id is never reused, a removed review leaves nil).
/// Its properties change only through ``update(_:context:)`` (in its own file, so they are
/// not `private(set)`).
struct SiteIndex: Sendable {
    var reviews: [Review?]
    var keys: [ReviewKey?]
    var cards: [ReviewCard?]
    /// Ids by source path (`content/movies/parasite.md`).
    var ids: [String: Int]
    /// Every review in title order (collation, then slug, then section), and each id's place in it.
    var byTitle: [Int]
    var titleRank: [Int]
    /// Each list, sorted: highest primary key first, then title order.
    var lists: [ListKey: [Int]]
    /// Where each group of each list starts (positions; see ``ReviewKey/group(_:)``).
    var groupStarts: [ListKey: [Int]] = [:]
    /// The older and the newer review of the same section.
    var older: [Int?]
    var newer: [Int?]
    /// Each review's related reviews (sharing the most tags, then nearest in date).
    var related: [[Int]]
    /// For each review, the reviews that list it as related (kept only when serving).
    var relatedBy: [Int: Set<Int>] = [:]
    /// The name shown for each tag and genre (see ``displayName(_:)``).
    var names: [ListScope: String] = [:]
    /// Which names are written for each tag and genre, and how often.
    var nameCounts: [ListScope: [String: Int]] = [:]
    /// The search index (``SearchPresenter`` writes it), by rank in the list by date.
    var search = SearchIndex.empty
    let tracksDependents: Bool

    /// How many related reviews a page lists.
    static let relatedLimit = 4
    /// How many reviews on each side of a review in each of its tags' lists by date are
    /// considered for its related reviews.
    let relatedWindow: Int
    static let defaultRelatedWindow = 50

    /// The index of `reviews` (ids are their positions); `tracksDependents` keeps what
    /// incremental updates need.
    init(
        reviews: [Review], context: SiteContext, tracksDependents: Bool = false, previous: SiteIndex? = nil,
        relatedWindow: Int = SiteIndex.defaultRelatedWindow
    ) {
        self.tracksDependents = tracksDependents
        self.relatedWindow = relatedWindow
        let collation = context.collation
        let keys: [ReviewKey?] = reviews.parallelMap { ReviewKey($0, collation: collation) }
        self.reviews = reviews
        self.keys = keys
        let cardSettings = context.cardSettings
        self.cards = reviews.parallelMap { Optional(Self.card(for: $0, settings: cardSettings)) }
        ids = Dictionary(reviews.enumerated().map { ($1.source, $0) }, uniquingKeysWith: { first, _ in first })
        // What the title order reads, made once: comparing keys would copy (and retain) every
        // field, and convert both titles for the collation on every comparison.
        let places = keys.parallelMap { TitlePlace($0!, collation) }
        byTitle = Array(reviews.indices).parallelSorted { Self.titleOrder(places[$0], places[$1], collation) }
        titleRank = [Int](repeating: 0, count: reviews.count)
        for (rank, id) in byTitle.enumerated() { titleRank[id] = rank }
        // Each list's members in id order, and the ways tags and genres are written, gathered
        // on every core over runs of ids and then joined (at 100,000 reviews, one core took a
        // fifth of a second over them while the other waited).
        let gathered = keys.indices.cut(into: ProcessInfoCores.count).parallelMap { ids in
            var members: [ListKey: [Int]] = [:]
            var counts: [ListScope: [String: Int]] = [:]
            for id in ids {
                let key = keys[id]!
                for list in key.lists { members[list, default: []].append(id) }
                Self.count(key, by: 1, into: &counts)
            }
            return (members: members, counts: counts)
        }
        var members: [ListKey: [Int]] = [:]
        for part in gathered {
            members.merge(part.members) { $0 + $1 }
            for (scope, names) in part.counts {
                for (name, count) in names { nameCounts[scope, default: [:]][name, default: 0] += count }
            }
        }
        let ranks = titleRank
        // Every review's value in each order, read once: a comparison reads two numbers
        // instead of copying two keys (which two cores sorting at once would both retain).
        let primaries = Dictionary(
            uniqueKeysWithValues: SortOrder.allCases.map { order in (order, keys.map { $0?.primary(order) ?? 0 }) })
        // The longest lists first, so that no long sort is left to run alone at the end.
        let sorted = members.sorted { $0.value.count > $1.value.count }.parallelMap { entry in
            let primary = primaries[entry.key.order]!
            return (entry.key, entry.value.sorted { Self.precedes($0, $1, primary, ranks) })
        }
        lists = Dictionary(uniqueKeysWithValues: sorted)
        groupStarts = Dictionary(
            uniqueKeysWithValues: sorted.parallelMap { ($0.0, Self.groupStarts(of: $0.1, $0.0.order, keys)) })
        older = [Int?](repeating: nil, count: reviews.count)
        newer = [Int?](repeating: nil, count: reviews.count)
        related = []
        for section in context.sections { _ = linkNeighbours(in: section.name) }
        let index = self
        let dates = dateOrder
        related = Array(reviews.indices).parallelMap { index.relatedReviews(of: $0, dates: dates) }
        for scope in nameCounts.keys { names[scope] = Self.displayName(nameCounts[scope]!) }
        if tracksDependents {
            for (id, list) in related.enumerated() { for other in list { relatedBy[other, default: []].insert(id) } }
        }
        // The search index reads only the reviews and their order by date: the same ones
        // (by id) in the same order make the same index.
        if let previous, previous.tracksDependents == tracksDependents, previous.reviews == self.reviews,
            previous.list(ListKey(.all, .date)) == list(ListKey(.all, .date))
        {
            search = previous.search
        } else {
            search = SearchIndex(self, keepsTerms: tracksDependents)
        }
    }

    /// What the shared parts of every page depend on: whether any review has tags or
    /// genres, and the newest review's year.
    var facts: SiteContext.Facts {
        SiteContext.Facts(
            hasTags: lists.keys.contains { if case .tag = $0.scope { true } else { false } },
            hasGenres: lists.keys.contains { if case .genre = $0.scope { true } else { false } },
            newestYear: list(ListKey(.all, .date)).first.map { self[key: $0].day.year })
    }

    /// The ids of the reviews the index holds now.
    var liveIDs: [Int] { lists[ListKey(.all, .date)] ?? [] }

    /// The list for `key` (empty when no review is in it).
    func list(_ key: ListKey) -> [Int] {
        lists[key] ?? []
    }

    /// The review with id `id`, which must be present, lent in place: `index[review: id].title`
    /// reads a field without copying the whole review.
    subscript(review id: Int) -> Review {
        _read { yield reviews[id]! }
    }
    /// The key of review `id`, lent in place as ``subscript(review:)`` lends the review (a key
    /// holds several strings and arrays, each retained by a copy).
    subscript(key id: Int) -> ReviewKey {
        _read { yield keys[id]! }
    }
    func card(_ id: Int) -> ReviewCard { cards[id]! }

    /// The slugs of the tags (or genres) any review has, in no particular order.
    func scopes(_ taxonomy: Taxonomy) -> [String] {
        lists.keys.compactMap { key in
            switch (key.scope, taxonomy) {
            case (.tag(let slug), .tags), (.genre(let slug), .genres): slug
            default: nil
            }
        }
    }

    /// A review's card.
    static func card(for review: Review, settings: CardSettings) -> ReviewCard {
        let format = settings.format
        let urls = settings.urls
        let site = format.language.rawValue
        let language = review.language ?? site
        return ReviewCard(
            .init(
                title: review.title, url: urls.path(review.path), date: format.date(review.date),
                rating: review.rating.map(format.rating),
                summary: review.summary ?? format.excerpt(review.body.firstParagraph),
                image: image(for: review, format: format, urls: urls), year: review.year.map(format.workYear) ?? "",
                creator: review.creator ?? "",
                sectionTitle: settings.sectionTitles[review.section] ?? review.section,
                kind: review.work.kind.rawValue, language: language,
                titleLanguage: TextLanguage.of(review.title, otherwise: language),
                creatorLanguage: TextLanguage.of(review.creator ?? "", otherwise: site)))
    }

    /// The poster or cover: the review's own image (see ``ReviewImage/model(urls:alt:)``),
    /// else the fetched one, the smallest cached size as `src` and every size in `srcset`, but
    /// one as wide as a size before it (TMDB's w780 of a narrow poster is that poster: HTML
    /// allows one candidate per width).
    static func image(for review: Review, format: Formatter, urls: URLs) -> ImageModel? {
        let alt = format.imageAlt(title: review.title, kind: review.work.kind)
        if let own = review.image { return own.model(urls: urls, alt: alt) }
        guard let images = review.metadata?.images, let first = images.first else { return nil }
        let url = { (image: CachedImage) in urls.path(MetadataEnricher.publishedPath(of: image)) }
        var widths: Set<Int> = []
        let sizes = images.filter { widths.insert($0.width).inserted }
        return ImageModel(
            url: url(first),
            srcset: sizes.count > 1 ? sizes.map { "\(url($0)) \($0.width)w" }.joined(separator: ", ") : "",
            webpSrcset: "", alt: alt, width: first.width, height: first.height)
    }
}

extension SiteIndex {
    /// Title order: the site's collation (numbers as numbers) from the title's first letter or
    /// digit (``Collation/sortingText(of:)``), then slug, then section.
    static func titleOrder(_ lhs: ReviewKey, _ rhs: ReviewKey, _ collation: Collation) -> Bool {
        titleOrder(TitlePlace(lhs, collation), TitlePlace(rhs, collation), collation)
    }

    /// What the title order reads of a review: its title (ready for the collation), then its
    /// address for equal titles.
    struct TitlePlace: Sendable {
        let title: Collation.Key
        let slug: String
        let section: String

        init(_ key: ReviewKey, _ collation: Collation) {
            (title, slug, section) = (collation.titleKey(key.title), key.slug, key.section)
        }
    }

    static func titleOrder(_ lhs: TitlePlace, _ rhs: TitlePlace, _ collation: Collation) -> Bool {
        switch collation.ordered(lhs.title, rhs.title) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: return (lhs.slug, lhs.section) < (rhs.slug, rhs.section)
        }
    }

    /// Whether `lhs` comes before `rhs` in a list of `order`.
    static func precedes(_ lhs: Int, _ rhs: Int, _ order: SortOrder, _ keys: [ReviewKey?], _ ranks: [Int]) -> Bool {
        precedes((keys[lhs]!.primary(order), ranks[lhs]), (keys[rhs]!.primary(order), ranks[rhs]))
    }

    /// ``precedes(_:_:_:_:_:)`` given every review's value in the order (`primary`, by id).
    static func precedes(_ lhs: Int, _ rhs: Int, _ primary: [Int], _ ranks: [Int]) -> Bool {
        precedes((primary[lhs], ranks[lhs]), (primary[rhs], ranks[rhs]))
    }

    /// The order of every list: the higher value first, then the earlier title.
    @inline(__always)
    static func precedes(_ lhs: (value: Int, titleRank: Int), _ rhs: (value: Int, titleRank: Int)) -> Bool {
        lhs.value != rhs.value ? lhs.value > rhs.value : lhs.titleRank < rhs.titleRank
    }

    /// The positions in `members` where a new group starts.
    static func groupStarts(of members: [Int], _ order: SortOrder, _ keys: [ReviewKey?]) -> [Int] {
        var starts: [Int] = []
        var last: String?
        for (position, id) in members.enumerated() {
            let group = keys[id]!.group(order)
            if group != last { starts.append(position) }
            last = group
        }
        return starts
    }

    /// ``groupStarts(of:_:_:)`` of `members` when only positions `low..<high` can start a group
    /// other than in `old` (the starts before the change): the starts outside are kept.
    static func groupStarts(
        of members: [Int], _ order: SortOrder, _ keys: [ReviewKey?], updating old: [Int], from low: Int, to high: Int
    ) -> [Int] {
        let low = min(max(0, low), members.count)
        let high = min(max(high, low), members.count)
        var starts = Array(old[..<old.partitioningIndex { $0 >= low }])
        var last = low > 0 ? keys[members[low - 1]]!.group(order) : nil
        for position in low..<high {
            let group = keys[members[position]]!.group(order)
            if group != last { starts.append(position) }
            last = group
        }
        if high < members.count { starts += old[old.partitioningIndex { $0 >= high }...] }
        return starts
    }

    /// The years reviews were written in, newest first: one look per month with reviews.
    var writingYears: [Int] {
        let list = ListKey(.all, .date)
        let members = self.list(list)
        var years: [Int] = []
        for start in groupStarts[list] ?? [] {
            let year = self[key: members[start]].day.year
            if years.last != year { years.append(year) }
        }
        return years
    }

    /// Sets the older and newer review of every review of `section`; returns those whose neighbours changed.
    mutating func linkNeighbours(in section: String) -> Set<Int> {
        var changed: Set<Int> = []
        let sorted = list(ListKey(.section(section), .date))
        for (position, id) in sorted.enumerated() {
            let newerID = position > 0 ? sorted[position - 1] : nil
            let olderID = position + 1 < sorted.count ? sorted[position + 1] : nil
            if newer[id] != newerID || older[id] != olderID { changed.insert(id) }
            newer[id] = newerID
            older[id] = olderID
        }
        return changed
    }

    /// Reviews sharing the most tags with `id`, then the nearest to it in date (the newer of
    /// two as near), then by title: found among the reviews near it in each of its tags' lists
    /// by date, so the cost does not grow with the site, and a review is related to reviews of
    /// its own time rather than to the site's newest (which would put a new review, and any
    /// edit of it, on most pages of the site).
    func relatedReviews(of id: Int, dates: DateOrder) -> [Int] {
        guard let tags = keys[id]?.tags, !tags.isEmpty else { return [] }
        // Each review near `id` in one of its tags' lists by date is counted once per list it
        // is near in (the number of tags it shares), in a small table by id; the score is a
        // total order (title ranks differ), so the order they are counted in does not matter.
        var size = 16
        while size < tags.count * (2 * relatedWindow + 1) * 2 { size <<= 1 }
        return withUnsafeTemporaryAllocation(of: DateOrder.Candidate.self, capacity: size) { table in
            table.initialize(repeating: DateOrder.Candidate(id: -1, shared: 0, day: 0, titleRank: 0))
            defer { table.deinitialize() }
            let mask = size - 1
            let place = dates.facts[id].place
            let day = Int(dates.facts[id].day)
            var counted: [Int32] = []
            counted.reserveCapacity(tags.count * (2 * relatedWindow + 1))
            for tag in tags {
                // The tag's members by date, each with what the score reads of it, side by side:
                // the window is one run of memory, not a read far away for each of its members.
                dates.tagLists[tag.slug]?.withUnsafeBufferPointer { members in
                    let position = members.partitioningIndex { $0.fact.place >= place }
                    let near = max(0, position - relatedWindow)..<min(members.count, position + relatedWindow + 1)
                    for other in members[near] where Int(other.id) != id {
                        var slot = (Int(other.id) &* 0x9E37_79B9) & mask
                        while table[slot].id != -1 && table[slot].id != other.id { slot = (slot + 1) & mask }
                        if table[slot].id == -1 {
                            table[slot] = DateOrder.Candidate(
                                id: other.id, shared: 0, day: other.fact.day, titleRank: other.fact.titleRank)
                            counted.append(Int32(truncatingIfNeeded: slot))
                        }
                        table[slot].shared += 1
                    }
                }
            }
            // Higher is better: tags shared, nearness in days, newer, earlier in title order.
            var best: [(score: (Int, Int, Int, Int), id: Int)] = []
            for slot in counted {
                let other = table[Int(slot)]
                let score = (Int(other.shared), -abs(Int(other.day) - day), Int(other.day), -Int(other.titleRank))
                guard best.count < Self.relatedLimit || score > best[best.count - 1].score else { continue }
                let at = best.partitioningIndex { $0.score < score }
                best.insert((score, Int(other.id)), at: at)
                if best.count > Self.relatedLimit { best.removeLast() }
            }
            return best.map(\.id)
        }
    }

    /// What ``relatedReviews(of:dates:)`` reads of every review, by id, side by side in one
    /// flat array: on a large site the reviews of a window are far apart by id, and each one
    /// read costs a cache miss, so it is one line rather than one per fact.
    struct DateOrder {
        struct Fact {
            /// Its place in the list of all reviews by date (`Int32.max` for a removed review).
            var place: Int32
            /// Its day as a number (0 for a removed review).
            var day: Int32
            /// Its place in title order (-1 for a removed review).
            var titleRank: Int32
        }

        /// A review in a tag's list by date, with its facts.
        struct Member {
            var id: Int32
            var fact: Fact
        }

        /// A review near the one whose related reviews are sought, with the tags they share.
        struct Candidate {
            var id: Int32
            var shared: Int32
            var day: Int32
            var titleRank: Int32
        }

        let facts: [Fact]
        /// Each tag's list by date (by slug), with the facts of its members.
        let tagLists: [String: [Member]]

        static let empty = DateOrder(facts: [], tagLists: [:])
    }

    var dateOrder: DateOrder {
        var facts = keys.indices.map { id in
            DateOrder.Fact(
                place: .max, day: Int32(clamping: keys[id]?.day.number ?? 0), titleRank: Int32(clamping: titleRank[id]))
        }
        for (place, id) in list(ListKey(.all, .date)).enumerated() { facts[id].place = Int32(place) }
        var tagLists: [String: [DateOrder.Member]] = [:]
        for (key, members) in lists {
            guard key.order == .date, case .tag(let slug) = key.scope else { continue }
            tagLists[slug] = members.map { DateOrder.Member(id: Int32(truncatingIfNeeded: $0), fact: facts[$0]) }
        }
        return DateOrder(facts: facts, tagLists: tagLists)
    }

    /// Counts (or uncounts, with `by: -1`) the names a review writes for its tags and genres.
    mutating func count(_ key: ReviewKey, by amount: Int) {
        Self.count(key, by: amount, into: &nameCounts)
    }

    /// Adds `amount` to the count of each way `key` writes its tags and genres in `counts`.
    static func count(_ key: ReviewKey, by amount: Int, into counts: inout [ListScope: [String: Int]]) {
        for tag in key.tags { counts[.tag(tag.slug), default: [:]][tag.name, default: 0] += amount }
        for genre in key.genres { counts[.genre(genre.slug), default: [:]][genre.name, default: 0] += amount }
    }

    /// The ways the reviews write the tag (or genre) of `scope`, each review's first of it.
    func spellings(_ scope: ListScope) -> [String] {
        nameCounts[scope]?.compactMap { $0.value > 0 ? $0.key : nil } ?? []
    }

    /// The name shown for a tag written in several ways (`Sci-Fi`, `sci fi`): the least.
    static func displayName(_ counts: [String: Int]) -> String? {
        counts.filter { $0.value > 0 }.keys.min()
    }
}
