import Foundation
import Testing

@testable import SiteGen

/// Who the feeds and structured data name as the author, and a review's body in structured
/// data, when site.yml or the review leaves them out.
@Suite("Authors and review bodies in feeds and structured data")
struct AuthorAndBodyTests {
    func build(author: String?) throws -> [String: String] {
        let folder = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        try folder.write(
            "site.yml",
            "title: Night Shelf\nbase_url: https://example.org/\n" + (author.map { "author: \($0)\n" } ?? ""))
        try folder.write(
            "content/movies/heat.md",
            "---\ntitle: Heat\ndate: 2025-01-01\nrating: 4.5\ntags: [crime]\n---\nA long night.\n")
        try folder.write("content/movies/empty.md", "---\ntitle: Empty\ndate: 2025-01-02\nrating: 0\n---\n")
        try folder.write("content/movies/unrated.md", "---\ntitle: Unrated\ndate: 2025-01-03\n---\nNo stars.\n")
        let site = try LiveSite.build(
            SiteBuilder(options: .init(source: folder.url, output: folder.url.appendingPathComponent("public"))))
        return site.files.mapValues { String(decoding: $0, as: UTF8.self) }
    }

    @Test("without an author, feeds name the site (not each feed's title) and structured data an organization")
    func noAuthor() throws {
        let files = try build(author: nil)
        for feed in ["feed.xml", "movies/feed.xml", "tags/crime/feed.xml"] {
            #expect(files[feed]?.contains("<author><name>Night Shelf</name></author>") == true, "\(feed)")
        }
        #expect(
            files["movies/heat/index.html"]?.contains(#""author":{"@type":"Organization","name":"Night Shelf"}"#)
                == true)
        let named = try build(author: "Ana Lee")
        #expect(named["tags/crime/feed.xml"]?.contains("<author><name>Ana Lee</name></author>") == true)
        #expect(named["movies/heat/index.html"]?.contains(#""author":{"@type":"Person","name":"Ana Lee"}"#) == true)
    }

    @Test("a review with no text and no summary has no reviewBody rather than an empty one")
    func emptyBody() throws {
        let files = try build(author: "Ana Lee")
        #expect(files["movies/heat/index.html"]?.contains(#""reviewBody":"A long night.""#) == true)
        let empty = try #require(files["movies/empty/index.html"])
        #expect(empty.contains(#""@type":"Review""#))
        #expect(!empty.contains("reviewBody"))
    }

    @Test("a review with no text (a rating alone, as imports bring) has no Review heading and no reading time")
    func emptyPage() throws {
        let files = try build(author: nil)
        let heat = try #require(files["movies/heat/index.html"])
        #expect(heat.contains(#"<h2 class="part-heading" id="review-heading" lang="en">Review</h2>"#))
        #expect(heat.contains("<li>1 min read</li>"))
        let empty = try #require(files["movies/empty/index.html"])
        #expect(empty.contains("<h1 class=\"review-title\" lang=\"en\">Empty</h1>"))
        #expect(!empty.contains(#"id="review-heading""#))
        #expect(!empty.contains("min read"))
    }

    @Test("a rating of 0 is a rating in structured data, on the 0 to 5 scale front matter allows; none is none")
    func zeroRating() throws {
        let files = try build(author: nil)
        let scale = #""bestRating":5,"worstRating":0}"#
        #expect(files["movies/heat/index.html"]?.contains(#""ratingValue":4.5,"# + scale) == true)
        let zero = try #require(files["movies/empty/index.html"])
        #expect(zero.contains("0 out of 5 stars"))
        #expect(zero.contains(#""reviewRating":{"@type":"Rating","ratingValue":0,"# + scale))
        #expect(files["movies/unrated/index.html"]?.contains("reviewRating") == false)
    }
}
