import Mustache
import Testing

@testable import CommonMark
@testable import SiteGen

@Suite("Cross-checks of an edit")
struct ChangedCrossCheckTests {
    static let sections = [
        ReviewSection(name: "movies", title: "Movies", kind: .movie),
        ReviewSection(name: "books", title: "Books", kind: .book),
    ]
    static let pages = [
        Page(source: "content/about.md", slug: "about", title: "About", description: "", html: "", extra: [:])
    ]
    /// Few slugs and tags, so that edits often collide: with each other, with a section's
    /// own pages (`page`, `by-title`), and tags spelled two ways (`Sci-Fi`, `sci fi`).
    static let slugs = ["a", "b", "c", "page", "by-title", "about", "d"]
    static let tags = ["Sci-Fi", "sci fi", "noir", "Noir", "C", "C.", "drama"]

    static func review(_ source: String, _ section: String, _ slug: String, _ tags: [String]) -> Review {
        Review(
            source: source, section: section, slug: slug, title: slug, date: Day(year: 2020, month: 1, day: 1)!,
            rating: nil, tags: tags, draft: false, summary: nil, language: nil,
            work: Work(kind: section == "movies" ? .movie : .book), extra: [:],
            body: RenderedMarkdown(html: "", firstParagraph: "", wordCount: 0),
            tagLocations: tags.indices.map { SourceLocation(path: source, line: 4, column: 8 + $0) })
    }

    static func randomReview(_ source: String, _ random: inout SplitMix) -> Review {
        let section = sections.randomElement(using: &random)!.name
        let tagCount = Int.random(in: 0...2, using: &random)
        let chosen = (0..<tagCount).map { _ in tags.randomElement(using: &random)! }
        return review(source, section, slugs.randomElement(using: &random)!, Array(Set(chosen)).sorted())
    }

    @Test(
        "checking only the reviews an edit changed reports what checking the whole site reports",
        arguments: [21, 22, 23])
    func changedAgreesWithWhole(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var collided = 0
        for _ in 0..<400 {
            // A site that passes its checks.
            var others: [Review] = []
            for number in 0..<8 {
                let candidate = Self.randomReview("content/r\(number).md", &random)
                if SiteLoader.crossChecks(sections: Self.sections, reviews: others + [candidate], pages: Self.pages)
                    .isEmpty
                {
                    others.append(candidate)
                }
            }
            // An edit: some reviews change their slug or tags, or come.
            var changed: [Review] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let source =
                    Bool.random(using: &random) && !others.isEmpty
                    ? others.randomElement(using: &random)!.source : "content/new\(changed.count).md"
                guard !changed.contains(where: { $0.source == source }) else { continue }
                changed.append(Self.randomReview(source, &random))
            }
            let sources = Set(changed.map(\.source))
            let all = others.filter { !sources.contains($0.source) } + changed
            let whole = SiteLoader.crossChecks(sections: Self.sections, reviews: all, pages: Self.pages)
            // The ways the site writes each tag, counted as the site index counts them.
            let names = Dictionary(grouping: all.flatMap { ReviewKey.names($0.tags) }, by: \.slug)
            let partial = SiteLoader.crossChecks(
                sections: Self.sections, reviews: all, pages: Self.pages, changed: changed,
                tagNames: { names[$0]?.map(\.name) ?? [] })
            #expect(partial == whole, "changed \(changed.map { "\($0.path) \($0.tags)" })")
            if !whole.isEmpty { collided += 1 }
        }
        // The edits collide often enough for the comparison to mean something.
        #expect(collided > 100)
    }
}
