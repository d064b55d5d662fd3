import Foundation
import Synchronization
import Testing

@testable import SiteGen

/// The output folder: written all at once or not at all, and only ever sitegen's own files removed.
@Suite("Output folder")
struct OutputTransactionTests {
    let home = ["aside": Data("x".utf8)]

    @Test("a new folder gets every file, its folders and a record; nothing temporary is left beside it")
    func writesNewFolder() throws {
        let folder = try ScratchFolder()
        let report = try OutputWriter(folder: folder.url).write([
            "index.html": Data("home".utf8), "movies/parasite/index.html": Data("기생충".utf8),
            "assets/site.css": Data(),
        ])
        #expect(report == OutputWriter.Report(written: 3, unchanged: 0, removed: 0))
        #expect(
            try folder.contents(hidden: false) == [
                "assets/site.css": "", "index.html": "home", "movies/parasite/index.html": "기생충",
            ])
        let record = try #require(try folder.contents()[".sitegen-output"])
        #expect(record.hasPrefix("sitegen-output 2\n"))
        #expect(record.split(separator: "\n").count == 4)
        #expect(record.hasSuffix(" movies/parasite/index.html\n"))
        let parent = folder.url.deletingLastPathComponent()
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: parent.path)
            .filter { $0.contains(folder.url.lastPathComponent) && $0 != folder.url.lastPathComponent }
        #expect(leftovers.isEmpty)
    }

    @Test("a new folder: pages handed over from every core, deepest first, get all their folders")
    func freshFoldersInAnyOrder() throws {
        let folder = try ScratchFolder()
        let transaction = try OutputTransaction(output: folder.url, force: false)
        // Deepest first, so each page's parent and grandparents are missing when it comes.
        let paths = (0..<200).map { "tags/t\($0 % 7)/page/\($0)/index.html" } + ["tags/t1/index.html", "a.html"]
        let failures = paths.parallelMap { path in
            Result { () throws(BuildError) in try transaction.put(Data(path.utf8), at: path) }
        }
        for failure in failures { try failure.get() }
        #expect(try transaction.commit().written == paths.count)
        let contents = try folder.contents(hidden: false)
        #expect(contents.count == paths.count)
        #expect(paths.allSatisfy { contents[$0] == $0 })
    }

    @Test("a new folder whose page cannot be made names the folder, and nothing is left")
    func freshFolderFails() throws {
        let parent = try ScratchFolder()
        let output = parent.url.appendingPathComponent("public")
        let long = String(repeating: "x", count: 300)
        let error = try #require(throws: BuildError.self) {
            try OutputWriter(folder: output).write(["a/b/index.html": Data("b".utf8), "a/\(long)/c/index.html": Data()])
        }
        #expect(error.diagnostics.count == 1)
        #expect(error.diagnostics[0].description.hasSuffix(": File name too long"))
        #expect(error.diagnostics[0].location.path == output.path + "/a/" + long)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.url.path).isEmpty)
    }

    @Test("the same bytes again rewrite nothing: same inode and date, the record untouched")
    func unchanged() throws {
        let folder = try ScratchFolder()
        let files = ["index.html": Data("home".utf8), "a/b/index.html": Data("deep".utf8)]
        let writer = OutputWriter(folder: folder.url)
        _ = try writer.write(files)
        let before = try folder.snapshot()
        Thread.sleep(forTimeInterval: 0.02)
        #expect(try writer.write(files) == OutputWriter.Report(written: 0, unchanged: 2, removed: 0))
        #expect(try folder.snapshot() == before)
    }

    @Test("the folder's own date: kept by a build that changes nothing, new when a file is written")
    func folderDate() throws {
        let folder = try ScratchFolder()
        let writer = OutputWriter(folder: folder.url)
        let modified = {
            var info = stat()
            #expect(lstat(folder.url.path, &info) == 0)
            return [info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
        }
        _ = try writer.write(["index.html": Data("home".utf8), "a/b/index.html": Data("deep".utf8)])
        let first = modified()
        Thread.sleep(forTimeInterval: 0.02)
        #expect(try writer.write(["index.html": Data("home".utf8), "a/b/index.html": Data("deep".utf8)]).written == 0)
        #expect(modified() == first)
        let files = [
            "index.html": Data("home".utf8), "a/b/index.html": Data("deep".utf8), "new.html": Data("new".utf8),
        ]
        #expect(try writer.write(files).written == 1)
        #expect(modified().lexicographicallyPrecedes(first) == false && modified() != first)
    }

    @Test("changed bytes are written, even at the same size; so is a file someone edited since")
    func changed() throws {
        let folder = try ScratchFolder()
        let writer = OutputWriter(folder: folder.url)
        _ = try writer.write(["index.html": Data("aaaa".utf8), "other.html": Data("same".utf8)])
        let report = try writer.write(["index.html": Data("bbbb".utf8), "other.html": Data("same".utf8)])
        #expect(report == OutputWriter.Report(written: 1, unchanged: 1, removed: 0))
        #expect(try folder.contents(hidden: false) == ["index.html": "bbbb", "other.html": "same"])
        // Edited by hand to other bytes of the same size: the record's fingerprint is not trusted.
        try folder.write("other.html", "SAME")
        #expect(try writer.write(["index.html": Data("bbbb".utf8), "other.html": Data("same".utf8)]).written == 1)
        #expect(try folder.contents(hidden: false) == ["index.html": "bbbb", "other.html": "same"])
    }

    @Test("files sitegen wrote and the site no longer has are removed, with folders left empty; others stay")
    func removesOnlyItsOwnFiles() throws {
        let folder = try ScratchFolder()
        let writer = OutputWriter(folder: folder.url)
        _ = try writer.write([
            "index.html": Data("home".utf8), "movies/old/index.html": Data("old".utf8),
            "movies/keep/index.html": Data("keep".utf8), "tags/x/y/index.html": Data("x".utf8),
        ])
        try folder.write("stray.txt", "left by hand")
        try folder.write("docs/thesis.txt", "years of work")
        let report = try writer.write(["index.html": Data("home".utf8), "movies/keep/index.html": Data("keep".utf8)])
        #expect(report == OutputWriter.Report(written: 0, unchanged: 2, removed: 2))
        #expect(
            try folder.contents(hidden: false) == [
                "index.html": "home", "movies/keep/index.html": "keep", "stray.txt": "left by hand",
                "docs/thesis.txt": "years of work",
            ])
        #expect(!(try folder.entries().contains("tags")))
    }

    @Test("a non-empty folder sitegen did not make is refused and left exactly as it was")
    func refusesForeignFolder() throws {
        let folder = try ScratchFolder()
        try folder.write("docs/thesis.txt", "years of work")
        try folder.write("index.html", "someone's page")
        let before = try folder.snapshot()
        let error = try #require(throws: BuildError.self) {
            try OutputWriter(folder: folder.url).write(["index.html": Data("home".utf8)])
        }
        #expect(
            error.diagnostics.map(\.description) == [
                "\(folder.url.path): refusing to write into a folder that is not empty and that sitegen did not make "
                    + "(it has no .sitegen-output record): choose a new or empty folder, or pass --force to let "
                    + "sitegen replace and remove every file in it"
            ])
        #expect(try folder.snapshot() == before)
    }

    @Test("--force takes a foreign folder over: its visible files are replaced or removed, hidden ones kept")
    func forceTakesOver() throws {
        let folder = try ScratchFolder()
        try folder.write(".git/HEAD", "ref: refs/heads/main")
        try folder.write("old/.keep", "")
        try folder.write("old/page.html", "stale")
        try folder.write("index.html", "old home")
        let report = try OutputWriter(folder: folder.url, force: true).write(["index.html": Data("home".utf8)])
        #expect(report == OutputWriter.Report(written: 1, unchanged: 0, removed: 1))
        #expect(try folder.contents(hidden: false) == ["index.html": "home"])
        #expect(try folder.contents()[".git/HEAD"] == "ref: refs/heads/main")
        #expect(try folder.entries().contains("old/.keep"))
    }

    @Test("a folder holding only hidden files (a deploy checkout) is used, and they are kept")
    func hiddenOnlyFolder() throws {
        let folder = try ScratchFolder()
        try folder.write(".git/HEAD", "ref: refs/heads/gh-pages")
        _ = try OutputWriter(folder: folder.url).write(["index.html": Data("home".utf8)])
        _ = try OutputWriter(folder: folder.url).write(["other.html": Data("x".utf8)])
        #expect(try folder.contents(hidden: false) == ["other.html": "x"])
        #expect(try folder.contents()[".git/HEAD"] == "ref: refs/heads/gh-pages")
    }

    @Test("a file sitegen did not write in the way of a new page stops the build; nothing is changed")
    func foreignFileInTheWay() throws {
        let folder = try ScratchFolder()
        let writer = OutputWriter(folder: folder.url)
        _ = try writer.write([
            "index.html": Data("home".utf8), "a/index.html": Data("a".utf8), "old/index.html": Data("old".utf8),
        ])
        try folder.write("notes", "mine")
        let before = try folder.snapshot()
        let error = try #require(throws: BuildError.self) {
            try writer.write([
                "index.html": Data("new home".utf8), "a/index.html": Data("new a".utf8),
                "notes/index.html": Data("page".utf8), "z/index.html": Data("z".utf8),
            ])
        }
        #expect(
            error.diagnostics.map(\.description) == [
                "\(folder.url.path)/notes: a file sitegen did not write is where a folder is needed: move it away, "
                    + "or pass --force"
            ])
        #expect(error.step == "writing")
        #expect(try folder.snapshot() == before)
        #expect(try folder.entries().allSatisfy { !$0.contains("sitegen-staging") })
    }

    @Test("a file that cannot be written stops the build, names the real path, and changes nothing")
    func failedWrite() throws {
        let folder = try ScratchFolder()
        let writer = OutputWriter(folder: folder.url)
        _ = try writer.write(["index.html": Data("home".utf8), "b/index.html": Data("b".utf8)])
        let before = try folder.snapshot()
        let long = String(repeating: "x", count: 300)
        let error = try #require(throws: BuildError.self) {
            try writer.write(["index.html": Data("new".utf8), "\(long)/index.html": Data("too long".utf8)])
        }
        #expect(error.diagnostics.count == 1)
        #expect(error.diagnostics[0].description.hasSuffix(": File name too long"))
        #expect(error.diagnostics[0].location.path.hasPrefix(folder.url.path + "/"))
        #expect(try folder.snapshot() == before)
    }

    @Test("a damaged record is not trusted: the folder is refused unless --force")
    func damagedRecord() throws {
        let folder = try ScratchFolder()
        _ = try OutputWriter(folder: folder.url).write(["index.html": Data("home".utf8)])
        try folder.write(".sitegen-output", "sitegen-output 2\nnot a line\n")
        let error = try #require(throws: BuildError.self) {
            try OutputWriter(folder: folder.url).write(["index.html": Data("home".utf8)])
        }
        #expect(
            error.diagnostics.map(\.message).first?.hasPrefix(".sitegen-output in the output folder is damaged") == true
        )
        _ = try OutputWriter(folder: folder.url, force: true).write(["index.html": Data("new".utf8)])
        #expect(try folder.contents(hidden: false) == ["index.html": "new"])
    }

    @Test("links are replaced, never written through; what they pointed to is left alone")
    func linksReplaced() throws {
        let folder = try ScratchFolder()
        let outside = try ScratchFolder()
        try outside.write("target.html", "precious")
        try outside.write("parasite/index.html", "precious")
        _ = try OutputWriter(folder: folder.url).write(["seed.html": Data("x".utf8)])
        let manager = FileManager.default
        try manager.createSymbolicLink(
            at: folder.url.appendingPathComponent("index.html"),
            withDestinationURL: outside.url.appendingPathComponent("target.html"))
        try manager.createSymbolicLink(at: folder.url.appendingPathComponent("movies"), withDestinationURL: outside.url)
        _ = try OutputWriter(folder: folder.url, force: true).write([
            "index.html": Data("new".utf8), "movies/parasite/index.html": Data("new".utf8),
        ])
        #expect(try folder.isSymbolicLink("index.html") == false)
        #expect(try folder.isSymbolicLink("movies") == false)
        #expect(try folder.contents(hidden: false) == ["index.html": "new", "movies/parasite/index.html": "new"])
        #expect(try outside.contents() == ["target.html": "precious", "parasite/index.html": "precious"])
    }

    @Test("a page where sitegen's own file was, and a folder where its own page was, swap cleanly")
    func fileAndFolderSwap() throws {
        let folder = try ScratchFolder()
        let writer = OutputWriter(folder: folder.url)
        _ = try writer.write(["notes": Data("file".utf8), "feed.xml/old.txt": Data("folder".utf8)])
        let report = try writer.write(["notes/index.html": Data("page".utf8), "feed.xml": Data("<feed/>".utf8)])
        #expect(report == OutputWriter.Report(written: 2, unchanged: 0, removed: 2))
        #expect(try folder.contents(hidden: false) == ["notes/index.html": "page", "feed.xml": "<feed/>"])
    }

    @Test("an interrupted build's staging folder is cleared by the next build")
    func leftoverStaging() throws {
        let folder = try ScratchFolder()
        let writer = OutputWriter(folder: folder.url)
        _ = try writer.write(["index.html": Data("home".utf8)])
        try folder.write(".sitegen-staging/7", "half a page")
        _ = try writer.write(["index.html": Data("home 2".utf8)])
        #expect(try folder.entries().allSatisfy { !$0.hasPrefix(".sitegen-staging") })
        #expect(try folder.contents(hidden: false) == ["index.html": "home 2"])
    }

    @Test(
        "a build into a folder another build (of another site) is staging refuses, names it, and leaves its files alone"
    )
    func stagingHeldByAnotherBuild() throws {
        for existing in [false, true] {
            let parent = try ScratchFolder()
            let output = parent.url.appendingPathComponent("public")
            if existing { _ = try OutputWriter(folder: output).write(["index.html": Data("home".utf8)]) }
            let first = try OutputTransaction(output: output, force: false)
            try first.put(Data("first".utf8), at: "a/index.html")
            let staging =
                existing ? output.path + "/.sitegen-staging" : parent.url.path + "/.public.sitegen-new"
            let error = try #require(throws: BuildError.self) {
                _ = try OutputTransaction(output: output, force: false)
            }
            #expect(
                error.diagnostics.map(\.description) == [
                    output.path
                        + ": another sitegen build is writing this output folder now (its files are being staged in "
                        + staging + "): wait for it to finish, then build again"
                ])
            // The first build goes on as if nothing happened, and the next one after it works.
            try first.put(Data("first b".utf8), at: "b/index.html")
            _ = try first.commit()
            #expect(try String(contentsOfFile: output.path + "/b/index.html", encoding: .utf8) == "first b")
            _ = try OutputWriter(folder: output).write(["index.html": Data("second".utf8)])
            #expect(try String(contentsOfFile: output.path + "/index.html", encoding: .utf8) == "second")
        }
    }

    @Test("folders a build must never write into are refused, even with --force")
    func protectedFolders() throws {
        let scratch = try ScratchFolder()
        try scratch.write("reviews/site.yml", "title: x\n")
        let site = (url: scratch.url.appendingPathComponent("reviews"), ())
        let cases: [(String, String)] = [
            ("/", "it is a system folder"), ("/etc", "it is a system folder"), ("/usr", "it is a system folder"),
            ("/tmp", "it is a system folder"), ("/home/someone", "it is your home folder or holds it"),
            ("/home", "it is a system folder"), (site.url.path, "it holds the site's sources"),
            (site.url.deletingLastPathComponent().path, "it holds the site's sources"),
            (site.url.path + "/content/out", "it is inside the site's sources"),
            (site.url.path + "/.git/x", "it is inside the site's sources"),
            ("/usr/share/x", "it is inside a system folder (/usr)"),
            ("/etc/site/public", "it is inside a system folder (/etc)"),
            ("/lib/x", "it is inside a system folder (/usr)"),
            ("/proc/sitegen/x", "it is inside a system folder (/proc)"),
        ]
        for (output, reason) in cases {
            #expect(
                OutputFolder.refusal(
                    output: URL(fileURLWithPath: output), source: site.url, home: "/home/someone") == reason,
                "\(output)")
        }
        #expect(
            OutputFolder.refusal(output: site.url.appendingPathComponent("public"), source: site.url, home: "/root")
                == nil)
        // Below /var, /srv or /opt a site may go, and into the memory folders below /dev and /run.
        for output in ["/var/www/html", "/srv/reviews", "/opt/site/public", "/dev/shm/site", "/run/user/1000/site"] {
            #expect(OutputFolder.refusal(output: URL(fileURLWithPath: output), source: site.url, home: "/root") == nil)
        }
    }

    @Test("a build waits while another one writes into the output folder, then finds its manifest")
    func oneBuildAtATime() async throws {
        let folder = try ScratchFolder()
        let output = try oneReviewSite(in: folder)
        let waited = Mutex(0)
        var options = SiteBuilder.Options(source: folder.url, output: output)
        options.waitingForOutput = { waited.withLock { $0 += 1 } }
        let builder = SiteBuilder(options: options)
        #expect(try builder.build().upToDate == false)
        #expect(waited.withLock { $0 } == 0)

        // Another build (here, the test) holds the lock, which only this user may open.
        let lock = OutputLock.path(source: folder.url, output: output)
        #expect(lock.hasPrefix(folder.url.path + "/.sitegen/build-") && lock.hasSuffix(".lock"))
        var info = stat()
        #expect(lstat(lock, &info) == 0 && info.st_mode & 0o7777 == 0o600)
        let other = open(lock, O_RDONLY)
        #expect(flock(other, LOCK_EX | LOCK_NB) == 0)
        try folder.write("content/movies/heat.md", "---\ntitle: Heat\ndate: 2024-02-01\n---\nOther words.\n")
        let before = try folder.snapshot()
        // On a thread of its own, which it blocks while it waits (never one of the shared pool's).
        let finished = Mutex<Result<SiteBuilder.Report, any Error>?>(nil)
        Thread.detachNewThread {
            let result = Result { try builder.build() }
            finished.withLock { $0 = result }
        }
        try await eventually { waited.withLock { $0 } > 0 }
        #expect(waited.withLock { $0 } == 1)
        // Waiting, it has written nothing, not even its manifest's check of the inputs.
        #expect(try folder.snapshot() == before)
        close(other)
        try await eventually { finished.withLock { $0 != nil } }
        let report = try #require(finished.withLock { $0 }).get()
        #expect(report.upToDate == false)
        #expect(waited.withLock { $0 } == 1)
        let page = try String(contentsOf: output.appendingPathComponent("movies/heat/index.html"), encoding: .utf8)
        #expect(page.contains("Other words."))
        // With the lock free, the next build does not wait, and finds nothing changed.
        #expect(try builder.build().upToDate)
        #expect(waited.withLock { $0 } == 1)
    }

    @Test("sitegen check waits for a build writing the output folder, and a build waits for a check reading it")
    func checkReadsNoFolderHalfWritten() async throws {
        let folder = try ScratchFolder()
        let output = try oneReviewSite(in: folder)
        let checkWaited = Mutex(0)
        let buildWaited = Mutex(0)
        var options = SiteBuilder.Options(source: folder.url, output: output)
        options.waitingForOutput = { buildWaited.withLock { $0 += 1 } }
        let builder = SiteBuilder(options: options)
        _ = try builder.build()
        let checker = LinkChecker(output: output, base: try #require(BaseURL("https://example.org/")))
        let check = { @Sendable in try checker.run(lockingBuildsOf: folder.url) { checkWaited.withLock { $0 += 1 } } }
        #expect(try check().problems.isEmpty)
        #expect(checkWaited.withLock { $0 } == 0)

        // A build (here, the test) holds the lock: the check waits, on a thread of its own.
        let lock = open(OutputLock.path(source: folder.url, output: output), O_RDONLY)
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
        let checked = Mutex<Result<LinkChecker.Report, any Error>?>(nil)
        Thread.detachNewThread {
            let result = Result { try check() }
            checked.withLock { $0 = result }
        }
        try await eventually { checkWaited.withLock { $0 } > 0 }
        #expect(checkWaited.withLock { $0 } == 1)
        #expect(checked.withLock { $0 == nil })
        #expect(flock(lock, LOCK_UN) == 0)
        try await eventually { checked.withLock { $0 != nil } }
        let report = try #require(checked.withLock { $0 }).get()
        #expect(report.pages > 0 && report.problems.isEmpty && report.unreadable.isEmpty)

        // Another check (here, the test) is reading: a second check reads alongside it, a build waits.
        #expect(flock(lock, LOCK_SH | LOCK_NB) == 0)
        let alongside = Mutex<Result<LinkChecker.Report, any Error>?>(nil)
        Thread.detachNewThread {
            let result = Result { try check() }
            alongside.withLock { $0 = result }
        }
        try await eventually { alongside.withLock { $0 != nil } }
        #expect(try #require(alongside.withLock { $0 }).get().pages == report.pages)
        #expect(checkWaited.withLock { $0 } == 1)
        try folder.write("content/movies/heat.md", "---\ntitle: Heat\ndate: 2024-02-01\n---\nOther words.\n")
        let built = Mutex<Result<SiteBuilder.Report, any Error>?>(nil)
        Thread.detachNewThread {
            let result = Result { try builder.build() }
            built.withLock { $0 = result }
        }
        try await eventually { buildWaited.withLock { $0 } > 0 }
        #expect(built.withLock { $0 == nil })
        close(lock)
        try await eventually { built.withLock { $0 != nil } }
        #expect(try #require(built.withLock { $0 }).get().upToDate == false)
        #expect(buildWaited.withLock { $0 } == 1)
    }

    /// Writes a site of one review, Heat, into `folder`; returns its output folder's place.
    private func oneReviewSite(in folder: borrowing ScratchFolder) throws -> URL {
        try folder.write("site.yml", "title: Films\nbase_url: https://example.org/\n")
        try folder.write("content/movies/heat.md", "---\ntitle: Heat\ndate: 2024-02-01\n---\nWords.\n")
        return folder.url.appendingPathComponent("public")
    }
}
