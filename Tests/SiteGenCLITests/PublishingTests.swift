import Foundation
import Testing

/// A site published under a sub-path (a GitHub Pages project site, a folder of a server):
/// every address the build writes agrees with `--base-url`.
@Suite("Publishing under a base URL")
struct PublishingTests {
    static let files = [
        "site.yml": "title: Reviews\nbase_url: https://example.org/\n",
        "content/movies/parasite.md": "---\ntitle: Parasite\ndate: 2024-03-01\ntags: [Class]\n---\nStairs.\n",
        "content/books/stoner.md": "---\ntitle: Stoner\ndate: 2024-05-01\n---\nA campus novel.\n",
        "content/about.md": "---\ntitle: About\n---\nHello.\n",
    ]

    @Test(
        "sitemap, feed, robots.txt, canonical and og:url use --base-url, and every root-relative link its path",
        arguments: [
            "https://someone.github.io/my-reviews/", "https://reviews.netlify.app/", "https://cdn.example/a/b/",
        ])
    func subPath(base: String) throws {
        let folder = try TemporaryFolder(Self.files)
        let result = try BuiltBinary("sitegen").run(
            ["build", "--output", "out", "--base-url", base], in: folder.url)
        #expect(result.status == 0, "\(result.err)")
        let out = folder.url.appendingPathComponent("out")
        let path = try #require(URL(string: base)?.path).appending("/").replacingOccurrences(of: "//", with: "/")
        let read = { (file: String) in try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8) }

        let locations = matches(#"<loc>([^<]+)</loc>"#, in: try read("sitemap.xml"))
        #expect(locations.contains(base + "movies/parasite/"))
        #expect(locations.contains(base + "search/"))
        #expect(locations.contains(base + "stats/"))
        #expect(locations.allSatisfy { $0.hasPrefix(base) }, "\(locations)")

        let feed = try read("feed.xml")
        let links = matches(#"<link[^>]* href="([^"]+)""#, in: feed) + matches(#"<id>([^<]+)</id>"#, in: feed)
        #expect(links.contains(base + "feed.xml"))
        #expect(links.contains(base + "books/stoner/"))
        #expect(links.allSatisfy { $0.hasPrefix(base) }, "\(links)")
        #expect(try read("robots.txt").contains("Sitemap: \(base)sitemap.xml\n"))

        for page in [
            "index.html", "movies/parasite/index.html", "tags/class/index.html", "search/index.html",
            "stats/2024/index.html",
        ] {
            let html = try read(page)
            let address = base + String(page.dropLast("index.html".count))
            #expect(matches(#"<link rel="canonical" href="([^"]+)""#, in: html) == [address], "\(page)")
            #expect(matches(#"<meta property="og:url" content="([^"]+)""#, in: html) == [address], "\(page)")
            let rooted = matches(#"(?:href|src|data-manifest)="(/[^"]*)""#, in: html)
            #expect(!rooted.isEmpty, "\(page)")
            #expect(rooted.allSatisfy { $0.hasPrefix(path) }, "\(page): \(rooted.filter { !$0.hasPrefix(path) })")
        }
        let search = try read("search/index.html")
        #expect(search.contains("data-manifest=\"\(path)search/index.json\""))
        #expect(search.contains("<script src=\"\(path)assets/search.js\" defer></script>"))
        let docs = try read("search/docs-0.json")
        #expect(docs.contains("\"\(path)books/stoner/\""))
    }
}

/// The first capture group of every match of `pattern`.
private func matches(_ pattern: String, in text: String) -> [String] {
    let expression = try! NSRegularExpression(pattern: pattern)
    let range = NSRange(text.startIndex..., in: text)
    return expression.matches(in: text, range: range).compactMap { match in
        Range(match.range(at: 1), in: text).map { String(text[$0]) }
    }
}
