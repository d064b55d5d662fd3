import Foundation
import Testing

@testable import SiteGen

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Reading many files by name in folders opened once")
struct OpenFoldersTests {
    /// A site with a section of plain files, links and odd entries, and a secret beside it.
    private func makeSite(_ scratch: borrowing ScratchFolder) throws -> URL {
        try scratch.write("site/content/books/plain.md", "plain")
        try scratch.write("site/content/other/inner.md", "inner")
        try scratch.write("outside/secret.md", "secret")
        let site = scratch.url.appendingPathComponent("site")
        let books = site.appendingPathComponent("content/books").path
        let links = [
            "alias.md": "plain.md", "out.md": scratch.url.appendingPathComponent("outside/secret.md").path,
            "sideways.md": "../other/inner.md",
        ]
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(atPath: books + "/" + name, withDestinationPath: target)
        }
        try FileManager.default.createSymbolicLink(
            atPath: site.appendingPathComponent("content/away").path,
            withDestinationPath: scratch.url.appendingPathComponent("outside").path)
        try FileManager.default.createDirectory(atPath: books + "/folder.md", withIntermediateDirectories: false)
        #expect(mkfifo(books + "/pipe.md", 0o644) == 0)
        try Data(count: 1024 * 1024 + 1).write(to: URL(fileURLWithPath: books + "/large.md"))
        return site
    }

    /// The folders of `site`, none open yet.
    private func openFolders(_ site: URL) throws -> OpenFolders {
        OpenFolders(realRoot: try #require(SafePath.realPath(site.path)))
    }

    @Test("the loader reads a section's files as before: links within are followed, links out refused, odd files named")
    func siteFolder() throws {
        let scratch = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch.url) }
        let site = try makeSite(scratch)
        let folder = SiteFolder(root: site, fileSystem: .disk)
        let outside = "cannot read: refused: it is a link to a place outside the site folder"
        let expected: [(String, String?, String?)] = [
            ("content/books/plain.md", "plain", nil),
            ("content/books/alias.md", "plain", nil),
            ("content/books/sideways.md", "inner", nil),
            ("content/books/out.md", nil, outside),
            ("content/away/secret.md", nil, outside),
            ("content/books/folder.md", nil, "cannot read: is a folder, not a file"),
            ("content/books/pipe.md", nil, "cannot read: not a regular file"),
            ("content/books/missing.md", nil, "cannot read: No such file or directory"),
        ]
        for (path, text, problem) in expected {
            var problems: [Diagnostic] = []
            let bytes = folder.read(path, &problems)
            #expect(bytes.map { String(decoding: $0, as: UTF8.self) } == text, "\(path)")
            #expect(problems.map(\.description) == (problem.map { ["\(path):1:1: \($0)"] } ?? []), "\(path)")
        }
        var problems: [Diagnostic] = []
        #expect(folder.read("content/books/large.md", limit: 2 * 1024 * 1024, &problems)?.count == 1024 * 1024 + 1)
        #expect(folder.read("content/books/large.md", limit: 1024 * 1024, &problems) == nil)
        #expect(
            problems.map(\.description) == [
                "content/books/large.md:1:1: cannot read: the file is 1048577 bytes; files over 1 MiB are refused here"
            ])
    }

    @Test("only a plain file in a folder found inside is read here; anything else is left to the caller's checks")
    func leftToCaller() throws {
        let scratch = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch.url) }
        let site = try makeSite(scratch)
        let folders = try openFolders(site)
        let path = { (relative: String) in site.path + "/" + relative }
        #expect(try folders.read(path("content/books/plain.md"), limit: 100) == Data("plain".utf8))
        // Links, even those that stay inside, are followed and checked by the caller.
        for relative in ["content/books/alias.md", "content/books/out.md", "content/away/secret.md", "content/books/"] {
            #expect(try folders.read(path(relative), limit: 100) == nil, "\(relative)")
        }
        #expect(folders.holdsPlainEntry(path("content/books/plain.md")) == true)
        #expect(folders.holdsPlainEntry(path("content/books/out.md")) == false)
        #expect(folders.holdsPlainEntry(path("content/books/missing.md")) == nil)
        #expect(folders.holdsPlainEntry(path("content/away/secret.md")) == nil)
        #expect(throws: FileSystemError.self) { try folders.read(path("content/books/pipe.md"), limit: 100) }
        do {
            _ = try folders.read(path("content/books/missing.md"), limit: 100)
            Issue.record("a missing file was read")
        } catch {
            #expect(error.isMissing)
            #expect(error.path == path("content/books/missing.md"))
        }
    }

    @Test("a folder swapped for a link out after it was opened is still read where it was, never outside")
    func swappedFolder() throws {
        let scratch = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch.url) }
        let site = try makeSite(scratch)
        let folders = try openFolders(site)
        let books = site.appendingPathComponent("content/books").path
        #expect(try folders.read(books + "/plain.md", limit: 100) == Data("plain".utf8))
        try FileManager.default.moveItem(atPath: books, toPath: site.appendingPathComponent("content/moved").path)
        try FileManager.default.createSymbolicLink(
            atPath: books, withDestinationPath: scratch.url.appendingPathComponent("outside").path)
        try scratch.write("outside/plain.md", "secret")
        #expect(try folders.read(books + "/plain.md", limit: 100) == Data("plain".utf8))
        // A new set of folders (the next build) opens it afresh, and finds it outside.
        #expect(try OpenFolders(realRoot: folders.realRoot).read(books + "/plain.md", limit: 100) == nil)
        var problems: [Diagnostic] = []
        #expect(SiteFolder(root: site, fileSystem: .disk).read("content/books/plain.md", &problems) == nil)
        #expect(
            problems.map(\.description) == [
                "content/books/plain.md:1:1: cannot read: refused: it is a link to a place outside the site folder"
            ])
    }

    @Test("a file system whose reading was replaced is read through it, never past it by an open folder")
    func replacedRead() throws {
        let scratch = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch.url) }
        let site = try makeSite(scratch)
        var fileSystem = FileSystem.disk
        #expect(fileSystem.readsDisk)
        fileSystem.read = { path, _, _ throws(FileSystemError) in
            throw FileSystemError(path: path, reason: "refused by the test")
        }
        #expect(!fileSystem.readsDisk)
        var problems: [Diagnostic] = []
        #expect(SiteFolder(root: site, fileSystem: fileSystem).read("content/books/plain.md", &problems) == nil)
        #expect(problems.map(\.description) == ["content/books/plain.md:1:1: cannot read: refused by the test"])
    }

    @Test("two folders whose names differ only in how an accent is encoded are two folders")
    func accentedFolders() throws {
        let scratch = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch.url) }
        let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")
        try scratch.write("site/\(composed)/a.md", "composed")
        try scratch.write("site/\(decomposed)/a.md", "decomposed")
        let site = scratch.url.appendingPathComponent("site")
        let folders = try openFolders(site)
        // Swift's == takes the two names for one: each is told by what it holds.
        for (name, text) in [(composed, "composed"), (decomposed, "decomposed"), (composed, "composed")] {
            #expect(try folders.read(site.path + "/\(name)/a.md", limit: 100) == Data(text.utf8), "\(text)")
        }
    }

    @Test("at most a fixed number of folders stay open; files in others are left to the caller")
    func capacity() throws {
        let scratch = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch.url) }
        let count = OpenFolders.capacity + 6
        for number in 0..<count { try scratch.write("site/f\(number)/file.md", "\(number)") }
        let site = scratch.url.appendingPathComponent("site")
        let folders = try openFolders(site)
        let read = try (0..<count).map { number in
            try folders.read(site.appendingPathComponent("f\(number)/file.md").path, limit: 100)
        }
        #expect(
            read.prefix(OpenFolders.capacity).map { $0.map { String(decoding: $0, as: UTF8.self) } }
                == (0..<OpenFolders.capacity).map { "\($0)" })
        #expect(read.dropFirst(OpenFolders.capacity).allSatisfy { $0 == nil })
        // Every file is still read through the loader.
        let folder = SiteFolder(root: site, fileSystem: .disk)
        var problems: [Diagnostic] = []
        for number in 0..<count {
            #expect(folder.read("f\(number)/file.md", &problems) == Data("\(number)".utf8))
        }
        #expect(problems.isEmpty)
    }
}
