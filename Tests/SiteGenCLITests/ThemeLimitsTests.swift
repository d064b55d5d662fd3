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

    @Test("a limit that takes long to reach stops the rendering of every other page, in one error")
    func costlyLimitStops() async throws {
        var files = Self.site
        for number in 1...40 {
            files["content/movies/film-\(number).md"] = "---\ntitle: Film \(number)\ndate: 2024-05-01\n---\nWords.\n"
        }
        // Each partial includes the next twice: the last one's kilobyte comes 2^24 times.
        for level in 0..<24 { files["Templates/l\(level).mustache"] = "{{>l\(level + 1)}}{{>l\(level + 1)}}" }
        files["Templates/l24.mustache"] = String(repeating: "x", count: 1024)
        files["Templates/review.mustache"] = "{{>l0}}"
        let failed = try await buildThatFails(files)
        let lines = failed.err.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix(": the output is larger than 268435456 bytes") == true, "\(lines.prefix(3))")
        // One error, for the one or two pages (one per core) rendered before the rendering stopped.
        #expect(lines.filter { $0.contains("the output is larger") }.count == 1)
        let rendering = try #require(lines.first { $0.hasPrefix("    rendering movies/") })
        #expect(
            rendering.hasSuffix("/index.html") || rendering.hasSuffix("(and 1 other page)")
                || rendering.hasSuffix("(and 2 other pages)"), "\(rendering)")
        #expect(
            lines.contains("    the rendering of the remaining pages stopped here: each could take as long to fail"))
        #expect(lines.last == "rendering failed: 1 error")
        #expect(!failed.madeOutput)
    }
}
