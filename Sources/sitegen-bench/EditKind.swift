/// The kinds of edit `sitegen-bench serve` times, in the order it makes them.
enum EditKind: String, CaseIterable {
    case body
    case rating
    case title
    case date
    case tags
    case slug
    case draftOn = "draft-on"
    case draftOff = "draft-off"
    case newFile = "new-file"
    case deleteFile = "delete-file"
    case renameFile = "rename-file"
    case sectionIndex = "section-index"
    case template
    case siteYML = "site-yml"
    case metadata
    case staticFile = "static-file"

    /// What the edit does and what counts as served.
    var summary: String {
        switch self {
        case .body: "a sentence appended to the review; its page shows it"
        case .rating: "the review's rating changed; its page shows the new one"
        case .title: "the review's title changed; its page shows it"
        case .date: "the review's date changed (it moves in every list); its page shows it"
        case .tags: "one of its tags replaced by a new tag; its page shows it"
        case .slug: "a slug added or changed; the new address serves the review"
        case .draftOn: "draft: true added; its address answers 404"
        case .draftOff: "draft: true removed; its address serves the review again"
        case .newFile: "a new review file; its address serves it"
        case .deleteFile: "an old review's file deleted; its address answers 404"
        case .renameFile: "an old review's file renamed (no slug); the new address serves it"
        case .sectionIndex: "a sentence added to the section's _index.md; the section page shows it"
        case .template: "a comment added to Templates/review.mustache; the review page shows it"
        case .siteYML: "site.yml's description changed; the home page shows it"
        case .metadata: "the review's metadata cache entry's overview changed; its page shows it"
        case .staticFile: "static/robots.txt changed; /robots.txt serves it"
        }
    }
}
