/// The search index the build writes under `search/`, split so that a query downloads a few
/// small files: a manifest, the key files its words fall in, and the files of the reviews it shows.
///
/// Reviews are numbered by rank, their place in the site's list by date (0 is the newest). Each
/// family of keys (``Family``: the names a review carries, or its text) is sorted in UTF-16
/// order and cut into chunks where a key's hash says so (content-defined, so an edit moves only
/// the chunks around the keys it changes); each chunk goes to one of a fixed number of files
/// (by the hash of its first key), a number that depends only on how many reviews there are. So
/// an edit that moves no review changes a few files and never adds or removes one. The manifest
/// names each chunk's first key (shortened to what tells it from the key before) and its file.
struct SearchIndex: Sendable {
    /// Where a key comes from: the names a review carries (title, original title, director or
    /// author, tags, genres, year), or its text (summary and review). Initial-consonant search
    /// (ㄱㅅㅊ) looks at names only.
    enum Family: Int, CaseIterable, Sendable, Hashable {
        case names
        case text

        var name: String { self == .names ? "names" : "text" }

        /// A chunk starts, on average, at one key in this many.
        var chunkKeys: UInt64 { self == .names ? 48 : 96 }

        /// How many files the family is split into for `reviews` reviews.
        func files(_ reviews: Int) -> Int {
            max(1, (reviews + perFile - 1) / perFile)
        }

        /// Reviews per file: about 10 to 25 KB of keys and postings.
        private var perFile: Int { self == .names ? 400 : 40 }
    }

    /// The reviews in one file of display records.
    static let reviewsPerDocsFile = 32

    /// Each review's keys per family, sorted (by index id); kept only when serving, for updates.
    private(set) var terms: [[[String]]?]
    /// Each review's rank (by index id), -1 for none.
    private(set) var ranks: [Int]
    /// The ids in rank order.
    private(set) var ranked: [Int]
    /// Per family: the ranks of the reviews with each key, ascending.
    private(set) var postings: [[String: [Int32]]]
    /// Per family: every key, in UTF-16 order.
    private(set) var sortedKeys: [[String]]
    /// Per family: where each chunk starts in `sortedKeys`.
    private(set) var chunkStarts: [[Int]]
    /// Per family and file: its chunks, in key order.
    private(set) var chunksByFile: [[[Int]]]
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
        chunksByFile = [[[]], [[]]]
    }

    /// The index of `index`'s reviews.
    init(_ index: SiteIndex, keepsTerms: Bool) {
        self.keepsTerms = keepsTerms
        ranked = index.list(ListKey(.all, .date))
        ranks = [Int](repeating: -1, count: index.reviews.count)
        for (rank, id) in ranked.enumerated() { ranks[id] = rank }
        let reviewTerms = ranked.parallelMap { Self.terms(of: index.review($0), index: index) }
        postings = Family.allCases.parallelMap { family in
            var postings: [String: [Int32]] = [:]
            for (rank, terms) in reviewTerms.enumerated() {
                for key in terms[family.rawValue] { postings[key, default: []].append(Int32(rank)) }
            }
            return postings
        }
        var terms = [[[String]]?](repeating: nil, count: index.reviews.count)
        if keepsTerms { for (rank, id) in ranked.enumerated() { terms[id] = reviewTerms[rank] } }
        self.terms = terms
        sortedKeys = postings.parallelMap { $0.keys.sorted(by: SearchText.precedes) }
        chunkStarts = []
        chunksByFile = []
        layOut()
    }

    /// A review's keys per family, each list sorted.
    static func terms(of review: Review, index: SiteIndex) -> [[String]] {
        var names = [review.title]
        if let original = review.work.originalTitle ?? review.metadata?.originalTitle { names.append(original) }
        if let creator = review.creator { names.append(creator) }
        if let year = review.year { names.append(String(year)) }
        names += review.tags + review.genres
        let text = [review.summary ?? "", HTMLText.plain(review.body.html)]
        return [SearchText.keys(names).sorted(), SearchText.keys(text).sorted()]
    }

    /// The number of reviews indexed.
    var count: Int { ranked.count }

    /// The chunk of `family` that holds (or would hold) `key`.
    func chunk(holding key: String, _ family: Family) -> Int {
        Self.chunk(holding: key, keys: sortedKeys[family.rawValue], starts: chunkStarts[family.rawValue])
    }

    /// The file a chunk goes to.
    func file(ofChunk chunk: Int, _ family: Family) -> Int {
        Self.file(firstKey: sortedKeys[family.rawValue][chunkStarts[family.rawValue][chunk]], family, count)
    }

    /// The last chunk (of those starting at `starts` in `keys`) whose first key is not after `key`.
    static func chunk(holding key: String, keys: [String], starts: [Int]) -> Int {
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if SearchText.precedes(key, keys[starts[middle]]) { high = middle } else { low = middle + 1 }
        }
        return max(0, low - 1)
    }

    /// The file of the chunk starting with `firstKey`.
    static func file(firstKey: String, _ family: Family, _ reviews: Int) -> Int {
        Int(SearchText.hash(firstKey, seed: 0x9e37_79b9_7f4a_7c15) % UInt64(family.files(reviews)))
    }

    /// Where `key` is, or would go, in the sorted `keys`.
    static func position(of key: String, in keys: [String]) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if SearchText.precedes(keys[middle], key) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Cuts each family's keys into chunks and deals them into files.
    private mutating func layOut() {
        chunkStarts = Family.allCases.map { family in
            let keys = sortedKeys[family.rawValue]
            return keys.indices.filter { $0 == 0 || SearchText.hash(keys[$0]) % family.chunkKeys == 0 }
        }
        chunksByFile = Family.allCases.map { family in
            var files = [[Int]](repeating: [], count: family.files(count))
            for chunk in chunkStarts[family.rawValue].indices {
                files[file(ofChunk: chunk, family)].append(chunk)
            }
            return files
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
    /// display records change; otherwise everything is made again.
    mutating func update(_ ids: Set<Int>, in index: SiteIndex, ranksChanged: Bool) -> SearchChange {
        guard !ids.isEmpty else { return SearchChange() }
        if ranksChanged || !keepsTerms {
            self = SearchIndex(index, keepsTerms: keepsTerms)
            return SearchChange(everything: true)
        }
        var change = SearchChange(files: [.manifest])
        var changedKeys: [[String]] = [[], []]
        let (oldKeys, oldStarts) = (sortedKeys, chunkStarts)
        for id in ids {
            let old = terms[id] ?? [[], []]
            let new = index.reviews[id].map { Self.terms(of: $0, index: index) } ?? [[], []]
            terms[id] = index.reviews[id] == nil ? nil : new
            guard ranks[id] >= 0 else { continue }
            let rank = Int32(ranks[id])
            change.files.insert(.docs(ranks[id] / Self.reviewsPerDocsFile))
            for family in Family.allCases {
                let before = Set(old[family.rawValue])
                let after = Set(new[family.rawValue])
                for key in before.subtracting(after) {
                    remove(rank, key, family)
                    changedKeys[family.rawValue].append(key)
                }
                for key in after.subtracting(before) {
                    insert(rank, key, family)
                    changedKeys[family.rawValue].append(key)
                }
            }
        }
        layOut()
        // The files that held each changed key's chunk before, and hold it now.
        for family in Family.allCases {
            let (keys, starts) = (oldKeys[family.rawValue], oldStarts[family.rawValue])
            for key in changedKeys[family.rawValue] {
                if !starts.isEmpty {
                    let old = starts[Self.chunk(holding: key, keys: keys, starts: starts)]
                    change.files.insert(.keys(family, Self.file(firstKey: keys[old], family, count)))
                }
                if !chunkStarts[family.rawValue].isEmpty {
                    change.files.insert(.keys(family, file(ofChunk: chunk(holding: key, family), family)))
                }
            }
        }
        return change
    }

    private mutating func insert(_ rank: Int32, _ key: String, _ family: Family) {
        let f = family.rawValue
        if var list = postings[f][key] {
            postings[f][key] = nil
            list.insert(rank, at: list.firstIndex { $0 > rank } ?? list.endIndex)
            postings[f][key] = list
        } else {
            postings[f][key] = [rank]
            sortedKeys[f].insert(key, at: Self.position(of: key, in: sortedKeys[f]))
        }
    }

    private mutating func remove(_ rank: Int32, _ key: String, _ family: Family) {
        let f = family.rawValue
        guard var list = postings[f][key] else { return }
        postings[f][key] = nil
        list.removeAll { $0 == rank }
        if list.isEmpty {
            sortedKeys[f].remove(at: Self.position(of: key, in: sortedKeys[f]))
        } else {
            postings[f][key] = list
        }
    }
}
