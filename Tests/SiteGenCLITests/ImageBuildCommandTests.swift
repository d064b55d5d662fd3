import Foundation
import SiteGenCLI
import Testing

/// `sitegen build` with reviews' own images, end to end (the release binary when
/// `SITEGEN_BINARY` is set): the files published, and a wrong image's message and exit code.
@Suite("sitegen build with reviews' own images")
struct ImageBuildCommandTests {
    @Test("a page bundle's image is published beside its page, never enlarged, in PNG and WebP")
    func publishes() async throws {
        let site = try TemporaryFolder(imageSite)
        try Data(base64Encoded: tinyPNG)!.write(to: site.url.appendingPathComponent("content/movies/heat/poster.png"))
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 0)
        #expect(console.err.isEmpty, "\(console.err)")
        let published = try FileManager.default.contentsOfDirectory(
            atPath: site.url.appendingPathComponent("public/movies/heat").path
        ).sorted()
        let png = try #require(published.first { $0.hasSuffix(".png") }, "\(published)")
        let name = try #require(png.wholeMatch(of: /poster-8-([0-9a-f]{8})\.png/)).output.1
        #expect(published == ["index.html", "poster-8-\(name).png", "poster-8-\(name).webp"])
        let page = String(
            decoding: try Data(contentsOf: site.url.appendingPathComponent("public/movies/heat/index.html")),
            as: UTF8.self)
        #expect(page.contains(#"<source type="image/webp" srcset="/movies/heat/poster-8-\#(name).webp 8w""#))
        #expect(
            page.contains(
                #"<img src="/movies/heat/poster-8-\#(name).png" srcset="/movies/heat/poster-8-\#(name).png 8w""#))
        #expect(page.contains(#"alt="Poster of Heat" width="8" height="12""#))
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent(".sitegen/images").path))
    }

    @Test("wrong images: every one at its field's line and column, exit 1, nothing written")
    func wrongImages() async throws {
        var files = imageSite
        files["content/movies/heat/poster.png"] = "not a picture"
        files["content/movies/alien.md"] = "---\ntitle: Alien\ndate: 2024-01-02\nimage:  alien.jpg\n---\nA review.\n"
        let failed = try await buildThatFails(files)
        #expect(failed.out.isEmpty)
        #expect(
            failed.err == """
                content/movies/alien.md:4:9: "image" names content/movies/alien.jpg, which does not exist
                content/movies/heat/index.md:4:8: "image" names content/movies/heat/poster.png, which is not a JPEG, PNG or WebP image
                processing images failed: 2 errors

                """)
        #expect(!failed.madeOutput)
    }

    @Test("an image path leaving the review's folder is refused while loading")
    func outsideTheFolder() async throws {
        var files = imageSite
        files["content/movies/heat/index.md"] =
            "---\ntitle: Heat\ndate: 2024-01-01\nimage: ../../../site.yml\n---\nA review.\n"
        let failed = try await buildThatFails(files)
        #expect(
            failed.err == """
                content/movies/heat/index.md:4:8: "image" must name a file inside the review's folder content/movies/heat/ (like "poster.jpg"), not "../../../site.yml"
                loading the site failed: 1 error

                """)
    }
}

private let imageSite: [String: String] = [
    "site.yml": "title: Images\nbase_url: https://example.org/\n",
    "content/movies/heat/index.md": "---\ntitle: Heat\ndate: 2024-01-01\nimage: poster.png\n---\nA review.\n",
]

/// An 8 × 12 RGB PNG, written by hand (zlib-compressed rows of a gradient).
private let tinyPNG = """
    iVBORw0KGgoAAAANSUhEUgAAAAgAAAAMCAIAAADQ/GvKAAAArklEQVR42g3JIQEAIQxA0YVAowmxEOhpQkz+AOhpQizE6WnCHM8+EaELKpjgQggplCDS6A1tWMMb0chGtReDPtCBDXwQgxzUeKF0RRVTXAklldIXkz7RiU18EpOc1Hyx6Atd2MIXschFrRdOd9Qxx51w0il/sekb3djGN7HJTe0Xh37Qgx38EIc81HmR9EQTSzyJJJPKFx/9Qz/swz/iIz/qe3HpF73YxS9xyUtdfu6LgKG/w3xbAAAAAElFTkSuQmCC
    """
