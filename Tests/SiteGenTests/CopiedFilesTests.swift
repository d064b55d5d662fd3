import Foundation
import Testing

@testable import SiteGen

/// Large files of `static/` and page bundles: a build reads each one when it writes it, not
/// all of them when it loads the site; `serve` holds them all.
@Suite("Large copied files")
struct CopiedFilesTests {
    /// Bytes just over the size a build holds when loading, different for each `seed`.
    static func large(_ seed: UInt8) -> Data {
        Data((0..<(CopiedFile.heldSizeLimit + 1)).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed })
    }

    func site() throws -> ScratchFolder {
        let folder = try ScratchFolder()
        try folder.write("site.yml", "title: Films\nbase_url: https://example.org/\n")
        try folder.write("content/movies/heat/index.md", "---\ntitle: Heat\ndate: 2024-02-01\n---\nWords.\n")
        try folder.write("static/small.txt", "small")
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("static/video"), withIntermediateDirectories: true)
        try Self.large(1).write(to: folder.url.appendingPathComponent("static/video/trailer.bin"))
        try Self.large(2).write(to: folder.url.appendingPathComponent("content/movies/heat/clip.bin"))
        return folder
    }

    @Test("a build leaves them to read when written and publishes their bytes; serve holds them")
    func builtAsHeld() throws {
        let folder = try site()
        let output = folder.url.appendingPathComponent("public")
        let builder = SiteBuilder(options: SiteBuilder.Options(source: folder.url, output: output))
        var images = builder.images
        images.copiesLater = true
        let loaded = try builder.load(images: images)
        #expect(loaded.copiedFiles.keys.sorted() == ["movies/heat/clip.bin", "video/trailer.bin"])
        #expect(loaded.copiedFiles["video/trailer.bin"]?.source == "static/video/trailer.bin")
        #expect(loaded.staticFiles["video/trailer.bin"] == nil && loaded.staticFiles["movies/heat/clip.bin"] == nil)
        #expect(loaded.staticFiles["small.txt"] == Data("small".utf8))
        #expect(loaded.reviews.first?.bundleFiles == ["movies/heat/clip.bin"])
        // As serve loads the site: every file held.
        let held = try builder.load()
        #expect(held.copiedFiles.isEmpty)
        #expect(held.staticFiles["video/trailer.bin"] == Self.large(1))
        #expect(held.staticFiles["movies/heat/clip.bin"] == Self.large(2))

        let report = try builder.build()
        #expect(try Data(contentsOf: output.appendingPathComponent("video/trailer.bin")) == Self.large(1))
        #expect(try Data(contentsOf: output.appendingPathComponent("movies/heat/clip.bin")) == Self.large(2))
        #expect(try Data(contentsOf: output.appendingPathComponent("small.txt")) == Data("small".utf8))
        // The same files as a site held in memory gives.
        let rendered = try builder.render(held)
        #expect(report.files == rendered.files.count)
        // An edited large file is written again; the next build finds nothing changed.
        try Self.large(3).write(to: folder.url.appendingPathComponent("static/video/trailer.bin"))
        #expect(try builder.build().output.written == 1)
        #expect(try Data(contentsOf: output.appendingPathComponent("video/trailer.bin")) == Self.large(3))
        #expect(try builder.build().upToDate)
        // Its copy in the output touched (the record's stamp no longer holds) is read against
        // the source and left alone; one edited in the output, to the same size, is replaced.
        let copy = output.appendingPathComponent("video/trailer.bin")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: copy.path)
        let touched = try builder.build()
        #expect(touched.output.written == 0 && touched.output.unchanged == report.files)
        var edited = Self.large(3)
        edited[CopiedFile.heldSizeLimit - 7] ^= 1
        try edited.write(to: copy)
        #expect(try builder.build().output.written == 1)
        #expect(try Data(contentsOf: copy) == Self.large(3))
    }

    @Test("one that cannot be read when written stops the build at the file, and the output stays as it was")
    func unreadableWhenWritten() throws {
        let folder = try site()
        let builder = SiteBuilder(
            options: SiteBuilder.Options(source: folder.url, output: folder.url.appendingPathComponent("public")))
        _ = try builder.build()
        let before = try folder.snapshot()
        var images = builder.images
        images.copiesLater = true
        let loaded = try builder.load(images: images)
        let trailer = try #require(loaded.copiedFiles["video/trailer.bin"])
        // Gone, or a link out of the site put in its place, after the site was loaded.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("static/video/trailer.bin"))
        let gone = #expect(throws: BuildError.self) { _ = try trailer.open() }
        #expect(
            gone?.diagnostics.map(\.description) == [
                "static/video/trailer.bin:1:1: cannot read: No such file or directory"
            ])
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("static/video/trailer.bin").path,
            withDestinationPath: "/etc/hostname")
        let out = #expect(throws: BuildError.self) { _ = try trailer.open() }
        #expect(
            out?.diagnostics.map(\.description) == [
                "static/video/trailer.bin:1:1: cannot read: refused: it is a link to a place outside the site folder"
            ])
        // A build refuses it when loading, and leaves the output as it was.
        #expect(throws: BuildError.self) { _ = try builder.build() }
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("static/video/trailer.bin"))
        try Self.large(1).write(to: folder.url.appendingPathComponent("static/video/trailer.bin"))
        #expect(try folder.snapshot().filter { $0.hasPrefix("public") } == before.filter { $0.hasPrefix("public") })
    }

    @Test("one in a page's place, or where a bundle's file is, is refused as a file held would be")
    func clashes() throws {
        let folder = try site()
        let builder = SiteBuilder(
            options: SiteBuilder.Options(source: folder.url, output: folder.url.appendingPathComponent("public")))
        try Self.large(4).write(to: folder.url.appendingPathComponent("static/feed.xml"))
        let page = #expect(throws: BuildError.self) { _ = try builder.build() }
        #expect(page?.diagnostics == [Diagnostic.staticClash("feed.xml")])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("static/feed.xml"))
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("static/movies/heat"), withIntermediateDirectories: true)
        try Self.large(5).write(to: folder.url.appendingPathComponent("static/movies/heat/clip.bin"))
        let bundle = #expect(throws: BuildError.self) { _ = try builder.build() }
        #expect(bundle?.step == BundleFiles.step)
        #expect(bundle?.diagnostics.first?.description.contains("static/movies/heat/clip.bin would replace") == true)
    }
}
