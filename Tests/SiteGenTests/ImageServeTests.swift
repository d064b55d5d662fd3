import Foundation
import ImageProcessing
import Testing

@testable import SiteGen

/// `sitegen serve` and reviews' own images, through the file watcher: a saved image reaches
/// its page, a broken one is reported and the last good site kept, a page bundle moved away
/// is gone.
@Suite("sitegen serve with reviews' own images", .serialized)
struct ImageServeTests {
    @Test("an image saved beside a review reaches its page; new pixels alone are a change to that review")
    func imageEdits() async throws {
        let site = try ServedSite([
            "site.yml": "title: Images\nbase_url: https://example.org/\n",
            "content/movies/heat/index.md": Self.heat(image: false),
            "content/movies/alien.md": "---\ntitle: Alien\ndate: 2024-01-01\n---\nA review.\n",
        ])
        #expect(try site.request("GET", "/movies/heat/").text.contains("<picture>") == false)

        try Self.save(
            TestImage.encoded(.jpeg, width: 600, height: 900, seed: 1), site, "content/movies/heat/poster.jpg")
        try site.write("content/movies/heat/index.md", Self.heat(image: true))
        _ = try #require(
            await site.waitForRebuild(timeout: 30) {
                $0.update?.changedFiles.contains { $0.hasSuffix(".webp") } == true
            }, "\(site.log)")
        let first = try Self.imageURL(try site.request("GET", "/movies/heat/").text)
        let served = try site.request("GET", first)
        #expect(served.status == 200)
        #expect(served.header("Content-Type") == "image/jpeg")
        #expect(try ImageProcessor.inspect(Data(served.body)) == ImageInfo(format: .jpeg, width: 480, height: 720))

        // Only the image file changes: the review's page and image follow.
        let count = site.rebuilds.count
        try Self.save(
            TestImage.encoded(.jpeg, width: 600, height: 900, seed: 2), site, "content/movies/heat/poster.jpg")
        let update = try #require(await site.waitForRebuild(after: count, timeout: 30)?.update)
        #expect(update.kind == .reviews)
        let second = try Self.imageURL(try site.request("GET", "/movies/heat/").text)
        #expect(second != first)
        #expect(try site.request("GET", second).status == 200)
        #expect(try site.request("GET", first).status == 404)
        #expect(update.changedFiles.contains(String(first.dropFirst())))
        #expect(update.changedFiles.contains(String(second.dropFirst())))
        #expect(update.changedFiles.contains("movies/heat/index.html"))
        #expect(try site.request("GET", "/").text.contains(second))

        // A broken image: the errors, at the field, and the last good site still served.
        let failures = site.rebuilds.count
        try Self.save(Data("not an image".utf8), site, "content/movies/heat/poster.jpg")
        let failed = try #require(await site.waitForRebuild(after: failures, timeout: 30) { $0.errors != nil })
        #expect(
            failed.errors?.contains(
                #"content/movies/heat/index.md:4:8: "image" names content/movies/heat/poster.jpg, "#
                    + "which is not a JPEG, PNG or WebP image") == true, "\(failed.errors ?? "")")
        #expect(try site.request("GET", second).status == 200)
        let fixes = site.rebuilds.count
        try Self.save(
            TestImage.encoded(.jpeg, width: 600, height: 900, seed: 2), site, "content/movies/heat/poster.jpg")
        _ = try #require(await site.waitForRebuild(after: fixes, timeout: 30) { $0.errors == nil })
        #expect(try Self.imageURL(try site.request("GET", "/movies/heat/").text) == second)
    }

    @Test("a page bundle moved out of the site is gone, its images with it")
    func bundleMovedAway() async throws {
        let site = try ServedSite([
            "site.yml": "title: Images\nbase_url: https://example.org/\n",
            "content/movies/heat/index.md": Self.heat(image: false),
            "content/movies/alien.md": "---\ntitle: Alien\ndate: 2024-01-01\n---\nA review.\n",
        ])
        try Self.save(TestImage.encoded(.jpeg, width: 300, height: 450), site, "content/movies/heat/poster.jpg")
        try site.write("content/movies/heat/index.md", Self.heat(image: true))
        _ = try #require(
            await site.waitForRebuild(timeout: 30) {
                $0.update?.changedFiles.contains { $0.hasSuffix(".webp") } == true
            })
        let image = try Self.imageURL(try site.request("GET", "/movies/heat/").text)
        let count = site.rebuilds.count
        try FileManager.default.moveItem(
            at: site.folder.appendingPathComponent("content/movies/heat"),
            to: site.folder.appendingPathComponent("moved-away"))
        let update = try #require(await site.waitForRebuild(after: count, timeout: 30)?.update)
        #expect(update.kind == .reviews)
        #expect(try site.request("GET", "/movies/heat/").status == 404)
        #expect(try site.request("GET", image).status == 404)
        #expect(try site.request("GET", "/movies/alien/").status == 200)
    }

    static func heat(image: Bool) -> String {
        "---\ntitle: Heat\ndate: 2024-02-01\n\(image ? "image: poster.jpg\n" : "")---\nA review.\n"
    }

    /// Saves bytes the way an editor does: a file aside, renamed over the old one.
    static func save(_ data: Data, _ site: ServedSite, _ path: String) throws {
        try data.write(to: site.folder.appendingPathComponent(path), options: .atomic)
    }

    /// The `src` of the review page's `<img>`.
    static func imageURL(_ page: String) throws -> String {
        String(try #require(page.firstMatch(of: /<img src="([^"]+)"/)).output.1)
    }
}
