/// The search index the build writes under `search/`, split so that a query downloads a few
/// small files: a manifest, the key files its words fall in, and the files of the reviews it shows.
///
/// Reviews are numbered by rank, their place in the site's list by date (0 is the newest). Each
/// family of keys (``Family``) is sorted and cut into chunks where a key's hash says so, or
/// after ``Family/longestChunk`` keys without such a key (content-defined: chunks change only
/// where keys come into or leave the whole site, not when a review's postings change). The
/// chunks are dealt in order into a fixed number of files, a number that depends only on how
/// many reviews there are, so an edit that moves no review never adds or removes a file, and
/// usually changes only the files holding the keys it changed. The manifest names each file's
/// first key (shortened to what tells it from the key before).
struct SearchIndex: Sendable {
    /// Where a key comes from: the names a review carries (title, original title, director or
    /// author, tags, genres, year), or its text (summary and review). Initial-consonant search
    /// (ㄱㅅㅊ) looks at names only.
    enum Family: Int, CaseIterable, Sendable, Hashable {
        case names
        case text

        var name: String { self == .names ? "names" : "text" }

        /// A chunk starts, on average, at one key in this many (where the key's hash says so)...
        var chunkKeys: UInt64 { self == .names ? 24 : 32 }
        /// ...and after at most this many keys.
        var longestChunk: Int { self == .names ? 48 : 64 }

        /// How many files the family is split into for `reviews` reviews.
        func files(_ reviews: Int) -> Int {
            max(1, (reviews + perFile - 1) / perFile)
        }

        /// Reviews per file: about 10 to 25 KB of keys and postings.
        private var perFile: Int { self == .names ? 400 : 40 }
    }

    /// The reviews in one file of display records.
    static let reviewsPerDocsFile = 16

    /// Each review's keys per family (by index id); kept only when serving, for updates.
    private(set) var terms: [[[SearchKey]]?]
    /// Each review's rank (by index id), -1 for none.
    private(set) var ranks: [Int]
    /// The ids in rank order.
    private(set) var ranked: [Int]
    /// Per family: the ranks of the reviews with each key, ascending.
    private(set) var postings: [[SearchKey: [Int32]]]
    /// Per family: every key, in order.
    private(set) var sortedKeys: [[SearchKey]]
    /// Per family: where each chunk starts in `sortedKeys`.
    private(set) var chunkStarts: [[Int]]
    let keepsTerms: Bool

    /// No reviews.
    static let empty = SearchIndex()

    private init() {
        keepsTerms = false
        terms = []
        ranks = []
        ranked = []
        postings = [[:], [:]]
        sortedKeys = [[], []]
        chunkStarts = [[], []]
    }

    /// The index of `index`'s reviews.
    init(_ index: SiteIndex, keepsTerms: Bool) {
        self.keepsTerms = keepsTerms
        ranked = index.list(ListKey(.all, .date))
        ranks = [Int](repeating: -1, count: index.reviews.count)
        for (rank, id) in ranked.enumerated() { ranks[id] = rank }
        // Each core indexes a run of ranks into postings of its own, which are then joined in
        // rank order: only one review's keys exist at a time, never the whole site's.
        let ranked = ranked
        let runs = Self.runs(ranked.count)
        let parts = runs.parallelMap { run in
            Self.postings(ranks: run, of: ranked, in: index, keepsTerms: keepsTerms)
        }
        postings = Family.allCases.parallelMap { family in
            var joined = parts.first?.postings[family.rawValue] ?? [:]
            for part in parts.dropFirst() {
                for (key, ranks) in part.postings[family.rawValue] {
                    joined[key, default: []].append(contentsOf: ranks)
                }
            }
            return joined
        }
        var terms = [[[SearchKey]]?](repeating: nil, count: index.reviews.count)
        if keepsTerms {
            for part in parts {
                for (offset, keys) in part.terms.enumerated() { terms[ranked[part.ranks.lowerBound + offset]] = keys }
            }
        }
        self.terms = terms
        sortedKeys = postings.parallelMap { $0.keys.sorted() }
        chunkStarts = []
        layOut()
    }

    /// The postings of the reviews ranked `ranks`, and (when `keepsTerms`) each one's keys,
    /// sharing the postings' copy of every key.
    private static func postings(ranks: Range<Int>, of ranked: [Int], in index: SiteIndex, keepsTerms: Bool)
        -> (ranks: Range<Int>, postings: [[SearchKey: [Int32]]], terms: [[[SearchKey]]])
    {
        var names = TermTable(keepsTerms: keepsTerms)
        var text = TermTable(keepsTerms: keepsTerms)
        var terms: [[[SearchKey]]] = []
        for rank in ranks {
            names.start(Int32(rank))
            text.start(Int32(rank))
            scan(index[review: ranked[rank]], names: &names, text: &text)
            if keepsTerms { terms.append([names.current, text.current]) }
        }
        return (ranks, [names.postings, text.postings], terms)
    }

    /// `count` ranks cut into a few runs per core, and runs of at most about 3,000 reviews on
    /// larger sites: the last run is left to one core (at 100,000 reviews in runs of 12,500
    /// that was half a second alone).
    private static func runs(_ count: Int) -> [Range<Int>] {
        (0..<count).cut(into: max(1, min(count / 64, max(ProcessInfoCores.count * 4, count / 3000))))
    }

    /// A review's keys per family.
    static func terms(of review: Review) -> [[SearchKey]] {
        var names: Set<SearchKey> = []
        var text: Set<SearchKey> = []
        scan(review, names: &names, text: &text)
        return [Array(names), Array(text)]
    }

    /// Hands a review's keys to a sink per family.
    private static func scan<Names: SearchKeySink, Text: SearchKeySink>(
        _ review: Review, names: inout Names, text: inout Text
    ) {
        SearchText.keys(review.title, singles: true, into: &names)
        if let original = review.work.originalTitle ?? review.metadata?.originalTitle {
            SearchText.keys(original, singles: true, into: &names)
        }
        if let creator = review.creator { SearchText.keys(creator, singles: true, into: &names) }
        if let year = review.year { SearchText.keys(String(year), into: &names) }
        for name in review.tags { SearchText.keys(name, singles: true, into: &names) }
        for name in review.genres { SearchText.keys(name, singles: true, into: &names) }
        if let summary = review.summary { SearchText.keys(summary, into: &text) }
        SearchText.keys(html: review.body.html, into: &text)
    }

    /// The number of reviews indexed.
    var count: Int { ranked.count }

    /// The chunks of file `number` of `family`.
    func chunks(ofFile number: Int, _ family: Family) -> Range<Int> {
        let chunks = chunkStarts[family.rawValue].count
        let files = family.files(count)
        return chunks * number / files..<chunks * (number + 1) / files
    }

    /// The keys of file `number` of `family`, in order.
    func keys(ofFile number: Int, _ family: Family) -> ArraySlice<SearchKey> {
        let chunks = chunks(ofFile: number, family)
        let starts = chunkStarts[family.rawValue]
        let keys = sortedKeys[family.rawValue]
        guard !chunks.isEmpty else { return [] }
        return keys[
            starts[chunks.lowerBound]..<(chunks.upperBound < starts.count ? starts[chunks.upperBound] : keys.count)]
    }

    /// The file holding (or that would hold) `key`, given chunks starting at `starts` in `keys`.
    static func file(holding key: SearchKey, keys: [SearchKey], starts: [Int], files: Int) -> Int {
        guard !starts.isEmpty else { return 0 }
        let chunk = max(0, starts.partitioningIndex { key < keys[$0] } - 1)
        // The file f with chunks * f / files <= chunk < chunks * (f + 1) / files.
        var file = chunk * files / starts.count
        while file + 1 < files && starts.count * (file + 1) / files <= chunk { file += 1 }
        while file > 0 && starts.count * file / files > chunk { file -= 1 }
        return file
    }

    /// Where `key` is, or would go, in the sorted `keys`.
    static func position(of key: SearchKey, in keys: [SearchKey]) -> Int {
        keys.partitioningIndex { !($0 < key) }
    }

    /// Cuts each family's keys into chunks.
    private mutating func layOut() {
        chunkStarts = Family.allCases.map { family in
            var starts: [Int] = []
            var run = 0
            for (position, key) in sortedKeys[family.rawValue].enumerated() {
                if position == 0 || run >= family.longestChunk || SearchText.hash(key) % family.chunkKeys == 0 {
                    starts.append(position)
                    run = 0
                }
                run += 1
            }
            return starts
        }
    }
}

/// A file of the search index.
enum SearchFile: Hashable, Sendable {
    /// `search/index.json`: what the other files hold.
    case manifest
    /// `search/names-3.txt`, `search/text-12.txt`: keys and the ranks of the reviews that have them.
    case keys(SearchIndex.Family, Int)
    /// `search/docs-4.json`: what a result shows of each review of a run of ranks.
    case docs(Int)

    var path: String {
        switch self {
        case .manifest: "search/index.json"
        case .keys(let family, let number): "search/\(family.name)-\(number).txt"
        case .docs(let number): "search/docs-\(number).json"
        }
    }
}

/// The search files an update of the index changed.
struct SearchChange: Sendable {
    /// Every file (the ranks changed: a review came, went or changed its date).
    var everything = false
    var files: Set<SearchFile> = []
}

extension SearchIndex {
    /// Takes in the reviews `ids` of `index` (changed, added or removed; `index` already holds
    /// their new values). When no review moved in the list by date, only their keys and
    /// display records change; otherwise the ranks are mapped anew (``rerank(_:in:)``, which
    /// says which files can differ). Without kept keys (a build), the index is made again.
    mutating func update(_ ids: Set<Int>, in index: SiteIndex, ranksChanged: Bool) -> SearchChange {
        guard !ids.isEmpty else { return SearchChange() }
        guard keepsTerms else {
            self = SearchIndex(index, keepsTerms: false)
            return SearchChange(everything: true)
        }
        if ranksChanged {
            return rerank(ids, in: index)
        }
        var change = SearchChange(files: [.manifest])
        var changedKeys: [[SearchKey]] = [[], []]
        var cameOrWent = false
        let oldFirstKeys = Family.allCases.map(firstKeys)
        let oldChunkCounts = chunkStarts.map(\.count)
        for id in ids {
            let old = terms[id] ?? [[], []]
            let new = index.reviews[id].map { Self.terms(of: $0) } ?? [[], []]
            terms[id] = index.reviews[id] == nil ? nil : new
            guard ranks[id] >= 0 else { continue }
            let rank = Int32(ranks[id])
            change.files.insert(.docs(ranks[id] / Self.reviewsPerDocsFile))
            for family in Family.allCases {
                let before = Set(old[family.rawValue])
                let after = Set(new[family.rawValue])
                for key in before.subtracting(after) {
                    cameOrWent = remove(rank, key, family) || cameOrWent
                    changedKeys[family.rawValue].append(key)
                }
                for key in after.subtracting(before) {
                    cameOrWent = insert(rank, key, family) || cameOrWent
                    changedKeys[family.rawValue].append(key)
                }
            }
        }
        if cameOrWent { layOut() }
        for family in Family.allCases {
            let f = family.rawValue
            let files = family.files(count)
            // Keys that came or went can move chunk boundaries: with as many chunks, only the
            // files whose first key (or whose next file's first key) moved; else every file.
            if chunkStarts[f].count != oldChunkCounts[f] {
                for number in 0..<files { change.files.insert(.keys(family, number)) }
                continue
            }
            let firstKeys = firstKeys(family)
            for number in 0..<files
            where firstKeys[number] != oldFirstKeys[f][number]
                || (number + 1 < files && firstKeys[number + 1] != oldFirstKeys[f][number + 1])
            {
                change.files.insert(.keys(family, number))
            }
            for key in changedKeys[f] {
                let file = Self.file(
                    holding: key, keys: sortedKeys[f], starts: chunkStarts[f], files: family.files(count))
                change.files.insert(.keys(family, file))
            }
        }
        return change
    }

    /// Takes in reviews that moved in the list by date (or came or went): their keys leave at
    /// their old ranks, every other review's ranks are mapped to its new place (the others
    /// keep their order, so every posting list stays ascending), and their keys come back at
    /// their new ranks. No other review's text is read again.
    ///
    /// When as many reviews hold the same keys (reviews moved by date, no key came or went),
    /// only the files that can differ count as changed: the display records of the ranks
    /// between the first and the last that changed hands, and the key files holding a key
    /// with such a rank or a key of the reviews taken in. Otherwise every file does.
    private mutating func rerank(_ ids: Set<Int>, in index: SiteIndex) -> SearchChange {
        let oldRanked = ranked
        let oldKeys = sortedKeys
        var touchedKeys: [Set<SearchKey>] = [[], []]
        for id in ids where id < ranks.count && ranks[id] >= 0 {
            for family in Family.allCases {
                for key in terms[id]?[family.rawValue] ?? [] {
                    _ = remove(Int32(ranks[id]), key, family)
                    touchedKeys[family.rawValue].insert(key)
                }
            }
        }
        let newRanked = index.list(ListKey(.all, .date))
        var newRanks = [Int](repeating: -1, count: index.reviews.count)
        for (rank, id) in newRanked.enumerated() { newRanks[id] = rank }
        var map = [Int32](repeating: -1, count: ranked.count)
        for (rank, id) in ranked.enumerated() where !ids.contains(id) { map[rank] = Int32(newRanks[id]) }
        // Ranks below the first one that moves and above the last one stay as they are.
        let firstMoved = Int32(map.indices.first { map[$0] != Int32($0) } ?? map.count)
        let lastMoved = Int32(map.indices.last { map[$0] != Int32($0) } ?? -1)
        if firstMoved <= lastMoved {
            // On every core (a review dated today moves every rank: each list is rewritten);
            // the lists without a rank that moved are left as they are, shared.
            let moved = map
            for f in postings.indices {
                let remapped = Array(postings[f].values).parallelMap { list -> [Int32]? in
                    let low = list.partitioningIndex { $0 >= firstMoved }
                    let high = list[low...].partitioningIndex { $0 > lastMoved }
                    guard low < high else { return nil }
                    var list = list
                    list.withUnsafeMutableBufferPointer { list in
                        for slot in low..<high { list[slot] = moved[Int(list[slot])] }
                    }
                    return list
                }
                var position = postings[f].values.startIndex
                for list in remapped {
                    if let list { postings[f].values[position] = list }
                    postings[f].values.formIndex(after: &position)
                }
            }
        }
        ranked = newRanked
        ranks = newRanks
        terms += [[[SearchKey]]?](repeating: nil, count: max(0, index.reviews.count - terms.count))
        for id in ids {
            let new = index.reviews[id].map { Self.terms(of: $0) }
            terms[id] = new
            guard let new, ranks[id] >= 0 else { continue }
            for family in Family.allCases {
                for key in new[family.rawValue] {
                    _ = insert(Int32(ranks[id]), key, family)
                    touchedKeys[family.rawValue].insert(key)
                }
            }
        }
        layOut()
        // Keys that came or went can move the chunks' boundaries, and a new count the files.
        guard ranked.count == oldRanked.count, sortedKeys == oldKeys,
            let low = ranked.indices.first(where: { ranked[$0] != oldRanked[$0] }),
            let high = ranked.indices.last(where: { ranked[$0] != oldRanked[$0] })
        else { return SearchChange(everything: true) }
        var change = SearchChange(files: [.manifest])
        for number in low / Self.reviewsPerDocsFile...high / Self.reviewsPerDocsFile {
            change.files.insert(.docs(number))
        }
        for id in ids where id < ranks.count && ranks[id] >= 0 {
            change.files.insert(.docs(ranks[id] / Self.reviewsPerDocsFile))
        }
        let moved = Int32(low)...Int32(high)
        for family in Family.allCases {
            let f = family.rawValue
            let files = family.files(count)
            for number in 0..<files
            where keys(ofFile: number, family).contains(where: { Self.has(postings[f][$0] ?? [], in: moved) }) {
                change.files.insert(.keys(family, number))
            }
            for key in touchedKeys[f] {
                change.files.insert(
                    .keys(family, Self.file(holding: key, keys: sortedKeys[f], starts: chunkStarts[f], files: files)))
            }
        }
        return change
    }

    /// Whether the ascending `ranks` hold one in `range`.
    private static func has(_ ranks: [Int32], in range: ClosedRange<Int32>) -> Bool {
        let first = ranks.partitioningIndex { $0 >= range.lowerBound }
        return first < ranks.count && ranks[first] <= range.upperBound
    }

    /// Each file's first key (nil for an empty file).
    func firstKeys(_ family: Family) -> [SearchKey?] {
        (0..<family.files(count)).map { keys(ofFile: $0, family).first }
    }

    /// Adds a rank to a key's postings; true when the key is new to the site.
    private mutating func insert(_ rank: Int32, _ key: SearchKey, _ family: Family) -> Bool {
        let f = family.rawValue
        if var list = postings[f][key] {
            postings[f][key] = nil
            list.insert(rank, at: list.firstIndex { $0 > rank } ?? list.endIndex)
            postings[f][key] = list
            return false
        }
        postings[f][key] = [rank]
        sortedKeys[f].insert(key, at: Self.position(of: key, in: sortedKeys[f]))
        return true
    }

    /// Takes a rank from a key's postings; true when the key leaves the site.
    private mutating func remove(_ rank: Int32, _ key: SearchKey, _ family: Family) -> Bool {
        let f = family.rawValue
        guard var list = postings[f][key] else { return false }
        postings[f][key] = nil
        let position = list.partitioningIndex { $0 >= rank }
        if position < list.count, list[position] == rank { list.remove(at: position) }
        if list.isEmpty {
            sortedKeys[f].remove(at: Self.position(of: key, in: sortedKeys[f]))
            return true
        }
        postings[f][key] = list
        return false
    }
}
