import Mustache

/// One page of a sorted list of reviews: a section in one of its orders (`section.mustache`).
public struct SectionPageModel: PageModel, Equatable {
    public let site: Precomputed<SiteModel>
    public let labels: Precomputed<Labels>
    public let page: PageHead
    public let section: SectionModel
    /// Links to the section's orderings; the one shown has `current`.
    public let sorts: [SortLink]
    public let list: ListModel

    public var templateValue: Value {
        .members([
            "site": site.templateValue, "labels": labels.templateValue, "page": page.templateValue,
            "section": section.templateValue, "sorts": Value(sorts), "groups": Value(list.groups),
            "jumps": Value(list.jumps), "hasJumps": .bool(!list.jumps.isEmpty), "isCompact": .bool(list.isCompact),
            "pagination": Value(list.pagination),
        ])
    }
}

/// The reviews on one page of a list: grouped under headings, with jump links to every
/// group of the whole list (compact lists) and links to the other pages.
public struct ListModel: Sendable, Equatable {
    public let groups: [ReviewGroup]
    /// Links to where each group of the whole list starts (on this page or another); empty for
    /// the main, newest-first index.
    public let jumps: [JumpLink]
    /// Whether the list shows many small cards (a sorted index, a tag) rather than a few large ones.
    public let isCompact: Bool
    public let pagination: PaginationModel?
}

/// A link to the start of a group of a list: "ㄱ", "2019", "4.5 stars".
public struct JumpLink: Sendable, Equatable, ValueRepresentable {
    public let label: String
    public let url: String
    /// True when the group it leads to starts on the page that shows the link.
    public let onThisPage: Bool
    /// The label's language (a Hangul initial is Korean).
    public let language: String
    /// Made once: every page of a list shows the same links (see ``ListPages``).
    public let templateValue: Value

    public init(label: String, url: String, onThisPage: Bool, language: String) {
        self.label = label
        self.url = url
        self.onThisPage = onThisPage
        self.language = language
        templateValue = .members([
            "label": .string(label), "url": .string(url), "onThisPage": .bool(onThisPage),
            "language": .string(language),
        ])
    }

    public static func == (lhs: JumpLink, rhs: JumpLink) -> Bool {
        (lhs.label, lhs.url, lhs.onThisPage, lhs.language) == (rhs.label, rhs.url, rhs.onThisPage, rhs.language)
    }
}

/// A review section: its title, URL and intro.
public struct SectionModel: Sendable, Equatable, ValueRepresentable {
    public let title: String
    public let url: String
    /// The section's `_index.md` body as HTML, or empty.
    public let intro: String
    public let kind: String
    /// "12 reviews" / "리뷰 12편".
    public let countLabel: String

    public var templateValue: Value {
        .members([
            "title": .string(title), "url": .string(url), "intro": .string(intro), "kind": .string(kind),
            "countLabel": .string(countLabel),
        ])
    }
}

/// A link to one ordering of a section.
public struct SortLink: Sendable, Equatable, ValueRepresentable {
    public let label: String
    public let url: String
    public let current: Bool

    public var templateValue: Value {
        .members(["label": .string(label), "url": .string(url), "current": .bool(current)])
    }
}

/// Links to the other pages of a list: previous and next (named after the order, such as
/// "Newer" and "Older"), and a window of numbered pages around this one, always with the
/// first and the last, gaps marked. Its size never depends on the number of pages.
public struct PaginationModel: Sendable, Equatable, ValueRepresentable {
    /// "Page 2 of 5" / "5쪽 중 2쪽".
    public let label: String
    public let previous: StepLink?
    public let next: StepLink?
    public let items: [PageItem]

    public var templateValue: Value {
        .members([
            "label": .string(label), "previous": Value(previous), "next": Value(next), "items": Value(items),
        ])
    }
}

/// The link to the page before or after: its address and its words ("Older", "Next").
public struct StepLink: Sendable, Equatable, ValueRepresentable {
    public let url: String
    public let label: String

    public var templateValue: Value {
        .members(["url": .string(url), "label": .string(label)])
    }
}

/// A numbered page link, or a gap ("…") between numbers.
public struct PageItem: Sendable, Equatable, ValueRepresentable {
    public let number: String
    public let url: String
    public let current: Bool
    public let gap: Bool

    public var templateValue: Value {
        .members(["number": .string(number), "url": .string(url), "current": .bool(current), "gap": .bool(gap)])
    }
}

/// The list of all tags or genres (`tags.mustache`).
public struct TagsPageModel: PageModel, Equatable {
    public let site: Precomputed<SiteModel>
    public let labels: Precomputed<Labels>
    public let page: PageHead
    /// "Tags" or "Genres".
    public let heading: String
    /// The tags on this page, in collation order.
    public let tags: [TagCount]
    /// The same under their initials, when the index has more than one page (else empty).
    public let groups: [TagGroup]
    /// Links to where each initial starts, when the index has more than one page.
    public let jumps: [JumpLink]
    public let pagination: PaginationModel?

    public var templateValue: Value {
        .members([
            "site": site.templateValue, "labels": labels.templateValue, "page": page.templateValue,
            "heading": .string(heading), "tags": Value(tags), "groups": Value(groups), "jumps": Value(jumps),
            "hasJumps": .bool(!jumps.isEmpty), "pagination": Value(pagination),
        ])
    }
}

/// The tags of an index page that start with one initial.
public struct TagGroup: Sendable, Equatable, ValueRepresentable {
    public let heading: String
    /// A fragment id for the heading (`initial-A`).
    public let id: String
    public var tags: [TagCount]
    /// The heading's language (a Hangul initial is Korean).
    public let language: String

    public var templateValue: Value {
        .members(["heading": .string(heading), "id": .string(id), "tags": Value(tags), "language": .string(language)])
    }
}

/// A tag with how many reviews carry it.
public struct TagCount: Sendable, Equatable, ValueRepresentable {
    public let name: String
    public let url: String
    public let count: Int
    /// "3 reviews" / "리뷰 3편".
    public let countLabel: String

    public var templateValue: Value {
        .members([
            "name": .string(name), "url": .string(url), "count": .int(count), "countLabel": .string(countLabel),
        ])
    }
}

/// One page of the reviews carrying a tag or genre (`tag.mustache`), newest first.
public struct TagPageModel: PageModel, Equatable {
    public let site: Precomputed<SiteModel>
    public let labels: Precomputed<Labels>
    public let page: PageHead
    /// "Reviews tagged “thriller”" / "“스릴러” 태그 리뷰".
    public let heading: String
    public let countLabel: String
    /// The list of all tags (or all genres).
    public let allTags: LinkModel
    public let list: ListModel

    public var templateValue: Value {
        .members([
            "site": site.templateValue, "labels": labels.templateValue, "page": page.templateValue,
            "heading": .string(heading), "countLabel": .string(countLabel), "allTags": allTags.templateValue,
            "groups": Value(list.groups), "jumps": Value(list.jumps), "hasJumps": .bool(!list.jumps.isEmpty),
            "isCompact": .bool(list.isCompact), "pagination": Value(list.pagination),
        ])
    }
}

/// The home page (`home.mustache`): recent and top-rated reviews per section.
public struct HomePageModel: PageModel, Equatable {
    public let site: Precomputed<SiteModel>
    public let labels: Precomputed<Labels>
    public let page: PageHead
    /// The latest reviews across all sections.
    public let recent: [ReviewCard]
    public let sections: [HomeSection]

    public var templateValue: Value {
        .members([
            "site": site.templateValue, "labels": labels.templateValue, "page": page.templateValue,
            "recent": Value(recent), "hasRecent": .bool(!recent.isEmpty), "sections": Value(sections),
        ])
    }
}

/// One section's block on the home page.
public struct HomeSection: Sendable, Equatable, ValueRepresentable {
    /// A fragment id for the section's heading.
    public let id: String
    public let title: String
    public let url: String
    public let countLabel: String
    public let recent: [ReviewCard]
    public let topRated: [ReviewCard]

    public var templateValue: Value {
        .members([
            "id": .string(id), "title": .string(title), "url": .string(url), "countLabel": .string(countLabel),
            "recent": Value(recent), "topRated": Value(topRated), "hasRecent": .bool(!recent.isEmpty),
            "hasTopRated": .bool(!topRated.isEmpty),
        ])
    }
}

/// A plain page such as About (`page.mustache`).
public struct PlainPageModel: PageModel, Equatable {
    public let site: Precomputed<SiteModel>
    public let labels: Precomputed<Labels>
    public let page: PageHead
    public let title: String
    public let html: String
    public let extra: Value

    public var templateValue: Value {
        .members([
            "site": site.templateValue, "labels": labels.templateValue, "page": page.templateValue,
            "title": .string(title), "html": .string(html), "extra": extra,
        ])
    }
}

/// The not-found page (`404.mustache`).
public struct NotFoundPageModel: PageModel, Equatable {
    public let site: Precomputed<SiteModel>
    public let labels: Precomputed<Labels>
    public let page: PageHead

    public var templateValue: Value {
        .members(["site": site.templateValue, "labels": labels.templateValue, "page": page.templateValue])
    }
}
