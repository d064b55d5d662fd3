import CommonMark
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

    /// Each review's page, from review files named by their body, in a site that lets raw HTML
    /// through or not.
    func pages(_ bodies: [String: String], rawHTML: Bool) throws -> [String: String] {
        let folder = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        try folder.write(
            "site.yml", "title: Night Shelf\nbase_url: https://example.org/\nraw_html: \(rawHTML)\n")
        for (slug, body) in bodies {
            try folder.write(
                "content/movies/\(slug).md", "---\ntitle: \(slug)\ndate: 2025-01-01\nrating: 3\n---\n\(body)")
        }
        let site = try LiveSite.build(
            SiteBuilder(options: .init(source: folder.url, output: folder.url.appendingPathComponent("public"))))
        return try bodies.keys.reduce(into: [:]) { pages, slug in
            pages[slug] = String(decoding: try #require(site.files["movies/\(slug)/index.html"]), as: UTF8.self)
        }
    }

    @Test(
        "a body that shows nothing (white space of any kind, raw HTML left out, a comment) has no Review part; an image or raw HTML let through does",
        arguments: [false, true])
    func bodiesShowingNothing(rawHTML: Bool) throws {
        let pages = try pages(
            [
                "nbsp": "&nbsp;\n", "spaces": "\u{00A0}\u{3000}\u{2003}\n\n\u{202F}\n",
                "raw": "<div class=\"x\"></div>\n",
                "image": "![](https://example.org/still.jpg)\n", "rule": "***\n",
                "french": "Quel film\u{00A0}!\n", "comment": "<!-- to write -->\n\n&nbsp;\n",
                "japanese": String(repeating: "静かな映画だった。", count: 200) + "\n", "kana": "ね。\n",
            ], rawHTML: rawHTML)
        let part = #"id="review-heading""#
        for slug in ["nbsp", "spaces", "comment"] {
            #expect(pages[slug]?.contains(part) == false, "\(slug)")
            #expect(pages[slug]?.contains("min read") == false, "\(slug)")
        }
        #expect(pages["raw"]?.contains(part) == rawHTML)
        #expect(pages["raw"]?.contains(#"<div class="x"></div>"#) == rawHTML)
        for slug in ["image", "rule"] {
            #expect(pages[slug]?.contains(part) == true, "\(slug)")
            #expect(pages[slug]?.contains("min read") == false, "\(slug)")
        }
        #expect(pages["french"]?.contains(part) == true)
        #expect(pages["french"]?.contains("<li>1 min read</li>") == true)
        // 1,600 characters of Japanese at 500 a minute; a single kana is a body too.
        #expect(pages["japanese"]?.contains("<li>3 min read</li>") == true)
        #expect(pages["kana"]?.contains(part) == true)
        #expect(pages["kana"]?.contains("<li>1 min read</li>") == true)
    }

    @Test("what shows: text that is not white space, any element but a paragraph; comments do not")
    func showsSomething() {
        let cases: [(String, Bool)] = [
            ("", false), ("<p>\u{00A0}</p>\n", false), ("<p>\u{3000}\u{202F}</p>\n<p></p>", false),
            ("<!-- raw HTML omitted -->\n", false), ("<!-- a -- b --><p> </p>", false),
            ("<!-- never closed <p>x", false),
            ("<p>&amp;</p>", true), ("<hr />\n", true), ("<p><img src=\"a.jpg\" alt=\"\" /></p>", true),
            ("<!-- note -->x", true), ("<p>\u{200B}\u{2060}\u{FEFF}</p>", false), ("<p>a\u{200D}</p>", true),
            ("<pre><code> </code></pre>", true),
            (String(repeating: "<!-- to write -->\n", count: 20_000), false),
        ]
        for (html, shows) in cases {
            let body = RenderedMarkdown(html: html, firstParagraph: "", wordCount: 0)
            #expect(body.showsSomething == shows, "\(html.prefix(40))")
        }
        #expect(RenderedMarkdown(html: "", firstParagraph: "", wordCount: 1).showsSomething)
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
