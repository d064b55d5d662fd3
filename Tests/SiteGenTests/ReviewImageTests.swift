import Foundation
import ImageProcessing
import Mustache
import Testing

@testable import SiteGen

/// Reviews' own images as the loader and the image step see them: page bundles, the `image`
/// field, the published sizes, and every way an image can be wrong, each at the field's line
/// and column. (Builds on disk, the cache and the pages are in ``ImageBuildTests``.)
@Suite("Reviews' own images")
struct ReviewImageTests {
    @Test("a page bundle is one review named after its folder; its image is published beside its page")
    func bundle() throws {
        var site = InMemorySite([
            "content/movies/parasite/index.md": reviewFile("title: Parasite\ndate: 2024-01-01\nimage: poster.jpg"),
            "content/movies/parasite/notes.txt": "the bundle's own file",
        ])
        site.binary["content/movies/parasite/poster.jpg"] = try TestImage.encoded(.jpeg, width: 1000, height: 1500)
        let content = try publish(site)
        let review = try #require(content.reviews.first)
        #expect(review.source == "content/movies/parasite/index.md")
        #expect(review.slug == "parasite")
        #expect(review.path == "movies/parasite/")
        #expect(content.warnings.isEmpty, "\(content.warnings)")
        let image = try #require(review.image)
        #expect(image.source == "content/movies/parasite/poster.jpg")
        #expect(image.location == SourceLocation(path: "content/movies/parasite/index.md", line: 4, column: 8))
        #expect(image.variants.map(\.width) == [240, 240, 480, 480, 780, 780])
        #expect(image.variants.map(\.height) == [360, 360, 720, 720, 1170, 1170])
        #expect(image.variants.map(\.format) == [.jpeg, .webp, .jpeg, .webp, .jpeg, .webp])
        let stamp = try #require(
            image.variants.first?.path.wholeMatch(of: /movies\/parasite\/poster-240-([0-9a-f]{8})\.jpg/)
        )
        .output.1
        for variant in image.variants {
            #expect(variant.path == "movies/parasite/poster-\(variant.width)-\(stamp).\(variant.format.fileExtension)")
            let data = try #require(content.staticFiles[variant.path], "\(variant.path)")
            #expect(
                try ImageProcessor.inspect(data)
                    == ImageInfo(format: variant.format, width: variant.width, height: variant.height))
        }
    }

    @Test("an image beside a review file or in a folder below it; books get a cover; other files are still ignored")
    func besideAReviewFile() throws {
        var site = InMemorySite([
            "content/books/stoner.md": reviewFile("title: Stoner\ndate: 2024-01-01\nimage: stoner.png"),
            "content/books/alien.md": reviewFile("title: Alien\ndate: 2024-01-02\nimage: ./covers//alien.webp"),
            "content/books/notes.txt": "scratch",
            "content/books/drafts/old.txt": "scratch",
        ])
        site.binary["content/books/stoner.png"] = TestImage.png(width: 100, height: 150)
        site.binary["content/books/covers/alien.webp"] = try TestImage.encoded(.webp, width: 600, height: 900)
        let content = try publish(site)
        #expect(
            content.warnings.map(\.description) == [
                "content/books/drafts:1:1: warning: ignored: a folder in a section is a review (a page bundle) "
                    + "only when it holds index.md",
                "content/books/notes.txt:1:1: warning: ignored: only .md files belong in a section folder",
            ])
        let images = Dictionary(uniqueKeysWithValues: content.reviews.map { ($0.slug, $0.image) })
        // Never enlarged: a 100 px wide PNG is published at 100 px, as PNG and WebP.
        let stoner = try #require(images["stoner"] ?? nil)
        #expect(stoner.source == "content/books/stoner.png")
        #expect(
            stoner.variants.map { "\($0.format.rawValue) \($0.width)x\($0.height)" } == ["png 100x150", "webp 100x150"])
        #expect(stoner.variants.allSatisfy { $0.path.hasPrefix("books/stoner/cover-100-") })
        // A WebP original is published in WebP alone, up to its own width.
        let alien = try #require(images["alien"] ?? nil)
        #expect(alien.source == "content/books/covers/alien.webp")
        #expect(alien.variants.map { "\($0.format.rawValue) \($0.width)" } == ["webp 240", "webp 480", "webp 600"])
    }

    @Test("\"slug\" names a bundle's page; a folder name that cannot be a URL is an error in index.md")
    func bundleSlugs() throws {
        let named = InMemorySite([
            "content/movies/my film/index.md": reviewFile("title: X\ndate: 2024-01-01\nslug: mine")
        ])
        #expect(try named.load().reviews.map(\.path) == ["movies/mine/"])
        let unnamed = InMemorySite(["content/movies/my film/index.md": reviewFile("title: X\ndate: 2024-01-01")])
        #expect(
            unnamed.problems() == [
                #"content/movies/my film/index.md:2:1: the folder name "my film" cannot be a URL: rename it or set "slug""#
            ])
        let twice = InMemorySite([
            "content/movies/heat.md": reviewFile("title: Heat\ndate: 2024-01-01"),
            "content/movies/heat/index.md": reviewFile("title: Heat again\ndate: 2024-01-01"),
        ])
        #expect(
            twice.problems() == [
                "content/movies/heat/index.md:1:1: /movies/heat/ is also the output of content/movies/heat.md"
            ])
    }

    @Test(
        "a wrong image is an error at the field's line and column",
        arguments: [
            ("missing.jpg", #""image" names content/movies/x/missing.jpg, which does not exist"#),
            (
                "../y/poster.jpg",
                #""image" must name a file inside the review's folder content/movies/x/ (like "poster.jpg"), not "../y/poster.jpg""#
            ),
            (
                "../../../etc/passwd",
                #""image" must name a file inside the review's folder content/movies/x/ (like "poster.jpg"), not "../../../etc/passwd""#
            ),
            (
                "/etc/passwd",
                #""image" must name a file inside the review's folder content/movies/x/ (like "poster.jpg"), not "/etc/passwd""#
            ),
            // A combining mark after the slash or backslash: one Character with it, not "/" or "\\".
            (
                "/\u{301}etc",
                #""image" must name a file inside the review's folder content/movies/x/ (like "poster.jpg"), not "/\#u{301}etc""#
            ),
            (
                "a\\\u{301}b.jpg",
                #""image" must name a file inside the review's folder content/movies/x/ (like "poster.jpg"), not "a\\#u{301}b.jpg""#
            ),
            (
                ".img/poster.jpg",
                #""image" names ".img/poster.jpg", a hidden file or folder (its name starts with a dot), which sitegen does not read: rename it"#
            ),
            (
                ".poster.jpg",
                #""image" names ".poster.jpg", a hidden file or folder (its name starts with a dot), which sitegen does not read: rename it"#
            ),
            (
                "https://example.org/p.jpg",
                #""image" must be a file beside the review, not a web address: save the image in content/movies/x/ and write its name here"#
            ),
            ("leak.jpg", #""image" names content/movies/x/leak.jpg, a link to a place outside the site folder"#),
            ("notes.txt", #""image" names content/movies/x/notes.txt, which is not a JPEG, PNG or WebP image"#),
            (
                "cut.jpg",
                #""image" names content/movies/x/cut.jpg, which is damaged or cut short: it cannot be decoded"#
            ),
            (
                "bomb.png",
                #""image" names content/movies/x/bomb.png, which is 10000×6000 pixels (60,000,000): at most 50,000,000 are allowed"#
            ),
            (
                "odd.png",
                #""image" names content/movies/x/odd.png, which is 7071×7072 pixels (50,006,112): at most 50,000,000 are allowed"#
            ),
            (
                "tall.png",
                #""image" names content/movies/x/tall.png, which is 100×500000 pixels: at 100 pixels wide it would be 500,000 high, more than WebP allows (16,383)"#
            ),
            (
                "anim.gif",
                #""image" names content/movies/x/anim.gif, which is in the GIF format: use a JPEG, PNG or WebP image"#
            ),
            ("stills", #""image" names content/movies/x/stills, which is a folder, not an image"#),
            (
                "\"\"",
                #""image" must name a file inside the review's folder content/movies/x/ (like "poster.jpg"), not """#
            ),
        ])
    func wrongImage(value: String, message: String) throws {
        var site = InMemorySite([
            "content/movies/x/index.md": reviewFile("title: X\ndate: 2024-01-01\nimage: \(value)"),
            "content/movies/x/notes.txt": "not an image",
            "content/movies/x/stills/a.txt": "a folder",
            "content/movies/y/index.md": reviewFile("title: Y\ndate: 2024-01-01"),
        ])
        site.binary["content/movies/y/poster.jpg"] = try TestImage.encoded(.jpeg, width: 40, height: 60)
        let jpeg = try TestImage.encoded(.jpeg, width: 300, height: 450)
        site.binary["content/movies/x/cut.jpg"] = jpeg.prefix(jpeg.count / 2)
        site.binary["content/movies/x/.img/poster.jpg"] = jpeg
        site.binary["content/movies/x/.poster.jpg"] = jpeg
        site.binary["content/movies/x/bomb.png"] = TestImage.pngClaiming(width: 10000, height: 6000)
        site.binary["content/movies/x/odd.png"] = TestImage.pngClaiming(width: 7071, height: 7072)
        site.binary["content/movies/x/tall.png"] = TestImage.pngClaiming(width: 100, height: 500_000)
        site.binary["content/movies/x/anim.gif"] = Self.gif
        site.links["content/movies/x/leak.jpg"] = "/etc/hostname"
        #expect(problems(site) == ["content/movies/x/index.md:4:8: \(message)"])
    }

    @Test("\"image\" must be text; every wrong image in the site is reported, and nothing is published")
    func everyProblem() throws {
        var site = InMemorySite([
            "content/movies/a.md": reviewFile("title: A\ndate: 2024-01-01\nimage: [a.jpg, b.jpg]"),
            "content/movies/b.md": reviewFile("title: B\ndate: 2024-01-01\nimage: b.jpg"),
            "content/books/c.md": reviewFile("title: C\ndate: 2024-01-01\nrating: 3\nimage:   c.jpg"),
        ])
        site.binary["content/books/c.jpg"] = Data("not a JPEG".utf8)
        #expect(problems(site) == [#"content/movies/a.md:4:8: "image" must be text, not a list"#])
        site.files["content/movies/a.md"] = reviewFile("title: A\ndate: 2024-01-01")
        #expect(
            problems(site) == [
                #"content/books/c.md:5:10: "image" names content/books/c.jpg, which is not a JPEG, PNG or WebP image"#,
                #"content/movies/b.md:4:8: "image" names content/movies/b.jpg, which does not exist"#,
            ])
    }

    @Test("a link to an image elsewhere in the site is followed")
    func linkInsideTheSite() throws {
        var site = InMemorySite([
            "content/movies/x.md": reviewFile("title: X\ndate: 2024-01-01\nimage: x.png")
        ])
        site.binary["shared/x.png"] = TestImage.png(width: 30, height: 40)
        site.links["content/movies/x.png"] = InMemorySite.root.path + "/shared/x.png"
        let image = try #require(try publish(site).reviews.first?.image)
        #expect(image.variants.map(\.width) == [30, 30])
    }

    /// A 1×1 GIF.
    static let gif = Data([
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x21, 0xF9, 0x04, 0x01,
        0, 0, 0, 0, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0, 0x3B,
    ])
}

/// The site loaded and its images processed (no cache: the site is in memory).
private func publish(_ site: InMemorySite) throws -> SiteContent {
    let content = try site.load()
    return try ReviewImages(folder: SiteFolder(root: InMemorySite.root, fileSystem: site.fileSystem), cache: nil)
        .publish(content)
}

/// The problems loading or processing images reports, as `path:line:column: message` lines.
private func problems(_ site: InMemorySite) -> [String] {
    do {
        _ = try publish(site)
        return []
    } catch let error as BuildError {
        return error.diagnostics.map(\.description)
    } catch {
        return ["unexpected error: \(error)"]
    }
}
