/// What an update of the index changed, for the presenters to find the pages that may differ.
struct IndexChange: Sendable {
    /// Reviews whose value changed (their own page shows it).
    var changed: Set<Int> = []
    /// Reviews whose card changed (every page listing them shows it).
    var cardChanged: Set<Int> = []
    /// Reviews that moved in some list, or came or went.
    var moved: Set<Int> = []
    /// Whether a review came, went, or took another address, day or set of lists
    /// (``ReviewKey/Place``): pages may have come or gone and the sitemap's dates changed.
    /// A review that only moved within its lists (a new rating or title) leaves it false.
    var placesChanged = false
    var added: Set<Int> = []
    var removed: Set<Int> = []
    /// The lists whose order or members changed, and where.
    var lists: [ListKey: ListChange] = [:]
    /// Reviews whose older or newer neighbour changed.
    var neighboursChanged: Set<Int> = []
    /// Reviews whose related reviews changed.
    var relatedChanged: Set<Int> = []
    /// Tags and genres whose name (or whose presence) changed.
    var namesChanged: Set<ListScope> = []
    /// The years the changed reviews were written in, before and after the change.
    var years: Set<Int> = []
    /// Whether a year of writing came or went (``SiteIndex/writingYears``).
    var writingYearsChanged = false
    /// The files of the search index that changed.
    var search = SearchChange()

    var isEmpty: Bool { changed.isEmpty && removed.isEmpty }
}

/// Where a list changed: from `low` to `high`, or from `low` to its end when its length
/// changed.
struct ListChange: Sendable, Equatable {
    var low: Int
    var high: Int
    var toEnd: Bool
    /// The list's groups before the change: each one's ``ReviewKey/group(_:)`` and the
    /// position of its first review (compact lists link to where each group starts).
    var oldGroups: [GroupStart] = []

    struct GroupStart: Sendable, Equatable {
        let group: String
        let position: Int
    }

    /// Widens the change to a review that left position `old` and arrived at `new`.
    mutating func include(old: Int?, new: Int?) {
        let positions = [old, new].compactMap { $0 }
        low = min(low, positions.min() ?? low)
        high = max(high, positions.max() ?? high)
    }

    /// Whether the page showing positions `range` may differ.
    func touches(_ range: Range<Int>) -> Bool {
        range.upperBound > low && (toEnd || range.lowerBound <= high)
    }
}

extension SiteIndex {
    /// This index (of the same reviews) under `context` instead of `old`, with its cards made
    /// again if their settings changed; nil when the index would differ otherwise. Of the
    /// context, the index reads the collation (from the language: the keys, the orders, the
    /// groups), the sections' names (neighbours) and the cards' settings.
    func reusing(under context: SiteContext, from old: SiteContext) -> SiteIndex? {
        guard context.config.language == old.config.language,
            Set(context.sections.map(\.name)) == Set(old.sections.map(\.name))
        else { return nil }
        var index = self
        let settings = context.cardSettings
        if settings != old.cardSettings {
            index.cards = reviews.parallelMap { $0.map { Self.card(for: $0, settings: settings) } }
        }
        return index
    }

    /// Puts each `(source, review)` in place: a new review is added, nil removes one, and a
    /// changed one moves in its lists. Returns what changed.
    mutating func update(_ replacements: [(source: String, review: Review?)], context: SiteContext) -> IndexChange {
        var change = IndexChange()
        let yearsBefore = writingYears
        var oldKeys: [Int: ReviewKey] = [:]
        let collation = context.collation
        var touchedSections: Set<String> = []
        for (source, review) in replacements {
            let existing = ids[source]
            guard existing != nil || review != nil else { continue }
            let id = existing ?? reviews.count
            if existing == nil {
                ids[source] = id
                reviews.append(nil)
                keys.append(nil)
                cards.append(nil)
                older.append(nil)
                newer.append(nil)
                related.append([])
                titleRank.append(-1)
            }
            guard reviews[id] != review else { continue }
            let key = review.map { ReviewKey($0, collation: collation) }
            let card = review.map { Self.card(for: $0, settings: context.cardSettings) }
            change.changed.insert(id)
            for day in [keys[id]?.day, key?.day].compactMap({ $0 }) { change.years.insert(day.year) }
            if cards[id] != card { change.cardChanged.insert(id) }
            if keys[id] != key {
                change.moved.insert(id)
                if keys[id]?.place != key?.place { change.placesChanged = true }
                if let old = keys[id] { oldKeys[id] = old }
                for section in [keys[id]?.section, key?.section].compactMap({ $0 }) { touchedSections.insert(section) }
            }
            if reviews[id] == nil { change.added.insert(id) }
            if review == nil {
                change.removed.insert(id)
                ids[source] = nil
            }
            reviews[id] = review
            cards[id] = card
            keys[id] = key
        }
        guard !change.moved.isEmpty else {
            relateCardChanges(&change)
            updateSearch(&change)
            return change
        }
        // Out of the lists with their old keys, into them with the new ones.
        var oldPositions: [ListKey: [Int: Int]] = [:]
        // Each list as it was before the first review left or entered it.
        var oldLists: [ListKey: [Int]] = [:]
        for (id, old) in oldKeys {
            count(old, by: -1)
            for list in old.lists {
                guard var members = lists[list], let position = members.firstIndex(of: id) else { continue }
                if oldLists[list] == nil { oldLists[list] = members }
                members.remove(at: position)
                lists[list] = members.isEmpty ? nil : members
                oldPositions[list, default: [:]][id] = position
            }
            if let position = byTitle.firstIndex(of: id) { byTitle.remove(at: position) }
        }
        let moved = change.moved.sorted()
        for id in moved {
            guard let key = keys[id] else { continue }
            let place = TitlePlace(key, collation)
            let position = byTitle.partitioningIndex {
                !Self.titleOrder(TitlePlace(self.keys[$0]!, collation), place, collation)
            }
            byTitle.insert(id, at: position)
        }
        for (rank, id) in byTitle.enumerated() { titleRank[id] = rank }
        for id in change.removed { titleRank[id] = -1 }
        var newPositions: [ListKey: [Int: Int]] = [:]
        for id in moved {
            guard let key = keys[id] else { continue }
            count(key, by: 1)
            for list in key.lists {
                var members = lists[list] ?? []
                if oldLists[list] == nil { oldLists[list] = members }
                let position = members.partitioningIndex {
                    !Self.precedes($0, id, list.order, self.keys, self.titleRank)
                }
                members.insert(id, at: position)
                lists[list] = members
                newPositions[list, default: [:]][id] = position
            }
        }
        let touchedLists = Set(oldPositions.keys).union(newPositions.keys)
        for list in touchedLists {
            let ids = Set(oldPositions[list, default: [:]].keys).union(newPositions[list, default: [:]].keys)
            // One review back in its place and in its group (a new rating in a list by date):
            // the list's order and groups are as they were; its card, if changed, says so itself.
            if ids.count == 1, let id = ids.first, let old = oldPositions[list]?[id], old == newPositions[list]?[id],
                oldKeys[id]?.group(list.order) == keys[id]?.group(list.order)
            {
                continue
            }
            let oldMembers = oldLists[list] ?? []
            // With as many reviews as before, the reviews outside the positions the moved ones
            // left and entered keep theirs. Positions were noted one review at a time, as the
            // list lost and gained the others, so each can be off by the number that moved.
            var listChange = ListChange(low: Int.max, high: 0, toEnd: oldMembers.count != (lists[list]?.count ?? 0))
            for id in ids { listChange.include(old: oldPositions[list]?[id], new: newPositions[list]?[id]) }
            listChange.low = max(0, listChange.low - (ids.count - 1))
            listChange.high += ids.count - 1
            listChange.oldGroups = (groupStarts[list] ?? []).map { position in
                let id = oldMembers[position]
                return .init(group: (oldKeys[id] ?? keys[id]!).group(list.order), position: position)
            }
            change.lists[list] = listChange
            groupStarts[list] = lists[list].map { members in
                Self.groupStarts(
                    of: members, list.order, keys, updating: groupStarts[list] ?? [], from: listChange.low,
                    to: listChange.toEnd ? members.count : listChange.high + 2)
            }
        }
        // Names of tags and genres, neighbours, related reviews.
        for old in oldKeys.values { for scope in Self.taxonomyScopes(old) { change.namesChanged.insert(scope) } }
        for id in moved { for scope in keys[id].map(Self.taxonomyScopes) ?? [] { change.namesChanged.insert(scope) } }
        change.namesChanged = change.namesChanged.filter { scope in
            let name = nameCounts[scope].flatMap(Self.displayName)
            defer { names[scope] = name }
            return names[scope] != name
        }
        for section in touchedSections { change.neighboursChanged.formUnion(linkNeighbours(in: section)) }
        for id in change.removed {
            older[id] = nil
            newer[id] = nil
        }
        // Related reviews are found within a window around each review in its tags' lists by
        // date: only reviews near where a moved review left or entered such a list can see a
        // different window (the reach allows for the other moved reviews shifting positions).
        var stale = Set(moved)
        let reach = relatedWindow + 1 + moved.count
        for list in touchedLists {
            guard list.order == .date, case .tag = list.scope else { continue }
            let members = self.list(list)
            let positions = Array(oldPositions[list, default: [:]].values) + newPositions[list, default: [:]].values
            for position in positions {
                let low = max(0, min(members.count, position - reach))
                stale.formUnion(members[low..<min(members.count, position + reach + 1)])
            }
        }
        let dates = stale.isEmpty ? DateOrder.empty : dateOrder
        for id in stale {
            let fresh = reviews[id] == nil ? [] : relatedReviews(of: id, dates: dates)
            guard fresh != related[id] else { continue }
            if tracksDependents {
                for other in related[id] { relatedBy[other]?.remove(id) }
                for other in fresh { relatedBy[other, default: []].insert(id) }
            }
            related[id] = fresh
            change.relatedChanged.insert(id)
        }
        change.writingYearsChanged = writingYears != yearsBefore
        relateCardChanges(&change)
        updateSearch(&change)
        return change
    }
}

private extension SiteIndex {
    static func taxonomyScopes(_ key: ReviewKey) -> [ListScope] {
        key.tags.map { .tag($0.slug) } + key.genres.map { .genre($0.slug) }
    }

    /// The search index takes in the changed reviews (taken out while it does, so it is not copied).
    mutating func updateSearch(_ change: inout IndexChange) {
        var search = self.search
        self.search = .empty
        // A review that moved in some list but kept its place in the list by date keeps every rank.
        let byDate = change.lists[ListKey(.all, .date)]
        // (Two or more reviews that moved always span two positions or more.)
        let ranksChanged = byDate.map { $0.toEnd || $0.low != $0.high } ?? false
        change.search = search.update(change.changed, in: self, ranksChanged: ranksChanged)
        self.search = search
    }

    /// Reviews listing a review whose card changed as related show it too.
    func relateCardChanges(_ change: inout IndexChange) {
        for id in change.cardChanged { change.relatedChanged.formUnion(relatedBy[id] ?? []) }
    }
}
