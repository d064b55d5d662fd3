import Foundation
import Testing

@testable import SiteGen

/// `sitegen serve` keeps links by source path right when their target changes its URL, comes
/// or goes, as a full build would.
@Suite("Serve: links by source path")
struct LiveSiteLinksTests {
    static let files = [
        "site.yml": "title: T\nbase_url: https://example.org/r/\n",
        "content/movies/a.md": "---\ntitle: A\ndate: 2024-01-01\n---\nSee [B](../books/b.md#end).\n",
        "content/books/b.md": "---\ntitle: B\ndate: 2024-01-02\n---\nB.\n",
        "content/books/c.md": "---\ntitle: C\ndate: 2024-01-03\n---\nC.\n",
    ]

    func site(_ folder: borrowing ScratchFolder, _ extra: [String: String] = [:]) throws -> SiteBuilder {
        for (path, text) in Self.files.merging(extra, uniquingKeysWith: { $1 }) { try folder.write(path, text) }
        return SiteBuilder(options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")))
    }

    func page(_ site: LiveSite, _ path: String) -> String {
        String(decoding: site.files[path] ?? Data(), as: UTF8.self)
    }

    @Test("a new slug for the target renders the linking review again, without a full build")
    func targetRenamed() throws {
        let folder = try ScratchFolder()
        let builder = try site(folder)
        var live = try LiveSite.build(builder)
        #expect(page(live, "movies/a/index.html").contains(#"<a href="/r/books/b/#end">B</a>"#))
        try folder.write("content/books/b.md", "---\ntitle: B\ndate: 2024-01-02\nslug: bee\n---\nB.\n")
        live = try live.updating(["content/books/b.md"])
        #expect(live.lastUpdate.kind == .reviews)
        #expect(page(live, "movies/a/index.html").contains(#"<a href="/r/books/bee/#end">B</a>"#))
        #expect(live.files == (try LiveSite.build(builder)).files)
    }

    @Test("a target deleted or made a draft is an error at the link; restoring it recovers")
    func targetGone() throws {
        let folder = try ScratchFolder()
        let builder = try site(folder)
        let live = try LiveSite.build(builder)
        let b = folder.url.appendingPathComponent("content/books/b.md")
        try FileManager.default.removeItem(at: b)
        #expect(throws: BuildError.self) { try live.updating(["content/books/b.md"]) }
        do {
            _ = try live.updating(["content/books/b.md"])
        } catch let error as BuildError {
            #expect(
                error.diagnostics.map(\.description) == [
                    "content/movies/a.md:5:5: the link \"../books/b.md#end\" names content/books/b.md, which does not exist"
                ])
        }
        try folder.write("content/books/b.md", "---\ntitle: B\ndate: 2024-01-02\ndraft: true\n---\nB.\n")
        do {
            _ = try live.updating(["content/books/b.md"])
            Issue.record("a link to a draft must fail")
        } catch let error as BuildError {
            #expect(
                error.diagnostics.map(\.description) == [
                    "content/movies/a.md:5:5: the link \"../books/b.md#end\" names content/books/b.md, a draft, "
                        + "which this build leaves out (publish it, or use --drafts)"
                ])
        }
        try folder.write("content/books/b.md", Self.files["content/books/b.md"]!)
        let restored = try live.updating(["content/books/b.md"])
        #expect(restored.files == (try LiveSite.build(builder)).files)
    }

    @Test("a review that starts linking to a missing file fails; one linking to a new review finds it")
    func linkingReviewEdited() throws {
        let folder = try ScratchFolder()
        let builder = try site(folder)
        let live = try LiveSite.build(builder)
        try folder.write("content/books/c.md", "---\ntitle: C\ndate: 2024-01-03\n---\n[x](d.md)\n")
        #expect(throws: BuildError.self) { try live.updating(["content/books/c.md"]) }
        try folder.write("content/books/d.md", "---\ntitle: D\ndate: 2024-01-04\nslug: dee\n---\nD.\n")
        let updated = try live.updating(["content/books/c.md", "content/books/d.md"])
        #expect(page(updated, "books/c/index.html").contains(#"<a href="/r/books/dee/">x</a>"#))
        #expect(updated.files == (try LiveSite.build(builder)).files)
    }

    @Test("a page linking to a review whose URL changes is built again in full")
    func pageLinksToMovedReview() throws {
        let folder = try ScratchFolder()
        let builder = try site(folder, ["content/about.md": "---\ntitle: About\n---\n[C](books/c.md)\n"])
        let live = try LiveSite.build(builder)
        #expect(page(live, "about/index.html").contains(#"<a href="/r/books/c/">C</a>"#))
        try folder.write("content/books/c.md", "---\ntitle: C\ndate: 2024-01-03\nslug: sea\n---\nC.\n")
        let updated = try live.updating(["content/books/c.md"])
        #expect(updated.lastUpdate.kind == .full)
        #expect(page(updated, "about/index.html").contains(#"<a href="/r/books/sea/">C</a>"#))
    }
}
