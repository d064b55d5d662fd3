import Foundation
import SiteGenCLI
import Testing

/// A site's own theme that nests too deep or recurses forever fails the build with a
/// located error, in the binary users run.
@Suite("hostile site themes")
struct ThemeLimitsTests {
    static let site = [
        "site.yml": "title: Test Reviews\nbase_url: https://example.org/\n",
        "content/movies/heat.md": "---\ntitle: Heat\ndate: 2024-05-01\n---\nGood.\n",
    ]

    @Test("a review template with 20,000 nested sections fails the build at the section one too deep")
    func deepSections() async throws {
        var files = Self.site
        files["Templates/review.mustache"] =
            String(repeating: "{{#review}}", count: 20_000) + "x" + String(repeating: "{{/review}}", count: 20_000)
        let failed = try await buildThatFails(files)
        #expect(
            failed.err == """
                Templates/review.mustache:1:11001: sections, blocks and partials nest more than 1000 deep
                    rendering movies/heat/index.html
                rendering failed: 1 error

                """)
        #expect(!failed.madeOutput)
    }

    @Test("a template error met on some pages only names the first of them in path order, and counts the others")
    func errorNamesThePage() async throws {
        var files = Self.site
        files["site.yml"] = "title: Test Reviews\nbase_url: https://example.org/\nextra_fields: [aside]\n"
        // Reviews name a partial of their own; one of them a partial the theme does not have.
        files["Templates/review.mustache"] = "{{#review.extra.aside}}{{>*review.extra.aside}}{{/review.extra.aside}}"
        files["Templates/note.mustache"] = "A note."
        files["content/movies/alien.md"] = "---\ntitle: Alien\ndate: 2024-05-02\naside: note\n---\n"
        files["content/movies/ran.md"] = "---\ntitle: Ran\ndate: 2024-05-03\naside: nope\n---\n"
        files["content/movies/zulu.md"] = "---\ntitle: Zulu\ndate: 2024-05-04\naside: nope\n---\n"
        files["content/movies/ikiru.md"] = "---\ntitle: Ikiru\ndate: 2024-05-05\naside: nope\n---\n"
        let failed = try await buildThatFails(files)
        #expect(
            failed.err == """
                Templates/review.mustache:1:24: no template named "nope"
                    rendering movies/ikiru/index.html (and 2 other pages)
                rendering failed: 1 error

                """)
        #expect(!failed.madeOutput)
    }

    @Test("a theme partial that includes itself fails the build at the tag, with the chain of partials")
    func endlessPartial() async throws {
        var files = Self.site
        files["Templates/review.mustache"] = "{{>loop}}"
        files["Templates/loop.mustache"] = "x\n {{>loop}}"
        let failed = try await buildThatFails(files)
        // The 199 times the partial included itself take one line.
        #expect(
            failed.err == """
                Templates/loop.mustache:2:2: partials nest more than 200 deep (endless recursion?)
                    included from Templates/loop.mustache:2:2 (199 times)
                    included from Templates/review.mustache:1:1
                    rendering movies/heat/index.html
                rendering failed: 1 error

                """)
    }
}
