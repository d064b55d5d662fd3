import Foundation
import ImageProcessing
import Mustache
import Testing

@testable import SiteGen

/// Reviews' own images in whole builds on disk: the pages' `<picture>`, precedence over
/// fetched posters, the cache in `.sitegen/images/`, reproducible bytes, and all-or-nothing.
@Suite("Images in builds")
struct ImageBuildTests {
    @Test("the review's own image wins over the fetched poster, which is not published; pages offer WebP first")
    func ownImageWins() throws {
        let site = try ImageSite()
        _ = try site.build()
        let stamp = try site.stamp()
        let page = try site.output("movies/parasite/index.html")
        let base = "/movies/parasite/poster"
        let webp = "\(base)-240-\(stamp).webp 240w, \(base)-480-\(stamp).webp 480w, \(base)-780-\(stamp).webp 780w"
        let jpeg = "\(base)-240-\(stamp).jpg 240w, \(base)-480-\(stamp).jpg 480w, \(base)-780-\(stamp).jpg 780w"
        let lines = page.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let picture = [
            "<picture>",
            #"<source type="image/webp" srcset="\#(webp)" sizes="(min-width: 48em) 15rem, 55vw">"#,
            #"<img src="\#(base)-480-\#(stamp).jpg" srcset="\#(jpeg)" sizes="(min-width: 48em) 15rem, 55vw" "#
                + #"alt="Poster of Parasite" width="480" height="720" fetchpriority="high">"#,
            "</picture>",
        ]
        #expect(lines.joined(separator: "\n").contains(picture.joined(separator: "\n")), "\(page)")
        #expect(page.contains(#"<meta property="og:image" content="https://example.org\#(base)-780-\#(stamp).jpg">"#))
        #expect(page.contains(#"<meta property="og:image:height" content="1170">"#))
        #expect(!page.contains("tmdb-1-w342"))
        // Cards (the home page) use the card's sizes; a fetched poster has no WebP source.
        let home = try site.output("index.html")
        #expect(home.contains(#"<source type="image/webp" srcset="\#(webp)" sizes="(min-width: 48em) 12rem, 45vw">"#))
        #expect(home.contains(#"<img src="/images/tmdb-2-w342.svg" alt="Poster of Heat" width="342" height="513""#))
        #expect(site.exists("public/images/tmdb-2-w342.svg"))
        #expect(!site.exists("public/images/tmdb-1-w342.svg"))
        for width in [240, 480, 780] {
            for format in [ImageFormat.jpeg, .webp] {
                let data = try site.data("public\(base)-\(width)-\(stamp).\(format.fileExtension)")
                #expect(
                    try ImageProcessor.inspect(data) == ImageInfo(format: format, width: width, height: width * 3 / 2))
            }
        }
    }

    @Test("a second build reads processed images from .sitegen/images/ instead of processing them again")
    func cacheIsUsed() throws {
        let site = try ImageSite()
        _ = try site.build()
        let cached = try site.cacheFiles()
        #expect(cached.count == 7, "\(cached)")
        let index = try #require(cached.first { $0.hasSuffix(".index") })
        let key = index.dropLast(".index".count)
        // Put other (valid) bytes in the cache, recorded as they are: only a build that reads the cache publishes them.
        let other = try TestImage.encoded(.jpeg, width: 240, height: 360, seed: 9)
        let original = try site.data(".sitegen/images/\(key)-240.jpg")
        try site.write(".sitegen/images/\(key)-240.jpg", other)
        let text = try String(decoding: site.data(".sitegen/images/\(index)"), as: UTF8.self)
        try site.write(
            ".sitegen/images/\(index)",
            Data(text.replacingOccurrences(of: "\(ContentHash(original))", with: "\(ContentHash(other))").utf8))
        _ = try site.build()
        #expect(try site.data("public/movies/parasite/poster-240-\(site.stamp()).jpg") == other)
    }

    @Test("a damaged or partial cache entry is processed again, with the same result")
    func damagedCache() throws {
        let site = try ImageSite()
        _ = try site.build()
        let published = try site.publishedImages()
        let key = try #require(try site.cacheFiles().first { $0.hasSuffix(".index") }?.dropLast(".index".count))
        try site.write(".sitegen/images/\(key)-480.webp", Data("damaged".utf8))
        try FileManager.default.removeItem(at: site.url(".sitegen/images/\(key)-780.jpg"))
        _ = try site.build()
        #expect(try site.publishedImages() == published)
        #expect(
            try site.data(".sitegen/images/\(key)-480.webp")
                == published["movies/parasite/poster-480-\(key.prefix(8)).webp"])
    }

    @Test("the same image gives the same bytes: two builds, each with an empty cache")
    func reproducible() throws {
        let site = try ImageSite()
        _ = try site.build()
        let first = try site.publishedImages()
        #expect(first.count == 6)
        try FileManager.default.removeItem(at: site.url(".sitegen"))
        try FileManager.default.removeItem(at: site.url("public"))
        _ = try site.build()
        #expect(try site.publishedImages() == first)
    }

    @Test(
        "images that cannot be kept in .sitegen/images/ (a file there, a link out) are a warning; they are published all the same"
    )
    func cacheNotKept() throws {
        let site = try ImageSite()
        _ = try site.build()
        let published = try site.publishedImages()
        try FileManager.default.removeItem(at: site.url(".sitegen"))
        try FileManager.default.removeItem(at: site.url("public"))
        // A file where the cache's folder should be.
        try site.write(".sitegen/images", Data("not a folder".utf8))
        for _ in 1...2 {
            let report = try site.build()
            #expect(
                report.warnings.map(\.description) == [
                    ".sitegen/images: warning: processed images cannot be kept (a file is where a folder is needed), "
                        + "so each build decodes and encodes every image again: make .sitegen a folder sitegen can "
                        + "write to"
                ])
            #expect(try site.publishedImages() == published)
            #expect(try site.data(".sitegen/images") == Data("not a folder".utf8))
        }
        // Nor through a link out of the site: nothing is written where it leads.
        let outside = try ScratchFolder()
        try FileManager.default.createDirectory(at: outside.url, withIntermediateDirectories: true)
        try FileManager.default.removeItem(at: site.url(".sitegen/images"))
        try FileManager.default.createSymbolicLink(at: site.url(".sitegen/images"), withDestinationURL: outside.url)
        #expect(
            try site.build().warnings.map(\.description) == [
                ".sitegen/images: warning: processed images cannot be kept (a link on the way leads out of the site "
                    + "folder, or nowhere), so each build decodes and encodes every image again: make .sitegen a "
                    + "folder sitegen can write to"
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.url.path).isEmpty)
        #expect(try site.publishedImages() == published)
        // With the folder back, the warning goes.
        try FileManager.default.removeItem(at: site.url(".sitegen/images"))
        #expect(try site.build().warnings.isEmpty)
        #expect(try site.cacheFiles().count == 7)
    }

    @Test("a file of static/ where fetched posters need a folder stops build and serve at the file, not at a write")
    func staticInFetchedImagesWay() throws {
        let site = try ImageSite()
        _ = try site.build()
        let before = try site.snapshot()
        let served = try LiveSite.build(SiteBuilder(options: .init(source: site.url(""), output: site.url("public"))))
        try site.write("static/images", Data("a file".utf8))
        let expected = [
            "static/images:1:1: static/images is a file where sitegen writes /images/tmdb-2-w342.svg, which needs it "
                + "to be a folder: rename or remove it"
        ]
        let built = #expect(throws: BuildError.self) { _ = try site.build() }
        #expect(built?.diagnostics.map(\.description) == expected)
        #expect(try site.snapshot() == before)
        let updated = #expect(throws: BuildError.self) { _ = try served.updating(["static/images"]) }
        #expect(updated?.diagnostics.map(\.description) == expected)
        #expect(updated?.step == built?.step)
        // A file inside the folder of a fetched poster's name: the other way round.
        try FileManager.default.removeItem(at: site.url("static/images"))
        try site.write("static/images/tmdb-2-w342.svg/a.txt", Data("x".utf8))
        let inside = #expect(throws: BuildError.self) { _ = try site.build() }
        #expect(
            inside?.diagnostics.map(\.description) == [
                "static/images/tmdb-2-w342.svg/a.txt:1:1: static/images/tmdb-2-w342.svg/a.txt needs a folder where "
                    + "sitegen writes /images/tmdb-2-w342.svg: rename or remove it"
            ])
    }

    @Test("a file of static/ of a fetched poster's name: the poster is published, with a warning naming the file")
    func staticUnderFetchedPoster() throws {
        let site = try ImageSite()
        _ = try site.build()
        let served = try LiveSite.build(SiteBuilder(options: .init(source: site.url(""), output: site.url("public"))))
        let poster = try site.data("public/images/tmdb-2-w342.svg")
        try site.write("static/images/tmdb-2-w342.svg", Data("mine".utf8))
        let expected = [
            "static/images/tmdb-2-w342.svg:1:1: warning: static/images/tmdb-2-w342.svg is not published: the image "
                + "fetched for content/movies/heat.md has its name and takes its place; to show an image of your "
                + "own, name it in the review's \"image\" (or rename the file)"
        ]
        #expect(try site.build().warnings.map(\.description) == expected)
        #expect(try site.data("public/images/tmdb-2-w342.svg") == poster)
        let updated = try served.updating(["static/images/tmdb-2-w342.svg"])
        #expect(updated.lastReading.warnings.map(\.description) == expected)
        #expect(updated.files["images/tmdb-2-w342.svg"] == poster)
        // A review saved again says it too; once the file is gone, nothing does.
        let saved = try updated.updating(["content/movies/heat.md"])
        #expect(saved.lastReading.warnings.map(\.description) == expected)
        try FileManager.default.removeItem(at: site.url("static/images/tmdb-2-w342.svg"))
        #expect(try site.build().warnings.isEmpty)
        #expect(try saved.updating(["static/images/tmdb-2-w342.svg"]).lastReading.warnings.isEmpty)
    }

    @Test("serve: a review that comes to show a fetched poster where a file of static/ is in the way is refused")
    func fetchedPosterComesInTheWay() throws {
        let folder = try ScratchFolder()
        try folder.write("site.yml", "title: Images\nbase_url: https://example.org/\n")
        try folder.write("content/movies/heat.md", "---\ntitle: Heat\ndate: 2024-01-01\n---\nA review.\n")
        try folder.write(
            "metadata/movies/tmdb-2.json",
            #"{"kind": "movie", "source": "tmdb", "id": "2", "title": "Film 2", "images": "#
                + #"[{"file": "images/tmdb-2-w342.svg", "width": 342, "height": 513, "size": "w342"}]}"#)
        try folder.write("metadata/images/tmdb-2-w342.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n")
        try folder.write("static/images", "a file")
        let builder = SiteBuilder(
            options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")))
        let served = try LiveSite.build(builder)
        try folder.write("content/movies/heat.md", "---\ntitle: Heat\ndate: 2024-01-01\ntmdb: 2\n---\nA review.\n")
        let built = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        let updated = #expect(throws: BuildError.self) { _ = try served.updating(["content/movies/heat.md"]) }
        #expect(updated?.diagnostics == built?.diagnostics)
        #expect(updated?.step == built?.step)
        #expect(built?.diagnostics.first?.description.hasPrefix("static/images:1:1: static/images is a file") == true)
    }

    @Test("a broken image stops the build with its place, and public/ stays as it was")
    func allOrNothing() throws {
        let site = try ImageSite()
        _ = try site.build()
        let before = try site.snapshot()
        let poster = try site.data("content/movies/parasite/poster.jpg")
        try site.write("content/movies/parasite/poster.jpg", poster.prefix(poster.count / 3))
        #expect(
            throws: BuildError(
                step: "processing images",
                diagnostics: [
                    Diagnostic(
                        #""image" names content/movies/parasite/poster.jpg, which is damaged or cut short: it cannot be decoded"#,
                        at: Mustache.SourceLocation(path: "content/movies/parasite/index.md", line: 5, column: 8))
                ])
        ) { try site.build() }
        #expect(try site.snapshot() == before)
    }

    @Test("a replaced image's cache entry goes once no build used it for two weeks; the one in use stays")
    func cachePruned() throws {
        let site = try ImageSite()
        _ = try site.build()
        let first = try site.cacheFiles()
        try site.replacePoster()
        _ = try site.build()
        // Both entries: the replaced one was used too recently to go.
        let both = try site.cacheFiles()
        #expect(both.count == 14, "\(both)")
        let second = both.filter { !first.contains($0) }
        // Fifteen days later (both entries dated back): only the entry in use is left, and it is marked used again.
        for name in both { try site.age(".sitegen/images/\(name)", days: 15) }
        _ = try site.build()
        #expect(try site.cacheFiles() == second)
        let index = try #require(second.first { $0.hasSuffix(".index") })
        let marked = try FileManager.default.attributesOfItem(atPath: site.url(".sitegen/images/\(index)").path)
        #expect(try #require(marked[.modificationDate] as? Date) > Date().addingTimeInterval(-3600))
        // A build that finds nothing changed (the manifest says so) reads no image and removes nothing.
        _ = try site.build(usesManifest: true)
        for name in second { try site.age(".sitegen/images/\(name)", days: 30) }
        #expect(try site.build(usesManifest: true).upToDate)
        #expect(try site.cacheFiles() == second)
        // Once the review has no image of its own, the next build removes its old entry.
        try site.folder.write(
            "content/movies/parasite/index.md", "---\ntitle: Parasite\ndate: 2024-01-02\ntmdb: 1\n---\nA review.\n")
        #expect(try site.build(usesManifest: true).upToDate == false)
        #expect(try site.cacheFiles() == [])
    }

    @Test("pruning removes only entries' files that are unused and old; other names stay")
    func pruneRules() throws {
        let folder = try ScratchFolder()
        let cache = ImageCache(source: folder.url)
        let keys = (1...5).map { ContentHash("key \($0)") }
        var files: [String: Int] = [:]  // name -> age in days
        files["\(keys[0]).index"] = 20
        files["\(keys[0])-240.jpg"] = 20
        files["\(keys[1]).index"] = 1  // a young index keeps its old files
        files["\(keys[1])-240.jpg"] = 20
        files["\(keys[2])-480.webp"] = 20  // old, without an index
        files["\(keys[3])-780.png"] = 2  // young, without an index
        files["\(keys[4]).index"] = 40  // old, but used by this build
        files["\(keys[4])-240.jpg"] = 40
        files["notes.txt"] = 100
        files["\(keys[0]).index.tmp"] = 100
        files["\(keys[0])-x.jpg"] = 100
        for (name, days) in files {
            try folder.write(".sitegen/images/\(name)", "x")
            try age(folder.url.appendingPathComponent(".sitegen/images/\(name)"), days: days)
        }
        #expect(cache.entry(keys[4]) == nil)  // asked for (its index is not valid): counts as used
        #expect(cache.prune() == 3)
        let left = try FileManager.default.contentsOfDirectory(atPath: cache.folder.path).sorted()
        #expect(
            left
                == [
                    "\(keys[1])-240.jpg", "\(keys[1]).index", "\(keys[3])-780.png", "\(keys[4])-240.jpg",
                    "\(keys[4]).index", "\(keys[0])-x.jpg", "\(keys[0]).index.tmp", "notes.txt",
                ].sorted())
        // A cache whose folder does not exist prunes nothing, nor one that is a link to another folder.
        #expect(ImageCache(source: folder.url.appendingPathComponent("none")).prune() == 0)
        try folder.write("elsewhere/.sitegen/images/\(keys[0]).index", "x")
        try age(folder.url.appendingPathComponent("elsewhere/.sitegen/images/\(keys[0]).index"), days: 100)
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("linked/.sitegen"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("linked/.sitegen/images").path,
            withDestinationPath: folder.url.appendingPathComponent("elsewhere/.sitegen/images").path)
        #expect(ImageCache(source: folder.url.appendingPathComponent("linked")).prune() == 0)
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("linked2").path,
            withDestinationPath: folder.url.appendingPathComponent("elsewhere").path)
        #expect(ImageCache(source: folder.url.appendingPathComponent("linked2")).prune() == 1)
    }

    @Test("an edited image is published under a new name and the old files are removed")
    func editedImage() throws {
        let site = try ImageSite()
        _ = try site.build()
        let old = try site.stamp()
        try site.replacePoster()
        _ = try site.build()
        let new = try site.stamp()
        #expect(new != old)
        let names = try site.publishedImages().keys.sorted()
        #expect(names.count == 6)
        #expect(names.allSatisfy { $0.contains("-\(new).") }, "\(names)")
        #expect(try site.output("movies/parasite/index.html").contains("poster-480-\(new).jpg"))
    }
}

extension ImageBuildTests {
    /// Dates the file at `url` back by `days` (its modification time).
    static func age(_ url: URL, days: Int) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-Double(days) * 24 * 3600)], ofItemAtPath: url.path)
    }

    func age(_ url: URL, days: Int) throws { try Self.age(url, days: days) }
}

/// A site on disk with two films: Parasite, a page bundle with its own poster and a fetched
/// one, and Heat, with a fetched poster only.
private final class ImageSite {
    let folder: ScratchFolder

    init() throws {
        folder = try ScratchFolder()
        try folder.write("site.yml", "title: Images\nbase_url: https://example.org/\n")
        try folder.write(
            "content/movies/parasite/index.md",
            "---\ntitle: Parasite\ndate: 2024-01-02\ntmdb: 1\nimage: poster.jpg\n---\nA review.\n")
        try folder.write("content/movies/heat.md", "---\ntitle: Heat\ndate: 2024-01-01\ntmdb: 2\n---\nA review.\n")
        for id in 1...2 {
            try folder.write(
                "metadata/movies/tmdb-\(id).json",
                #"{"kind": "movie", "source": "tmdb", "id": "\#(id)", "title": "Film \#(id)", "images": "#
                    + #"[{"file": "images/tmdb-\#(id)-w342.svg", "width": 342, "height": 513, "size": "w342"}]}"#)
            try folder.write(
                "metadata/images/tmdb-\(id)-w342.svg",
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><title>\(id)</title></svg>\n")
        }
        try write("content/movies/parasite/poster.jpg", TestImage.encoded(.jpeg, width: 1000, height: 1500))
    }

    func url(_ path: String) -> URL { folder.url.appendingPathComponent(path) }

    func build(usesManifest: Bool = false) throws -> SiteBuilder.Report {
        var options = SiteBuilder.Options(source: folder.url, output: url("public"))
        options.usesManifest = usesManifest
        return try SiteBuilder(options: options).build()
    }

    /// Dates the file at `path` back by `days`.
    func age(_ path: String, days: Int) throws {
        try ImageBuildTests.age(url(path), days: days)
    }

    /// Puts another image in place of Parasite's poster.
    func replacePoster() throws {
        try write("content/movies/parasite/poster.jpg", TestImage.encoded(.jpeg, width: 900, height: 1350, seed: 5))
    }

    func write(_ path: String, _ data: Data) throws {
        try FileManager.default.createDirectory(
            at: url(path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url(path))
    }

    func data(_ path: String) throws -> Data { try Data(contentsOf: url(path)) }

    func output(_ path: String) throws -> String { String(decoding: try data("public/" + path), as: UTF8.self) }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url(path).path) }

    func snapshot() throws -> [String] { try folder.snapshot().filter { $0.hasPrefix("public") } }

    func cacheFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url(".sitegen/images").path).sorted()
    }

    /// Parasite's published image files, by output path.
    func publishedImages() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: url("public/movies/parasite").path)
        where name != "index.html" {
            files["movies/parasite/\(name)"] = try data("public/movies/parasite/\(name)")
        }
        return files
    }

    /// The eight hexadecimal digits in the published images' names.
    func stamp() throws -> String {
        let names = try publishedImages().keys
        let stamps = Set(names.compactMap { $0.firstMatch(of: /-([0-9a-f]{8})\./).map { String($0.output.1) } })
        #expect(stamps.count == 1, "\(names)")
        return try #require(stamps.first)
    }
}
