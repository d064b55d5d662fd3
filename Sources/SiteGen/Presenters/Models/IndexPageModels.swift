import Mustache

/// A sorted index of a section (`section.mustache`): newest, by title, by rating or by year.
public struct SectionPageModel: PageModel, Equatable {
    public let site: Precomputed<SiteModel>
    public let labels: Precomputed<Labels>
    public let page: PageHead
    public let section: SectionModel
    /// Links to the section's orderings; the one shown has `current`.
    public let sorts: [SortLink]
    public let groups: [ReviewGroup]
    public let pagination: PaginationModel?
}

/// A review section: its title, URL and intro.
public struct SectionModel: Encodable, Sendable, Equatable {
    public let title: String
    public let url: String
    /// The section's `_index.md` body as HTML, or empty.
    public let intro: String
    public let kind: String
    /// "12 reviews" / "리뷰 12편".
    public let countLabel: String
}

/// A link to one ordering of a section.
public struct SortLink: Encodable, Sendable, Equatable {
    public let label: String
    public let url: String
    public let current: Bool
}

/// Page links for a paginated index.
public struct PaginationModel: Encodable, Sendable, Equatable {
    /// "Page 2 of 5" / "5쪽 중 2쪽".
    public let label: String
    public let previous: String?
    public let next: String?
    public let pages: [PageLink]
}

/// One numbered page link.
public struct PageLink: Encodable, Sendable, Equatable {
    public let number: String
    public let url: String
    public let current: Bool
}

/// The list of all tags or genres (`tags.mustache`).
public struct TagsPageModel: PageModel, Equatable {
    public let site: Precomputed<SiteModel>
    public let labels: Precomputed<Labels>
    public let page: PageHead
    /// "Tags" or "Genres".
    public let heading: String
    public let tags: [TagCount]
}

/// A tag with how many reviews carry it.
public struct TagCount: Encodable, Sendable, Equatable {
    public let name: String
    public let url: String
    public let count: Int
    /// "3 reviews" / "리뷰 3편".
    public let countLabel: String
}

/// The reviews carrying one tag or genre (`tag.mustache`), newest first.
public struct TagPageModel: PageModel, Equatable {
    public let site: Precomputed<SiteModel>
    public let labels: Precomputed<Labels>
    public let page: PageHead
    /// "Reviews tagged “thriller”" / "“스릴러” 태그 리뷰".
    public let heading: String
    public let countLabel: String
    /// The list of all tags (or all genres).
    public let allTags: LinkModel
    public let reviews: [ReviewCard]
}

/// The home page (`home.mustache`): recent and top-rated reviews per section.
public struct HomePageModel: PageModel, Equatable {
    public let site: Precomputed<SiteModel>
    public let labels: Precomputed<Labels>
    public let page: PageHead
    /// The latest reviews across all sections.
    public let recent: [ReviewCard]
    public let hasRecent: Bool
    public let sections: [HomeSection]
}

/// One section's block on the home page.
public struct HomeSection: Encodable, Sendable, Equatable {
    /// A fragment id for the section's heading.
    public let id: String
    public let title: String
    public let url: String
    public let countLabel: String
    public let recent: [ReviewCard]
    public let topRated: [ReviewCard]
    public let hasRecent: Bool
    public let hasTopRated: Bool
}

/// A plain page such as About (`page.mustache`).
public struct PlainPageModel: PageModel, Equatable {
    public let site: Precomputed<SiteModel>
    public let labels: Precomputed<Labels>
    public let page: PageHead
    public let title: String
    public let html: String
    public let extra: Value
}

/// The not-found page (`404.mustache`).
public struct NotFoundPageModel: PageModel, Equatable {
    public let site: Precomputed<SiteModel>
    public let labels: Precomputed<Labels>
    public let page: PageHead
}
