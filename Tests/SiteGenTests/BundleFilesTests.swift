import Foundation
import Testing

@testable import SiteGen

/// A page bundle's other files are published beside its page, so a body's relative image or
/// link to one of them works on the site as it does in the folder; `build` and `serve` agree.
@Suite("Page bundles' files")
struct BundleFilesTests {
    /// A site with a page bundle (an image, files, a folder, Markdown and hidden files) and a
    /// review that is no bundle, in `folder`.
    func site(in folder: borrowing ScratchFolder) throws -> SiteBuilder {
        try folder.write("site.yml", "title: Bundles\nbase_url: https://example.org/\n")
        try folder.write(
            "content/movies/2046/index.md",
            "---\ntitle: '2046'\ndate: 2024-02-01\nimage: poster.png\n---\n![A still](still.png)\n\n[My notes](notes.txt)\n"
        )
        try folder.write("content/movies/2046/still.png", "still bytes")
        try folder.write("content/movies/2046/notes.txt", "notes")
        try folder.write("content/movies/2046/stills/one.jpg", "one")
        try folder.write("content/movies/2046/draft.md", "# not a page")
        try folder.write("content/movies/2046/.DS_Store", "hidden")
        try folder.write("content/movies/2046/.git/config", "hidden too")
        try TestImage.png(width: 300, height: 450, seed: 3).write(
            to: folder.url.appendingPathComponent("content/movies/2046/poster.png"))
        try folder.write("content/movies/heat.md", "---\ntitle: Heat\ndate: 2024-01-01\n---\nA review.\n")
        return SiteBuilder(options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")))
    }

    func bundleFiles(_ files: [String: Data], in path: String = "movies/2046/") -> [String: String] {
        let own = files.filter { $0.key.hasPrefix(path) && !$0.key.hasPrefix(path + "poster-") }
        return own.mapValues { String(decoding: $0, as: UTF8.self) }.filter { $0.key != path + "index.html" }
    }

    @Test("published beside the page as they are, folders kept; Markdown, hidden files and the image left out")
    func published() throws {
        let folder = try ScratchFolder()
        let builder = try site(in: folder)
        let site = try LiveSite.build(builder)
        #expect(
            bundleFiles(site.files)
                == [
                    "movies/2046/still.png": "still bytes", "movies/2046/notes.txt": "notes",
                    "movies/2046/stills/one.jpg": "one",
                ])
        // The image is published in its sizes only, and the page's links lead to the files.
        #expect(site.files["movies/2046/poster.png"] == nil)
        #expect(site.files.keys.contains { $0.hasPrefix("movies/2046/poster-240-") })
        let page = String(decoding: try #require(site.files["movies/2046/index.html"]), as: UTF8.self)
        #expect(page.contains(#"<img src="still.png" alt="A still" />"#))
        #expect(page.contains(#"<a href="notes.txt">My notes</a>"#))

        // `sitegen build` writes the same files; a review that is no bundle publishes none.
        let report = try builder.build()
        #expect(report.output.removed == 0)
        let written = try String(
            contentsOf: builder.options.output.appendingPathComponent("movies/2046/stills/one.jpg"))
        #expect(written == "one")
        #expect(site.files.keys.filter { $0.hasPrefix("movies/heat/") } == ["movies/heat/index.html"])
    }

    @Test("a bundle with a slug publishes its files at the slug's address")
    func slug() throws {
        let folder = try ScratchFolder()
        let builder = try site(in: folder)
        try folder.write(
            "content/movies/2046/index.md", "---\ntitle: '2046'\ndate: 2024-02-01\nslug: in-2046\n---\n![](still.png)\n"
        )
        let site = try LiveSite.build(builder)
        #expect(bundleFiles(site.files, in: "movies/in-2046/")["movies/in-2046/still.png"] == "still bytes")
        #expect(!site.files.keys.contains { $0.hasPrefix("movies/2046/") })
    }

    @Test("a bundle's index.html, and a file of static/ in a bundle file's place, stop the build at the file")
    func clashes() throws {
        let folder = try ScratchFolder()
        let builder = try site(in: folder)
        try folder.write("content/movies/2046/index.html", "<p>old export</p>")
        let page = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        #expect(page?.step == "publishing page bundles' files")
        #expect(
            page?.diagnostics.map(\.description)
                == [
                    "content/movies/2046/index.html:1:1: would replace the review's page at /movies/2046/index.html: "
                        + "a page bundle's files are published beside its page, so rename or remove this one"
                ])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("content/movies/2046/index.html"))

        try folder.write("static/movies/2046/still.png", "mine")
        let built = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        #expect(
            built?.diagnostics.map(\.description)
                == [
                    "static/movies/2046/still.png:1:1: static/movies/2046/still.png would replace "
                        + "content/movies/2046/still.png, a page bundle's file published at /movies/2046/still.png: "
                        + "rename or remove one"
                ])
        #expect(throws: BuildError.self) { _ = try builder.build() }
        #expect(!FileManager.default.fileExists(atPath: builder.options.output.path))
    }

    @Test("serve: a bundle's file added, changed, removed, or moved with a new slug, gives a full build's files")
    func serve() throws {
        let folder = try ScratchFolder()
        let builder = try site(in: folder)
        var site = try LiveSite.build(builder)
        let root = folder.url
        let write = { (path: String, text: String) in
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        let remove = { (path: String) in try FileManager.default.removeItem(at: root.appendingPathComponent(path)) }
        let steps: [(String, () throws -> Set<String>)] = [
            (
                "added",
                {
                    try write("content/movies/2046/stills/two.jpg", "two")
                    return ["content/movies/2046/stills/two.jpg"]
                }
            ),
            (
                "changed",
                {
                    try write("content/movies/2046/still.png", "new still")
                    return ["content/movies/2046/still.png"]
                }
            ),
            (
                "removed",
                {
                    try remove("content/movies/2046/notes.txt")
                    return ["content/movies/2046/notes.txt"]
                }
            ),
            (
                "folder removed",
                {
                    try remove("content/movies/2046/stills")
                    return ["content/movies/2046/stills"]
                }
            ),
            (
                "slug",
                {
                    try write(
                        "content/movies/2046/index.md",
                        "---\ntitle: '2046'\ndate: 2024-02-01\nslug: in-2046\n---\nNew.\n")
                    return ["content/movies/2046/index.md"]
                }
            ),
            (
                "static over it",
                {
                    try write("static/movies/in-2046/still.png", "mine")
                    return ["static/movies/in-2046/still.png"]
                }
            ),
        ]
        for (name, edit) in steps {
            let changed = try edit()
            if name == "static over it" {
                let built = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
                let updated = #expect(throws: BuildError.self) { _ = try site.updating(changed) }
                #expect(updated?.diagnostics == built?.diagnostics, "\(name)")
                #expect(built?.diagnostics.first?.message.contains("a page bundle's file") == true)
                continue
            }
            site = try site.updating(changed)
            #expect(site.files == (try LiveSite.build(builder)).files, "\(name)")
        }
        // The review names no image any more, so its poster.png is a bundle file like the others.
        #expect(
            bundleFiles(site.files, in: "movies/in-2046/").keys.sorted() == [
                "movies/in-2046/poster.png", "movies/in-2046/still.png",
            ])
        #expect(bundleFiles(site.files, in: "movies/in-2046/")["movies/in-2046/still.png"] == "new still")
    }
}
