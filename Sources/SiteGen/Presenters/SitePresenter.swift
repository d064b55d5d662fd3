import Synchronization

/// The site as presenters see it: what every page shares (``SiteContext``) and the reviews
/// in their lists (``SiteIndex``).
struct Presentation: Sendable {
    let context: SiteContext
    let index: SiteIndex
    /// What many pages of this presentation share, made by the first page that needs it.
    let shared = SharedParts()

    final class SharedParts: Sendable {
        /// The jump links of each compact list, by its key, folder and page size.
        let jumps = Mutex<[JumpsKey: Slot<[ListPages.Jump]>]>([:])
        /// The index of tags (and of genres), sorted and grouped, for each of its pages.
        let taxonomyLayouts = Mutex<[Taxonomy: Slot<TaxonomyPresenter.Layout>]>([:])
        /// The slugs of the tags (and of the genres), sorted.
        let scopes = Mutex<[Taxonomy: Slot<[String]>]>([:])
        /// Each presenter's pages, by its place in ``SitePresenter/presenters``: listed for the
        /// build, for the sitemap, and by `serve` for this version and again for the next.
        let keys = Mutex<[Int: Slot<[PageKey]>]>([:])
        /// The sitemap's entries in address order, for the index and each part of a sitemap
        /// too long for one file.
        let sitemapEntries = Slot<[SitemapModel.Entry]>()

        /// Where one part is kept once made: the first page to ask makes it under the slot's
        /// lock, and a page on the other core that asks meanwhile waits for it rather than
        /// making it too.
        final class Slot<Value: Sendable>: Sendable {
            private let part = Mutex<Value?>(nil)

            /// The part, made by `make` if it is not yet.
            func value(make: () -> Value) -> Value {
                part.withLock { part in
                    if let part { return part }
                    let made = make()
                    part = made
                    return made
                }
            }
        }

        /// The part stored under `key`, made by `make` if none is yet. The table's lock is
        /// held only to find or add the part's slot, so pages that need other parts do not wait.
        static func value<Key: Hashable & Sendable, Value: Sendable>(
            in parts: borrowing Mutex<[Key: Slot<Value>]>, for key: Key, make: () -> Value
        ) -> Value {
            let slot = parts.withLock { slots in
                if let slot = slots[key] { return slot }
                let slot = Slot<Value>()
                slots[key] = slot
                return slot
            }
            return slot.value(make: make)
        }
    }

    /// The slugs of `taxonomy`'s tags (or genres) in order, sorted once for every presenter
    /// that lists them (their pages, feeds, the sitemap; `serve` asks on each change).
    func scopes(_ taxonomy: Taxonomy) -> [String] {
        SharedParts.value(in: shared.scopes, for: taxonomy) { index.scopes(taxonomy).sorted() }
    }

    /// The pages of presenter number `index` of ``SitePresenter/presenters``, listed once.
    func keys(ofPresenter index: Int) -> [PageKey] {
        SharedParts.value(in: shared.keys, for: index) { SitePresenter.presenters[index].keys(self) }
    }

    struct JumpsKey: Hashable {
        let list: ListKey
        let folder: String
        let size: Int
    }
}

/// One page a presenter makes, named so that it can be made again on its own.
enum PageKey: Hashable, Sendable {
    case home
    case review(Int)
    /// A page of a sorted list: a section in one of its orders, a tag, a genre.
    case list(ListKey, page: Int)
    /// A page of `/tags/` or `/genres/`, from 1.
    case taxonomyIndex(Taxonomy, page: Int)
    case plain(String)
    case notFound
    /// The Atom feed of a list: the whole site (`.all`), a section or a tag.
    case feed(ListScope)
    case sitemap
    /// `sitemap-N.xml`, from 1: a part of a sitemap too long for one file.
    case sitemapPart(Int)
    case robots
    /// `/search/` and the files of its index.
    case search
    case searchFile(SearchFile)
    /// `/stats/` (nil) and a year's, `/stats/2024/`.
    case stats(Int?)

    /// Whether the page is HTML at a folder's address (`movies/parasite/index.html`, the home
    /// page's `index.html`): the pages a sitemap lists. Known from the key alone, so the
    /// sitemap's size is known without making every page's address.
    var isFolderPage: Bool {
        switch self {
        case .home, .review, .list, .taxonomyIndex, .plain, .search, .stats: true
        case .notFound, .feed, .sitemap, .sitemapPart, .robots, .searchFile: false
        }
    }

    /// Whether the page reads many reviews (a feed, the sitemap, stats): few such pages, each
    /// costing what dozens of others do, so a build starts them first.
    var readsManyReviews: Bool {
        switch self {
        case .feed, .sitemap, .sitemapPart, .stats: true
        default: false
        }
    }
}

/// A kind of page: lists its pages, makes any one of them, and names the ones a change to
/// the reviews may affect (a superset is fine: a page whose model is unchanged is not
/// rendered again).
protocol PagePresenter: Sendable {
    /// Whether `key` names one of this presenter's pages.
    func owns(_ key: PageKey) -> Bool
    /// Every page this presenter makes.
    func keys(_ site: Presentation) -> [PageKey]
    /// Where the page goes, relative to the site root.
    func output(_ key: PageKey, _ site: Presentation) -> String
    /// The page's job.
    func job(_ key: PageKey, _ site: Presentation) -> PageJob
    /// The pages whose models may differ after `change`.
    func affected(by change: IndexChange, _ site: Presentation) -> [PageKey]
}

/// Runs the presenters: the third step of a build. Every presenter is listed here, once,
/// for every driver (`sitegen build` presents all pages, `sitegen serve` the ones a change affects).
enum SitePresenter {
    static let presenters: [any PagePresenter] = [
        HomePresenter(), ReviewPagePresenter(), SectionPresenter(), TaxonomyPresenter(taxonomy: .tags),
        TaxonomyPresenter(taxonomy: .genres), PlainPagePresenter(), NotFoundPresenter(), FeedPresenter(),
        SitemapPresenter(), RobotsPresenter(), SearchPresenter(), StatsPresenter(),
    ]

    /// Every page of the site.
    static func keys(_ site: Presentation) -> [PageKey] {
        presenters.indices.flatMap { site.keys(ofPresenter: $0) }
    }

    /// The pages `new` has and `old` has not (`came`), and the other way round (`went`).
    /// Each presenter lists its pages in an order that an edit mostly keeps, so the lists'
    /// common start and end are skipped and only the part between is compared as sets.
    static func keysChanged(from old: Presentation, to new: Presentation) -> (came: Set<PageKey>, went: Set<PageKey>) {
        var came: Set<PageKey> = []
        var went: Set<PageKey> = []
        for index in presenters.indices {
            let before = old.keys(ofPresenter: index)
            let after = new.keys(ofPresenter: index)
            var start = 0
            while start < before.count, start < after.count, before[start] == after[start] { start += 1 }
            var endBefore = before.count
            var endAfter = after.count
            while endBefore > start, endAfter > start, before[endBefore - 1] == after[endAfter - 1] {
                endBefore -= 1
                endAfter -= 1
            }
            guard start < endBefore || start < endAfter else { continue }
            let middleBefore = Set(before[start..<endBefore])
            let middleAfter = Set(after[start..<endAfter])
            came.formUnion(middleAfter.subtracting(middleBefore))
            went.formUnion(middleBefore.subtracting(middleAfter))
        }
        return (came, went)
    }

    /// Every page's job, made on every core.
    static func jobs(_ site: Presentation) -> [PageJob] {
        keys(site).parallelMap { job($0, site) }
    }

    static func presenter(for key: PageKey) -> any PagePresenter {
        presenters.first { $0.owns(key) }!
    }

    static func job(_ key: PageKey, _ site: Presentation) -> PageJob {
        presenter(for: key).job(key, site)
    }

    static func output(_ key: PageKey, _ site: Presentation) -> String {
        presenter(for: key).output(key, site)
    }

    /// The pages whose models may differ after `change`.
    static func affected(by change: IndexChange, _ site: Presentation) -> Set<PageKey> {
        Set(presenters.flatMap { $0.affected(by: change, site) })
    }
}
