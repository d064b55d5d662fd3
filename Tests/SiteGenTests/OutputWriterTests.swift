import Foundation
import Testing

@testable import SiteGen

@Suite("Output writer")
struct OutputWriterTests {
    @Test("writes every file, creating folders")
    func writes() throws {
        let folder = try ScratchFolder()
        let report = try OutputWriter(folder: folder.url).write([
            "index.html": Data("home".utf8),
            "movies/parasite/index.html": Data("기생충".utf8),
            "assets/site.css": Data(),
        ])
        #expect(report == OutputWriter.Report(written: 3, unchanged: 0, removed: 0))
        #expect(
            try folder.contents() == ["assets/site.css": "", "index.html": "home", "movies/parasite/index.html": "기생충"])
    }

    @Test("writing the same bytes again rewrites nothing: same inode, same modification date")
    func unchanged() throws {
        let folder = try ScratchFolder()
        let files = ["index.html": Data("home".utf8), "a/b/index.html": Data("deep".utf8)]
        let writer = OutputWriter(folder: folder.url)
        _ = try writer.write(files)
        let before = try files.keys.map { try folder.identity(of: $0) }
        Thread.sleep(forTimeInterval: 0.02)
        #expect(try writer.write(files) == OutputWriter.Report(written: 0, unchanged: 2, removed: 0))
        #expect(try files.keys.map { try folder.identity(of: $0) } == before)
    }

    @Test("changed bytes are written, even when the size is the same")
    func changed() throws {
        let folder = try ScratchFolder()
        let writer = OutputWriter(folder: folder.url)
        _ = try writer.write(["index.html": Data("aaaa".utf8), "other.html": Data("same".utf8)])
        let report = try writer.write(["index.html": Data("bbbb".utf8), "other.html": Data("same".utf8)])
        #expect(report == OutputWriter.Report(written: 1, unchanged: 1, removed: 0))
        #expect(try folder.contents() == ["index.html": "bbbb", "other.html": "same"])
    }

    @Test("files the site no longer has are removed, and folders left empty with them")
    func removesStale() throws {
        let folder = try ScratchFolder()
        let writer = OutputWriter(folder: folder.url)
        _ = try writer.write([
            "index.html": Data("home".utf8), "movies/old/index.html": Data("old".utf8),
            "movies/keep/index.html": Data("keep".utf8), "tags/x/y/index.html": Data("x".utf8),
        ])
        try folder.write("stray.txt", "left by hand")
        let report = try writer.write(["index.html": Data("home".utf8), "movies/keep/index.html": Data("keep".utf8)])
        #expect(report == OutputWriter.Report(written: 0, unchanged: 2, removed: 3))
        #expect(try folder.contents() == ["index.html": "home", "movies/keep/index.html": "keep"])
        #expect(try folder.entries() == ["index.html", "movies", "movies/keep", "movies/keep/index.html"])
    }

    @Test("hidden files and folders in the output (a deploy .git) are never removed")
    func keepsHidden() throws {
        let folder = try ScratchFolder()
        try folder.write(".git/HEAD", "ref: refs/heads/main")
        try folder.write("old/.keep", "")
        try folder.write("old/page.html", "stale")
        let report = try OutputWriter(folder: folder.url).write(["index.html": Data("home".utf8)])
        #expect(report == OutputWriter.Report(written: 1, unchanged: 0, removed: 1))
        #expect(try folder.entries() == [".git", ".git/HEAD", "index.html", "old", "old/.keep"])
    }

    @Test("a symbolic link to a file is replaced, and the file it pointed to is left alone")
    func fileLinkReplaced() throws {
        let folder = try ScratchFolder()
        let outside = try ScratchFolder()
        try outside.write("target.html", "precious")
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("index.html"),
            withDestinationURL: outside.url.appendingPathComponent("target.html"))
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("stale.html"),
            withDestinationURL: outside.url.appendingPathComponent("target.html"))
        let report = try OutputWriter(folder: folder.url).write(["index.html": Data("new".utf8)])
        #expect(report == OutputWriter.Report(written: 1, unchanged: 0, removed: 1))
        #expect(try folder.contents() == ["index.html": "new"])
        #expect(try folder.isSymbolicLink("index.html") == false)
        #expect(try outside.contents() == ["target.html": "precious"])
    }

    @Test("a symbolic link to a folder is replaced by a real folder; nothing is written through it")
    func folderLinkReplaced() throws {
        let folder = try ScratchFolder()
        let outside = try ScratchFolder()
        try outside.write("parasite/index.html", "precious")
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("movies"), withDestinationURL: outside.url)
        _ = try OutputWriter(folder: folder.url).write(["movies/parasite/index.html": Data("new".utf8)])
        #expect(try folder.isSymbolicLink("movies") == false)
        #expect(try folder.contents() == ["movies/parasite/index.html": "new"])
        #expect(try outside.contents() == ["parasite/index.html": "precious"])
    }

    @Test("a file where a folder is now needed is replaced by the folder, which keeps its new files")
    func fileBecomesFolder() throws {
        let folder = try ScratchFolder()
        try folder.write("notes", "was a static file")
        let report = try OutputWriter(folder: folder.url).write(["notes/index.html": Data("page".utf8)])
        #expect(report == OutputWriter.Report(written: 1, unchanged: 0, removed: 1))
        #expect(try folder.contents() == ["notes/index.html": "page"])
    }

    @Test("a folder where a file is now needed is replaced by the file")
    func folderBecomesFile() throws {
        let folder = try ScratchFolder()
        try folder.write("feed.xml/old.txt", "was a folder")
        let report = try OutputWriter(folder: folder.url).write(["feed.xml": Data("<feed/>".utf8)])
        #expect(report == OutputWriter.Report(written: 1, unchanged: 0, removed: 1))
        #expect(try folder.contents() == ["feed.xml": "<feed/>"])
    }

    @Test("no temporary files are left behind")
    func noTemporaryFiles() throws {
        let folder = try ScratchFolder()
        let files = Dictionary(uniqueKeysWithValues: (0..<50).map { ("p\($0)/index.html", Data("page \($0)".utf8)) })
        _ = try OutputWriter(folder: folder.url).write(files)
        #expect(try folder.entries().filter { $0.contains("sitegen-tmp") }.isEmpty)
        #expect(try folder.contents().count == 50)
    }
}
