import Foundation
import Testing

@testable import SiteGen

@Suite("Links in Markdown survive publishing")
struct MarkdownLinksTests {
    static let subPath = "title: Test Reviews\nbase_url: https://example.org/reviews/\n"

    @Test("root-relative links and images go under the base URL's path; other links stay as written")
    func rootRelative() throws {
        let body = """
            [Piranesi](/books/piranesi/) ![x](/images/x.png) [home](/) [far](//cdn.example.org/a.css)
            [out](https://example.org/x/) [mail](mailto:a@example.org) [here](#notes) [rel](notes/x.png)
            [query](/tags/?a=1&b=2)
            """
        let site = InMemorySite(
            ["content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01", body: body)], config: Self.subPath)
        let html = try #require(site.load().reviews.first).body.html
        #expect(
            html == """
                <p><a href="/reviews/books/piranesi/">Piranesi</a> <img src="/reviews/images/x.png" alt="x" /> \
                <a href="/reviews/">home</a> <a href="//cdn.example.org/a.css">far</a>
                <a href="https://example.org/x/">out</a> <a href="mailto:a@example.org">mail</a> \
                <a href="#notes">here</a> <a href="notes/x.png">rel</a>
                <a href="/reviews/tags/?a=1&amp;b=2">query</a></p>

                """)
        // At the root of a host, nothing changes.
        let atRoot = InMemorySite(["content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01", body: body)])
        #expect(try #require(atRoot.load().reviews.first).body.html.contains(#"<a href="/books/piranesi/">"#))
    }

    @Test("links to .md files lead to the review, page or section they name, relative to the linking file")
    func bySourcePath() throws {
        let site = InMemorySite(
            [
                "content/books/piranesi.md": reviewFile(
                    "title: Piranesi\ndate: 2024-01-01",
                    body: """
                        [Parasite](../movies/parasite.md) [cast](../movies/parasite.md#cast) \
                        [about](/content/about.md) [films](../movies/_index.md) [self](piranesi.md?x=1)
                        [기생충](../movies/gisaengchung.md) [escaped](../movies/para%73ite.md)
                        """),
                "content/movies/parasite.md": reviewFile("title: Parasite\ndate: 2024-02-01\nslug: parasite-2019"),
                "content/movies/gisaengchung.md": reviewFile("title: 기생충\ndate: 2024-02-02\nslug: 기생충"),
                "content/about.md": "---\ntitle: About\nslug: who\n---\nSee [the book](books/piranesi.md).\n",
                "content/movies/_index.md": "---\ntitle: Films\n---\nStart with [Parasite](parasite.md).\n",
            ], config: Self.subPath)
        let content = try site.load()
        let piranesi = try #require(content.reviews.first { $0.slug == "piranesi" })
        #expect(
            piranesi.body.html == """
                <p><a href="/reviews/movies/parasite-2019/">Parasite</a> \
                <a href="/reviews/movies/parasite-2019/#cast">cast</a> <a href="/reviews/who/">about</a> \
                <a href="/reviews/movies/">films</a> <a href="/reviews/books/piranesi/?x=1">self</a>
                <a href="/reviews/movies/%EA%B8%B0%EC%83%9D%EC%B6%A9/">기생충</a> \
                <a href="/reviews/movies/parasite-2019/">escaped</a></p>

                """)
        #expect(
            piranesi.sourceLinks.map(\.target) == [
                "content/movies/parasite.md", "content/movies/parasite.md", "content/about.md",
                "content/movies/_index.md", "content/books/piranesi.md", "content/movies/gisaengchung.md",
                "content/movies/parasite.md",
            ])
        #expect(content.pages.first?.html == "<p>See <a href=\"/reviews/books/piranesi/\">the book</a>.</p>\n")
        #expect(
            content.sections.first { $0.name == "movies" }?.introHTML
                == "<p>Start with <a href=\"/reviews/movies/parasite-2019/\">Parasite</a>.</p>\n")
    }

    @Test("a link to a .md file that is not published fails the build at its line and column")
    func brokenLinks() {
        let site = InMemorySite([
            "content/books/a.md": reviewFile(
                "title: A\ndate: 2024-01-01\ntags: [x]",
                body: """
                    First line.

                    See [it](../movies/missing.md), and
                    then é [the draft](../movies/draft.md#x).
                    > [out](../../../etc/passwd.md) [readme](/README.md)

                    [bundle](../movies/bund/index.md)
                    """),
            "content/movies/draft.md": reviewFile("title: Draft\ndate: 2024-01-01\ndraft: true"),
            "content/movies/bund/index.md": reviewFile("title: Bundle\ndate: 2024-01-01\ndraft: true"),
            "content/about.md": "---\ntitle: About\n---\n\n[gone](movies/gone.md)\n",
            "README.md": "# not content\n",
        ])
        #expect(
            site.problems() == [
                "content/about.md:5:1: the link \"movies/gone.md\" names content/movies/gone.md, which does not exist",
                "content/books/a.md:8:5: the link \"../movies/missing.md\" names content/movies/missing.md, "
                    + "which does not exist",
                "content/books/a.md:9:8: the link \"../movies/draft.md#x\" names content/movies/draft.md, a draft, "
                    + "which this build leaves out (publish it, or use --drafts)",
                "content/books/a.md:10:3: the link \"../../../etc/passwd.md\" leads out of the site folder",
                "content/books/a.md:10:33: the link \"/README.md\" names README.md, which is not a review or page "
                    + "(only content/*.md, content/<section>/*.md and content/<section>/<bundle>/index.md are "
                    + "published)",
                "content/books/a.md:12:1: the link \"../movies/bund/index.md\" names content/movies/bund/index.md, a "
                    + "draft, which this build leaves out (publish it, or use --drafts)",
            ])
    }

    @Test("a link to a review dated after today says so, with --future")
    func futureTarget() throws {
        let site = InMemorySite([
            "content/books/a.md": reviewFile("title: A\ndate: 2024-01-01", body: "[soon](../movies/soon.md)"),
            "content/movies/soon.md": reviewFile("title: Soon\ndate: 2030-05-01"),
        ])
        let today = try #require(Day("2026-12-04"))
        let loader = SiteLoader(
            root: InMemorySite.root, fileSystem: site.fileSystem, options: .init(today: today))
        let error = #expect(throws: BuildError.self) { _ = try loader.load() }
        #expect(
            error?.diagnostics.map(\.description) == [
                "content/books/a.md:5:1: the link \"../movies/soon.md\" names content/movies/soon.md, dated "
                    + "2030-05-01, after today, which this build leaves out until then (or use --future)"
            ])
    }

    @Test("with --drafts a draft is a target; a draft's own broken links do not stop a build that leaves it out")
    func drafts() throws {
        let site = InMemorySite([
            "content/books/a.md": reviewFile("title: A\ndate: 2024-01-01", body: "[d](../movies/draft.md)"),
            "content/movies/draft.md": reviewFile(
                "title: Draft\ndate: 2024-01-01\ndraft: true", body: "[nowhere](nowhere.md)"),
        ])
        #expect(
            site.problems(includeDrafts: true) == [
                "content/movies/draft.md:6:1: the link \"nowhere.md\" names content/movies/nowhere.md, "
                    + "which does not exist"
            ])
        var fixed = site
        fixed.files["content/movies/draft.md"] = reviewFile("title: Draft\ndate: 2024-01-01\ndraft: true")
        let content = try fixed.load(includeDrafts: true)
        #expect(content.reviews.first { $0.slug == "a" }?.body.html == "<p><a href=\"/movies/draft/\">d</a></p>\n")
        var hidden = site
        hidden.files["content/books/a.md"] = reviewFile("title: A\ndate: 2024-01-01")
        #expect(hidden.problems() == [])
    }
}

@Suite("A section's intro, shown on many pages")
struct SectionIntroLinkTests {
    @Test("its relative links and images are written against the section's folder; others stay as written")
    func introLinks() throws {
        let text = """
            ---
            title: Films
            ---
            ![map](map.png) [notes](./notes/a.txt?x=1#y) [up](../books/) [top](../../../x) [here](#part)
            [site](/about/) [away](https://example.org/a) [mail](mailto:me@example.org) [q](?sort=1)
            """
        let (section, problems) = ReviewSection.read(
            name: "movies", index: (text, "content/movies/_index.md"), allowRawHTML: false,
            links: MarkdownLinks(basePath: "/reviews/"))
        #expect(problems.isEmpty)
        let html = try #require(section?.introHTML)
        for expected in [
            #"src="/reviews/movies/map.png""#, #"href="/reviews/movies/notes/a.txt?x=1#y""#,
            #"href="/reviews/books/""#, #"href="/x""#, ##"href="#part""##, #"href="/reviews/about/""#,
            #"href="https://example.org/a""#, #"href="mailto:me@example.org""#, #"href="?sort=1""#,
        ] {
            #expect(html.contains(expected), "\(expected) in \(html)")
        }
        #expect(MarkdownLinks.rooted("a/./b/../c/", in: "/m/") == "/m/a/c/")
        #expect(MarkdownLinks.rooted("..", in: "/m/") == "/")
    }
}
