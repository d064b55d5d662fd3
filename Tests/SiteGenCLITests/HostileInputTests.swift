import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a clumsy or hostile user can hand `sitegen build`: folders full of other files,
/// unreadable folders, links out of the site, FIFOs, names too long for a file system,
/// tags that look alike, a disk that refuses a write. Each run is the binary users run
/// when `SITEGEN_BINARY` names it (see ``TestConsole``).
@Suite("sitegen build with hostile input")
struct HostileInputTests {
    // MARK: The output folder

    @Test("--output into a folder of other files is refused; nothing there is touched")
    func foreignOutputFolder() async throws {
        let site = try TemporaryFolder(plainSite)
        try site.write("out/docs/thesis.txt", "years of work")
        try site.write("out/index.html", "my old page")
        let console = TestConsole()
        #expect(await console.run(["build", "--output", "out"], in: site.url) == 1)
        #expect(
            console.err.contains(
                "/out: refusing to write into a folder that is not empty and that sitegen did not make (it has no "
                    + ".sitegen-output record): choose a new or empty folder, or pass --force to let sitegen replace "
                    + "and remove every file in it\n"), "\(console.err)")
        #expect(console.err.hasSuffix("checking the output folder failed: 1 error\n"))
        #expect(
            try visibleFiles(site.url.appendingPathComponent("out")) == [
                "docs/thesis.txt": "years of work", "index.html": "my old page",
            ])
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("out/.sitegen-output").path))
    }

    @Test("--force takes the folder over: the site is written and the other visible files are removed")
    func forcedOutputFolder() async throws {
        let site = try TemporaryFolder(plainSite)
        try site.write("out/docs/thesis.txt", "years of work")
        try site.write("out/.git/HEAD", "ref: refs/heads/gh-pages")
        #expect(await TestConsole().run(["build", "--output", "out", "--force"], in: site.url) == 0)
        let files = try visibleFiles(site.url.appendingPathComponent("out"))
        #expect(files["docs/thesis.txt"] == nil)
        #expect(files["movies/first/index.html"] != nil)
        #expect(
            try String(contentsOf: site.url.appendingPathComponent("out/.git/HEAD"), encoding: .utf8).hasPrefix("ref:"))
        // From now on it is sitegen's folder: no --force needed.
        #expect(await TestConsole().run(["build", "--output", "out"], in: site.url) == 0)
        // A file put there since, with nothing else changed: kept, unless --force says otherwise
        // (which a build that stops early because nothing changed used to skip).
        try site.write("out/stray.txt", "left here")
        #expect(await TestConsole().run(["build", "--output", "out"], in: site.url) == 0)
        #expect(try visibleFiles(site.url.appendingPathComponent("out"))["stray.txt"] == "left here")
        #expect(await TestConsole().run(["build", "--output", "out", "--force"], in: site.url) == 0)
        #expect(try visibleFiles(site.url.appendingPathComponent("out"))["stray.txt"] == nil)
    }

    @Test("the home folder, a system folder and the site folder are refused even with --force")
    func protectedOutputFolders() async throws {
        let site = try TemporaryFolder(plainSite)
        try site.write("home/me/notes.txt", "mine")
        let home = site.url.appendingPathComponent("home/me").path
        for (output, reason) in [
            (home, "it is your home folder or holds it"),
            (site.url.appendingPathComponent("home").path, "it is your home folder or holds it"),
            ("/etc", "it is a system folder"), ("/", "it is a system folder"), (".", "it holds the site's sources"),
        ] {
            let console = TestConsole()
            #expect(
                await console.run(["build", "--output", output, "--force"], in: site.url, variables: ["HOME": home])
                    == 1, "\(output)")
            let shown = output == "." ? site.url.path : output
            #expect(console.err.contains("refusing to write the site into \(shown): \(reason)\n"), "\(console.err)")
        }
        #expect(try String(contentsOf: site.url.appendingPathComponent("home/me/notes.txt"), encoding: .utf8) == "mine")
    }

    @Test("--output into a folder a link in content/ leads to is refused, even with --force: the reviews stay")
    func outputWhereALinkLeads() async throws {
        let site = try TemporaryFolder(plainSite)
        try FileManager.default.moveItem(
            at: site.url.appendingPathComponent("content/movies"), to: site.url.appendingPathComponent("films"))
        try FileManager.default.createSymbolicLink(
            atPath: site.url.appendingPathComponent("content/movies").path, withDestinationPath: "../films")
        let before = try visibleFiles(site.url.appendingPathComponent("films"))
        for arguments in [["build", "--output", "films", "--force"], ["build", "--output", "films/new"]] {
            let console = TestConsole()
            #expect(await console.run(arguments, in: site.url) == 1)
            #expect(
                console.err.contains(
                    "refusing to write the site into \(site.url.path)/\(arguments[2]): the site's content/movies is a "
                        + "link into it, or to a folder that holds it\n"), "\(console.err)")
            #expect(try visibleFiles(site.url.appendingPathComponent("films")) == before)
        }
        #expect(await TestConsole().run(["build"], in: site.url) == 0, "the link itself is fine")
    }

    @Test("files someone adds to the output folder survive later builds; the site's stale files do not")
    func addedFilesSurvive() async throws {
        let site = try TemporaryFolder(plainSite)
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        try site.write("public/CNAME", "reviews.example.org")
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/movies/second.md"))
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let files = try visibleFiles(site.url.appendingPathComponent("public"))
        #expect(files["CNAME"] == "reviews.example.org")
        #expect(files["movies/second/index.html"] == nil)
        #expect(files["movies/first/index.html"] != nil)
    }

    @Test("a page, a section and static files with one-letter names can go away: their folders go too")
    func oneLetterNamesGoAway() async throws {
        // Foundation's deletingLastPathComponent traps on a path of one character; the build
        // crashed after its commit when such a file or folder was stale.
        let site = try TemporaryFolder(
            plainSite.merging([
                "content/x.md": review("title: X page", body: "hi"),
                "content/z/_index.md": "---\ntitle: Zines\nkind: book\n---\n",
                "content/z/one.md": review("title: One\ndate: 2024-01-03"),
                "static/a": "a file", "static/é/logo.svg": "<svg/>",
            ]) { $1 })
        let first = TestConsole()
        #expect(await first.run(["build"], in: site.url) == 0, "\(first.err)")
        let publicFolder = site.url.appendingPathComponent("public")
        let built = try visibleFiles(publicFolder)
        #expect(["x/index.html", "z/one/index.html", "a", "é/logo.svg"].allSatisfy { built[$0] != nil })
        for gone in ["content/x.md", "content/z", "static/a", "static/é"] {
            try FileManager.default.removeItem(at: site.url.appendingPathComponent(gone))
        }
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 0, "\(console.err)")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: publicFolder.path))
        #expect(names.isDisjoint(with: ["x", "z", "a", "é"]), "\(names.sorted())")
        #expect(try visibleFiles(publicFolder)["movies/first/index.html"] != nil)
    }

    @Test(
        "a write the disk refuses stops the build, names the real file, and leaves public/ as it was",
        // ThreadSanitizer's runtime maps files of its own, which the file size limit breaks (SIGBUS).
        .disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "under ThreadSanitizer"))
    func refusedWrite() throws {
        let site = try TemporaryFolder(plainSite)
        let binary = try BuiltBinary("sitegen")
        #expect(try binary.run(["build"], in: site.url).status == 0)
        let publicFolder = site.url.appendingPathComponent("public")
        let before = try visibleFiles(publicFolder)
        let record = try Data(contentsOf: publicFolder.appendingPathComponent(".sitegen-output"))
        let folderDate = try modificationDate(publicFolder)
        try site.write("content/movies/first.md", review("title: First\ndate: 2024-01-02\nrating: 5"))
        let big = String(repeating: "A long review paragraph that goes on. ", count: 4000)
        try site.write("content/movies/long.md", review("title: Long\ndate: 2024-05-01", body: big))
        // A file size limit of 64 KiB, with the signal ignored: writing the long page fails with EFBIG.
        let result = try BuiltBinary(url: URL(fileURLWithPath: "/bin/sh")).run(
            ["-c", "ulimit -f 64; trap '' XFSZ; exec \"$0\" build", binary.url.path], in: site.url)
        #expect(result.status == 1)
        // The long review's page and the feeds that carry its text are too large; the first
        // to fail (both cores write) is named by its place in public/, not the staging folder.
        let tooLarge = ["movies/long/index.html", "feed.xml", "movies/feed.xml"]
        #expect(
            tooLarge.contains { result.err.contains("/public/\($0): cannot write: File too large\n") }, "\(result.err)")
        #expect(result.err.hasSuffix("writing failed: 1 error\n"))
        #expect(try visibleFiles(publicFolder) == before)
        #expect(try Data(contentsOf: publicFolder.appendingPathComponent(".sitegen-output")) == record)
        let names = try FileManager.default.contentsOfDirectory(atPath: publicFolder.path)
        #expect(names.allSatisfy { !$0.contains("staging") })
        // The staging folder came and went inside public/: its date is put back too.
        #expect(try modificationDate(publicFolder) == folderDate)
    }

    /// A folder's modification date, to the nanosecond.
    private func modificationDate(_ folder: URL) throws -> String {
        var info = stat()
        guard lstat(folder.path, &info) == 0 else { throw CocoaError(.fileReadNoSuchFile) }
        return "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    @Test("a tag or slug too long for a file name is an error at its line and column; nothing is written")
    func namesTooLong() async throws {
        let long = String(repeating: "가", count: 100)
        let site = try TemporaryFolder(
            plainSite.merging([
                "content/movies/tagged.md": review("title: Tagged\ndate: 2024-01-01\ntags: [ok, \(long)]"),
                "content/movies/slugged.md": review(
                    "title: Slugged\ndate: 2024-01-01\nslug: \(String(repeating: "x", count: 201))"),
            ]) { _, new in new })
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 1)
        #expect(
            console.err == """
                content/movies/slugged.md:4:7: "slug" is 201 bytes long; a URL segment may have at most 200
                content/movies/tagged.md:4:12: tag "\(String(repeating: "가", count: 40))…" is too long: its URL segment would be 300 bytes, and at most 200 are allowed
                loading the site failed: 2 errors

                """)
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
    }

    // MARK: Tags

    @Test("C, C++ and C# get pages of their own; the same tag written two ways shares one")
    func distinctTagSlugs() async throws {
        let site = try TemporaryFolder([
            "site.yml": "title: T\nbase_url: https://example.org/\n",
            "content/books/a.md": review("title: A\ndate: 2024-01-01\ntags: [C, Sci-Fi]"),
            "content/books/b.md": review("title: B\ndate: 2024-01-02\ntags: [C++, sci fi]"),
            "content/books/c.md": review("title: C\ndate: 2024-01-03\ntags: [C#, R&B]"),
        ])
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let files = try visibleFiles(site.url.appendingPathComponent("public"))
        #expect(
            files.keys.filter { $0.hasPrefix("tags/") && $0.hasSuffix(".html") }.sorted() == [
                "tags/c-plus-plus/index.html", "tags/c-sharp/index.html", "tags/c/index.html", "tags/index.html",
                "tags/r-and-b/index.html", "tags/sci-fi/index.html",
            ])
        let scifi = try #require(files["tags/sci-fi/index.html"])
        #expect(scifi.contains(">A</") && scifi.contains(">B</"))
        #expect(try #require(files["tags/c-plus-plus/index.html"]).contains("C++"))
    }

    @Test("two different tags that would share a page are an error naming both places")
    func tagCollision() async throws {
        let site = try TemporaryFolder([
            "site.yml": "title: T\nbase_url: https://example.org/\n",
            "content/books/a.md": review("title: A\ndate: 2024-01-01\ntags: [C]"),
            "content/books/b.md": review("title: B\ndate: 2024-01-02\ntags: [x, \"C.\"]"),
        ])
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 1)
        #expect(
            console.err == """
                content/books/b.md:4:11: the tag "C." would share the page /tags/c/ with the tag "C" (content/books/a.md:4:8): write them the same way, or rename one
                loading the site failed: 1 error

                """)
    }

    @Test("a name that starts with a combining mark is kept in the record: the next builds read it back")
    func combiningMarkFirst() async throws {
        let site = try TemporaryFolder(plainSite)
        // Read as Swift Characters, the space before such a name joined its mark, the record's
        // line lost a field, and every later build called the folder damaged and stopped.
        try site.write("static/\u{301}note.txt", "a note")
        try site.write("static/\u{301}\u{302}/x.txt", "deeper")
        for _ in 0..<2 {
            #expect(await TestConsole().run(["build"], in: site.url) == 0)
        }
        // An input changed, so the build runs in full and reads the record to compare.
        try site.write("static/other.txt", "new")
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 0, "\(console.err)")
        #expect(console.out.contains(": 1 written, "), "\(console.out)")
        // Read by path: FileManager lists this folder with the mark joined to a slash (it cuts
        // paths by Characters).
        let output = site.url.path + "/public/"
        #expect(try String(contentsOfFile: output + "\u{301}note.txt", encoding: .utf8) == "a note")
        #expect(try String(contentsOfFile: output + "\u{301}\u{302}/x.txt", encoding: .utf8) == "deeper")
    }

    // MARK: What the loader reads

    @Test(
        "a file or folder name that is not valid UTF-8 is an error at its path, in a full build and a cached one; never skipped"
    )
    func undecodableNames() async throws {
        let site = try TemporaryFolder(plainSite)
        defer { removeUndecodable(in: site.url) }
        let shown = "a file or folder name that is not valid UTF-8 (shown with \u{FFFD}) is refused: rename it"
        // A first good build, so the next ones may stop early when nothing changed.
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let before = try visibleFiles(site.url.appendingPathComponent("public"))
        for (folder, name) in [("static", "d"), ("content/movies", "m"), ("content", "sec")] {
            try makeRaw(Array("\(site.url.path)/\(folder)/\(name)".utf8) + [0xFF])
            try makeRaw(Array("\(site.url.path)/\(folder)/\(name)".utf8) + [0xFF] + Array("/index.md".utf8), file: true)
            let console = TestConsole()
            #expect(await console.run(["build"], in: site.url) == 1)
            #expect(console.err.contains("\(folder)/\(name)\u{FFFD}:1:1: \(shown)\n"), "\(console.err)")
            #expect(try visibleFiles(site.url.appendingPathComponent("public")) == before)
            removeUndecodable(in: site.url)
        }
        // A file, and the output folder: with --force, a file there no path can name is an error, not "No such file".
        try makeRaw(Array("\(site.url.path)/static/bad".utf8) + [0xFF] + Array(".txt".utf8), file: true)
        let file = TestConsole()
        #expect(await file.run(["build"], in: site.url) == 1)
        #expect(file.err.contains("static/bad\u{FFFD}.txt:1:1: \(shown)\n"), "\(file.err)")
        removeUndecodable(in: site.url)
        try makeRaw(Array("\(site.url.path)/public/junk".utf8) + [0xFF] + Array(".txt".utf8), file: true)
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let forced = TestConsole()
        #expect(await forced.run(["build", "--force"], in: site.url) == 1)
        #expect(
            forced.err.contains(
                "the output folder holds junk\u{FFFD}.txt, whose name is not valid UTF-8 (shown with \u{FFFD}): sitegen "
                    + "cannot name it to replace or remove it; rename or remove it first"), "\(forced.err)")
    }

    @Test("links out of the site are refused in content, Templates, static and metadata; their bytes never published")
    func linksOutOfTheSite() async throws {
        let outside = try TemporaryFolder(["secret.txt": "TOP SECRET", "page.mustache": "TOP SECRET {{site.title}}"])
        let site = try TemporaryFolder(
            plainSite.merging(["content/movies/third.md": review("title: Third\ndate: 2024-01-03\ntmdb: 7")]) { $1 })
        let links = [
            "Templates/assets/x.css": "secret.txt", "Templates/review.mustache": "page.mustache",
            "content/movies/leak.md": "secret.txt", "static/leak.txt": "secret.txt", "static/folder": "",
            "metadata/movies/tmdb-7.json": "secret.txt",
        ]
        for (path, target) in links {
            let url = site.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                at: url, withDestinationURL: target.isEmpty ? outside.url : outside.url.appendingPathComponent(target))
        }
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 1)
        for path in links.keys where path != "metadata/movies/tmdb-7.json" {
            #expect(
                console.err.contains("\(path):1:1: refused: it is a link to a place outside the site folder\n"),
                "\(path): \(console.err)")
        }
        #expect(!console.err.contains("TOP SECRET"))
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))

        // The metadata link alone (its build reaches the enrich step).
        for path in links.keys where path != "metadata/movies/tmdb-7.json" {
            try FileManager.default.removeItem(at: site.url.appendingPathComponent(path))
        }
        let again = TestConsole()
        #expect(await again.run(["build"], in: site.url) == 1)
        #expect(
            again.err.contains("metadata/movies/tmdb-7.json:1:1: refused: it is a link to a place outside metadata/\n"),
            "\(again.err)")
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
    }

    @Test("a folder moved out of the site with a link left in its place is refused, though no file changed")
    func folderMovedOut() async throws {
        let site = try TemporaryFolder(plainSite)
        let outside = try TemporaryFolder([:])
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        // The same files (the same inodes, sizes and times), reached through a link out of the site.
        try FileManager.default.moveItem(
            at: site.url.appendingPathComponent("content"), to: outside.url.appendingPathComponent("content"))
        try FileManager.default.createSymbolicLink(
            at: site.url.appendingPathComponent("content"),
            withDestinationURL: outside.url.appendingPathComponent("content"))
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 1)
        #expect(
            console.err.contains("content:1:1: refused: it is a link to a place outside the site folder"),
            "\(console.err)")
    }

    @Test(".sitegen as a link out of the site is refused by build and import; nothing is written where it leads")
    func stateFolderLink() async throws {
        let outside = try TemporaryFolder(["keep.txt": "mine"])
        let site = try TemporaryFolder(ImportFixtures.site)
        try ImportFixtures.zip(ImportFixtures.letterboxd, to: site.url.appendingPathComponent("export.zip"))
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let state = site.url.appendingPathComponent(".sitegen")
        try FileManager.default.removeItem(at: state)
        try FileManager.default.createSymbolicLink(at: state, withDestinationURL: outside.url)
        let message =
            ".sitegen:1:1: refused: it is a link that leads out of the site folder (or nowhere), and sitegen writes "
            + "its own files there; make it a folder, or remove it\n"
        for (command, step) in [
            (["build"], "checking the site folder"), (["build", "--force"], "checking the site folder"),
            (["import", "letterboxd", "export.zip"], "finding the site"),
        ] {
            let console = TestConsole()
            #expect(await console.run(command, in: site.url) == 1, "\(command)")
            #expect(console.err == message + "\(step) failed: 1 error\n", "\(command)")
        }
        #expect(try visibleFiles(outside.url) == ["keep.txt": "mine"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.url.path) == ["keep.txt"])
        // A link that stays in the site is the site's own folder.
        try FileManager.default.removeItem(at: state)
        try FileManager.default.createDirectory(
            at: site.url.appendingPathComponent("cache"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: state.path, withDestinationPath: "cache")
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: site.url.appendingPathComponent("cache").path)
                .contains { $0.hasPrefix("build-") })
    }

    @Test("links that stay inside the site are followed; a link loop is reported, not followed forever")
    func linksInsideAndLoops() async throws {
        let site = try TemporaryFolder(plainSite.merging(["notes/a.txt": "shared note"]) { $1 })
        try FileManager.default.createSymbolicLink(
            at: site.url.appendingPathComponent("static/notes"),
            withDestinationURL: site.url.appendingPathComponent("notes"))
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        #expect(try visibleFiles(site.url.appendingPathComponent("public"))["notes/a.txt"] == "shared note")

        try FileManager.default.createSymbolicLink(
            at: site.url.appendingPathComponent("static/loop"),
            withDestinationURL: site.url.appendingPathComponent("static"))
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 1)
        #expect(
            console.err.contains("static/loop:1:1: a link loop: this folder is already part of the site\n"),
            "\(console.err)")
    }

    @Test("a FIFO where a review should be is an error, not a build that waits forever")
    func fifo() async throws {
        let site = try TemporaryFolder(plainSite)
        #expect(mkfifo(site.url.appendingPathComponent("content/movies/pipe.md").path, 0o644) == 0)
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 1)
        #expect(
            console.err.contains(
                "content/movies/pipe.md:1:1: not a regular file or folder (a FIFO, socket or device)\n"),
            "\(console.err)")
    }

    @Test(
        "an unreadable folder is an error naming it, never an empty folder; public/ is left as it was",
        arguments: ["content", "content/movies", "static", "Templates", "metadata"])
    func unreadableFolder(_ folder: String) throws {
        try expectUnreadable(
            folder,
            reason: folder == "metadata"
                ? "metadata/movies/tmdb-7.json:1:1: cannot read: Permission denied\n"
                : "\(folder):1:1: cannot read the folder: Permission denied\n")
    }

    @Test(
        "an unreadable file is an error naming it, never a file left out; public/ is left as it was",
        arguments: [
            "content/movies/third.md", "content/movies/_index.md", "content/about.md", "site.yml",
            "Templates/assets/extra.css", "static/robots.txt", "metadata/movies/tmdb-7.json",
        ])
    func unreadableFile(_ file: String) throws {
        try expectUnreadable(file, reason: "\(file):1:1: cannot read: Permission denied\n")
    }

    /// Builds a site as a user who cannot read `path` once it is made unreadable after a first
    /// build: the build fails with `reason` and leaves the first build's output as it was.
    private func expectUnreadable(_ path: String, reason: String) throws {
        let site = try TemporaryFolder(
            plainSite.merging([
                "content/movies/third.md": review("title: Third\ndate: 2024-01-03\ntmdb: 7"),
                "content/movies/_index.md": "---\ntitle: Films\n---\nEvery film.\n",
                "Templates/assets/extra.css": "body{}", "metadata/movies/other.json": "{}",
                "metadata/movies/tmdb-7.json": #"{"kind": "movie", "source": "tmdb", "id": "7", "title": "Third"}"#,
            ]) { $1 })
        let runner = try Unprivileged(site.url)
        let first = try runner.run(["build"])
        #expect(first.status == 0, "\(first.err)")
        let before = try visibleFiles(site.url.appendingPathComponent("public"))
        #expect(!before.isEmpty)
        #expect(chmod(site.url.appendingPathComponent(path).path, 0) == 0)
        let result = try runner.run(["build"])
        chmod(site.url.appendingPathComponent(path).path, 0o777)
        #expect(result.status == 1)
        #expect(result.err.contains(reason), "\(result.err)")
        #expect(try visibleFiles(site.url.appendingPathComponent("public")) == before)
    }
}

/// Runs the built `sitegen` without the power to read what it is denied: as the `nobody`
/// user when the tests run as root (root reads any file), as this user otherwise.
struct Unprivileged {
    let folder: URL
    let binary: BuiltBinary

    init(_ folder: URL) throws {
        self.folder = folder
        binary = try BuiltBinary("sitegen")
        if getuid() == 0 {
            // The site must be readable and writable by `nobody`.
            let walker = FileManager.default.enumerator(atPath: folder.path)
            chmod(folder.path, 0o777)
            while let path = walker?.nextObject() as? String {
                chmod(folder.appendingPathComponent(path).path, 0o777)
            }
        }
    }

    func run(_ arguments: [String]) throws -> BuiltBinary.Result {
        if getuid() == 0 {
            return try BuiltBinary(url: URL(fileURLWithPath: "/usr/bin/setpriv")).run(
                ["--reuid=65534", "--regid=65534", "--clear-groups", binary.url.path] + arguments, in: folder)
        }
        return try binary.run(arguments, in: folder)
    }
}

/// Makes a folder (or an empty file) at the path of `bytes`, which need not be valid UTF-8.
private func makeRaw(_ bytes: [UInt8], file: Bool = false) throws {
    let made = (bytes + [0]).withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { path -> Bool in
            if file {
                let descriptor = open(path.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                defer { if descriptor >= 0 { close(descriptor) } }
                return descriptor >= 0
            }
            return mkdir(path.baseAddress!, 0o755) == 0
        }
    }
    guard made else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}

/// Removes every entry below `folder` whose name is not valid UTF-8 (which FileManager, and
/// so the temporary folder's clean-up, cannot name).
private func removeUndecodable(in folder: URL) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/find")
    process.arguments = [folder.path, "-depth", "-name", "*[!\u{1}-\u{7F}]*", "-exec", "rm", "-rf", "{}", ";"]
    process.environment = ["LC_ALL": "C"]
    try? process.run()
    process.waitUntilExit()
}

/// The visible files below `folder` (not hidden ones such as `.sitegen-output`), as text.
private func visibleFiles(_ folder: URL) throws -> [String: String] {
    var files: [String: String] = [:]
    for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path)
    where !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
        let url = folder.appendingPathComponent(path)
        let type = try FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType
        if type == .typeRegular { files[path] = String(decoding: try Data(contentsOf: url), as: UTF8.self) }
    }
    return files
}

private func review(_ frontMatter: String, body: String = "A review.") -> String {
    "---\n\(frontMatter)\n---\n\(body)\n"
}

/// One section of two films, a plain page and a static file.
private let plainSite: [String: String] = [
    "site.yml": "title: Test Reviews\nbase_url: https://example.org/\n",
    "content/movies/first.md": review("title: First\ndate: 2024-01-01\nrating: 4"),
    "content/movies/second.md": review("title: Second\ndate: 2024-01-02\nrating: 3"),
    "content/about.md": review("title: About", body: "Who writes here."),
    "static/robots.txt": "User-agent: *\n",
]
