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
        let files = folder.files
        let steps: [(String, () throws -> Set<String>)] = [
            (
                "added",
                {
                    try files.write("content/movies/2046/stills/two.jpg", "two")
                    return ["content/movies/2046/stills/two.jpg"]
                }
            ),
            (
                "changed",
                {
                    try files.write("content/movies/2046/still.png", "new still")
                    return ["content/movies/2046/still.png"]
                }
            ),
            (
                "removed",
                {
                    try files.remove("content/movies/2046/notes.txt")
                    return ["content/movies/2046/notes.txt"]
                }
            ),
            (
                "folder removed",
                {
                    try files.remove("content/movies/2046/stills")
                    return ["content/movies/2046/stills"]
                }
            ),
            (
                "slug",
                {
                    try files.write(
                        "content/movies/2046/index.md",
                        "---\ntitle: '2046'\ndate: 2024-02-01\nslug: in-2046\n---\nNew.\n")
                    return ["content/movies/2046/index.md"]
                }
            ),
            (
                "static over it",
                {
                    try files.write("static/movies/in-2046/still.png", "mine")
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

    /// The build's error for the site in `folder` as it is, and the error of an update of
    /// `site` after `changed`: both must be thrown, with the same problems.
    func sameError(_ builder: SiteBuilder, _ site: LiveSite, after changed: Set<String>) -> [String] {
        let built = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        let updated = #expect(throws: BuildError.self) { _ = try site.updating(changed) }
        #expect(updated?.diagnostics == built?.diagnostics, "\(changed)")
        #expect(updated?.step == built?.step, "\(changed)")
        return built?.diagnostics.map(\.description) ?? []
    }

    @Test("a file where another needs a folder, either way round, stops build and serve at the file")
    func folderClashes() throws {
        let folder = try ScratchFolder()
        let builder = try site(in: folder)
        let site = try LiveSite.build(builder)
        // Each file written, refused by build and serve alike with the error at it, then removed
        // (with the first folder of its own it needed).
        let cases: [(file: String, made: String, error: String)] = [
            // A folder index.html in the bundle: its files would need the page to be a folder.
            (
                "content/movies/2046/index.html/a.txt", "content/movies/2046/index.html",
                "content/movies/2046/index.html/a.txt:1:1: needs a folder where the review's page is "
                    + "(/movies/2046/index.html): a page bundle's files are published beside its page, "
                    + "so rename the folder index.html"
            ),
            // static/ holding files under a bundle's file, or a file where a bundle's folder is.
            (
                "static/movies/2046/still.png/x", "static/movies",
                "static/movies/2046/still.png/x:1:1: static/movies/2046/still.png/x needs a folder where "
                    + "content/movies/2046/still.png, a page bundle's file, is published (/movies/2046/still.png): "
                    + "rename or remove one"
            ),
            (
                "static/movies/2046/stills", "static/movies",
                "static/movies/2046/stills:1:1: static/movies/2046/stills is a file where "
                    + "content/movies/2046/stills/one.jpg, a page bundle's file, needs a folder "
                    + "(it is published at /movies/2046/stills/one.jpg): rename or remove one"
            ),
            // static/ holding files under a page, or a file where pages need a folder: each file once.
            (
                "static/movies/heat/index.html/x", "static/movies",
                "static/movies/heat/index.html/x:1:1: static/movies/heat/index.html/x needs a folder where sitegen "
                    + "writes /movies/heat/index.html: rename or remove it"
            ),
            (
                "static/movies", "static/movies",
                "static/movies:1:1: static/movies is a file where content/movies/2046/notes.txt, a page bundle's file, "
                    + "needs a folder (it is published at /movies/2046/notes.txt): rename or remove one"
            ),
            (
                "static/search", "static/search",
                "static/search:1:1: static/search is a file where sitegen writes /search/docs-0.json, which needs it "
                    + "to be a folder: rename or remove it"
            ),
        ]
        for (file, made, error) in cases {
            try folder.write(file, "x")
            #expect(sameError(builder, site, after: [file]) == [error])
            try FileManager.default.removeItem(at: folder.url.appendingPathComponent(made))
        }
        #expect((try site.updating(["static/movies", "static/search"])).files == (try LiveSite.build(builder)).files)
    }

    @Test("two names that differ only in how an accent is encoded are refused, in a bundle and in static/")
    func accentedNames() throws {
        let folder = try ScratchFolder()
        let builder = try site(in: folder)
        let composed = "caf\u{E9}.txt"
        let decomposed = "cafe\u{301}.txt"
        try folder.write("content/movies/2046/\(composed)", "composed")
        try folder.write("content/movies/2046/\(decomposed)", "decomposed")
        let bundle = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        let message =
            "only in how accented letters are encoded (composed or decomposed), so both would be "
            + "published as one file: rename one"
        #expect(bundle?.diagnostics.count == 1)
        #expect(bundle?.diagnostics.first?.message.hasSuffix(message) == true, "\(String(describing: bundle))")
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("content/movies/2046/\(decomposed)"))
        _ = try LiveSite.build(builder)

        try folder.write("static/\(composed)", "composed")
        try folder.write("static/\(decomposed)", "decomposed")
        let statics = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        #expect(statics?.diagnostics.count == 1)
        #expect(statics?.diagnostics.first?.location.path.hasPrefix("static/caf") == true)
        #expect(statics?.diagnostics.first?.message.hasSuffix(message) == true)
    }

    @Test("a link into a hidden folder or into sitegen's output is refused, so the output cannot grow into itself")
    func linksInward() throws {
        let folder = try ScratchFolder()
        let builder = try site(in: folder)
        _ = try builder.build()
        let link = { (name: String, target: String) in
            try FileManager.default.createSymbolicLink(
                atPath: folder.url.appendingPathComponent("content/movies/2046/\(name)").path,
                withDestinationPath: target)
        }
        try link("out", "../../../public")
        // A build refuses to write where a link of the sources leads; serve, which writes
        // nothing, refuses the link when it reads it.
        let built = #expect(throws: BuildError.self) { _ = try builder.build() }
        let publicFolder = folder.url.appendingPathComponent("public").path
        #expect(
            built?.diagnostics.map(\.description) == [
                "\(publicFolder): refusing to write the site into \(publicFolder): the site's content/movies/2046/out is a link "
                    + "into it, or to a folder that holds it"
            ])
        let output = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        #expect(
            output?.diagnostics.map(\.description) == [
                "content/movies/2046/out:1:1: refused: it is a link into public, a folder sitegen wrote a site into: "
                    + "its files would be published again inside themselves"
            ])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("content/movies/2046/out"))
        try link("state", "../../../.sitegen")
        let hidden = #expect(throws: BuildError.self) { _ = try builder.build() }
        #expect(
            hidden?.diagnostics.map(\.description) == [
                "content/movies/2046/state:1:1: refused: it is a link into .sitegen, which is hidden: "
                    + "sitegen never reads hidden files and folders"
            ])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("content/movies/2046/state"))
        // A link to another place of the site is followed.
        try link("also.txt", "notes.txt")
        let files = (try LiveSite.build(builder)).files
        #expect(files["movies/2046/also.txt"] == Data("notes".utf8))
    }

    @Test("serve: a review that comes where a file of static/ is, a static file removed to make way, theme assets")
    func serveOrder() throws {
        let folder = try ScratchFolder()
        let builder = try site(in: folder)
        var site = try LiveSite.build(builder)
        let remove = folder.files.remove
        // A file of static/ first, then a review whose page needs its place as a folder.
        try folder.write("static/movies/alien", "x")
        site = try site.updating(["static/movies/alien"])
        try folder.write("content/movies/alien.md", "---\ntitle: Alien\ndate: 2024-01-03\n---\nA review.\n")
        #expect(
            sameError(builder, site, after: ["content/movies/alien.md"]) == [
                "static/movies/alien:1:1: static/movies/alien is a file where sitegen writes /movies/alien/index.html, "
                    + "which needs it to be a folder: rename or remove it"
            ])
        // Removed, in the same update as the review: it builds, as a full build does.
        try remove("static/movies/alien")
        site = try site.updating(["static/movies/alien", "content/movies/alien.md"])
        #expect(site.files == (try LiveSite.build(builder)).files)

        // A static file there first, then a bundle file in its place: refused; the static file
        // removed: the error goes (before, it stayed until the bundle file went).
        try folder.write("static/movies/2046/extra.txt", "static")
        site = try site.updating(["static/movies/2046/extra.txt"])
        try folder.write("content/movies/2046/extra.txt", "bundle")
        let refused = sameError(builder, site, after: ["content/movies/2046/extra.txt"])
        #expect(
            refused.first?.contains("static/movies/2046/extra.txt would replace content/movies/2046/extra.txt") == true)
        try remove("static/movies/2046/extra.txt")
        site = try site.updating(["static/movies/2046/extra.txt", "content/movies/2046/extra.txt"])
        #expect(site.files["movies/2046/extra.txt"] == Data("bundle".utf8))
        #expect(site.files == (try LiveSite.build(builder)).files)

        // A file of static/ in a folder where a theme asset is, or where its folder goes.
        try folder.write("static/assets/site.css/b", "x")
        #expect(
            sameError(builder, site, after: ["static/assets/site.css/b"]) == [
                "static/assets/site.css/b:1:1: static/assets/site.css/b needs a folder where sitegen writes "
                    + "/assets/site.css: rename or remove it"
            ])
        try remove("static/assets")
        // Two names for one in static/, the second saved while serving.
        try folder.write("static/caf\u{E9}.txt", "composed")
        site = try site.updating(["static/caf\u{E9}.txt"])
        try folder.write("static/cafe\u{301}.txt", "decomposed")
        let twice = #expect(throws: BuildError.self) { _ = try site.updating(["static/cafe\u{301}.txt"]) }
        #expect(twice?.diagnostics.first?.message.contains("only in how accented letters are encoded") == true)
        #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        // The first one saved again, its twin still there: still refused, as a build does.
        try folder.write("static/caf\u{E9}.txt", "composed, saved again")
        let again = sameError(builder, site, after: ["static/caf\u{E9}.txt"])
        #expect(again.first?.contains("only in how accented letters are encoded") == true, "\(again)")
        // Both gone, then both back in one save (one path to Swift's sets): refused too.
        try remove("static/caf\u{E9}.txt")
        try remove("static/cafe\u{301}.txt")
        site = try site.updating(["static/caf\u{E9}.txt"])
        #expect(site.files == (try LiveSite.build(builder)).files)
        try folder.write("static/caf\u{E9}.txt", "composed")
        try folder.write("static/cafe\u{301}.txt", "decomposed")
        let both = sameError(builder, site, after: ["static/caf\u{E9}.txt", "static/cafe\u{301}.txt"])
        #expect(both.first?.contains("only in how accented letters are encoded") == true, "\(both)")
        // Folders named both ways, holding files of other names: two paths, as in a build.
        try remove("static/cafe\u{301}.txt")
        try folder.write("static/caf\u{E9}/a.txt", "composed")
        site = try site.updating(["static/caf\u{E9}.txt", "static/caf\u{E9}/a.txt"])
        try folder.write("static/cafe\u{301}/b.txt", "decomposed")
        site = try site.updating(["static/cafe\u{301}/b.txt"])
        #expect(site.files == (try LiveSite.build(builder)).files)
        #expect(site.files["cafe\u{301}/b.txt"] == Data("decomposed".utf8))
    }

    @Test("serve: folders named like Markdown files, made while serving, are read as a full build reads them")
    func foldersNamedLikeMarkdown() throws {
        let folder = try ScratchFolder()
        let builder = try site(in: folder)
        var site = try LiveSite.build(builder)
        let fresh = { try LiveSite.build(builder) }
        // An empty folder in a section: ignored (with the build's warning), not a FIFO.
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("content/movies/alien.md"), withIntermediateDirectories: true)
        site = try site.updating(["content/movies/alien.md"])
        #expect(site.files == (try fresh()).files)
        // Given an index.md, it is a page bundle, whichever path the watcher reports.
        try folder.write(
            "content/movies/alien.md/index.md", "---\ntitle: Alien\ndate: 2024-03-01\nslug: alien\n---\nA.\n")
        for changed in ["content/movies/alien.md/index.md", "content/movies/alien.md"] {
            site = try site.updating([changed])
            #expect(site.files == (try fresh()).files, "\(changed)")
            #expect(site.files["movies/alien/index.html"] != nil, "\(changed)")
        }
        // A section's _index.md that is a folder, and a top-level folder named like a page: as a build.
        try folder.files.remove("content/movies/alien.md")
        site = try site.updating(["content/movies/alien.md"])
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("content/notes.md"), withIntermediateDirectories: true)
        let top = sameError(builder, site, after: ["content/notes.md"])
        #expect(top == ["content/notes.md:1:1: the section folder name \"notes.md\" cannot be used as a URL here"])
    }

    @Test("two folders whose names differ only in how an accent is encoded are two folders, not a link loop")
    func accentedFolders() throws {
        let folder = try ScratchFolder()
        let builder = try site(in: folder)
        try folder.write("static/caf\u{E9}/a.txt", "a")
        try folder.write("static/cafe\u{301}/b.txt", "b")
        let files = try LiveSite.build(builder).files
        #expect(files["caf\u{E9}/a.txt"] == Data("a".utf8))
        #expect(files["cafe\u{301}/b.txt"] == Data("b".utf8))
    }
}
