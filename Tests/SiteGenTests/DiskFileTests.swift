import Foundation
import Testing

@testable import SiteGen

@Suite("Reading files that must stay inside a folder")
struct DiskFileTests {
    @Test("a file read within a folder is checked where it was opened: a link out is refused, one within is read")
    func readWithin() throws {
        let scratch = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch.url) }
        try scratch.write("site/static/inside.txt", "inside")
        try scratch.write("secret.txt", "secret")
        let site = scratch.url.appendingPathComponent("site")
        try FileManager.default.createSymbolicLink(
            atPath: site.appendingPathComponent("static/out.txt").path,
            withDestinationPath: scratch.url.appendingPathComponent("secret.txt").path)
        try FileManager.default.createSymbolicLink(
            atPath: site.appendingPathComponent("static/alias.txt").path, withDestinationPath: "inside.txt")
        let root = try #require(SafePath.realPath(site.path))
        let read = { (name: String) throws(FileSystemError) in
            try DiskFile.read(site.appendingPathComponent("static/\(name)").path, within: root)
        }
        #expect(try read("inside.txt") == Data("inside".utf8))
        #expect(try read("alias.txt") == Data("inside".utf8))
        #expect(throws: FileSystemError.self) { try read("out.txt") }
        do {
            _ = try read("out.txt")
        } catch {
            #expect(error.reason == "refused: it is a link to a place outside the site folder")
        }
        // Without a folder to stay in, the link is followed (callers that check nothing).
        #expect(try DiskFile.read(site.appendingPathComponent("static/out.txt").path) == Data("secret".utf8))
        // The loader reads through the same check.
        let folder = SiteFolder(root: site, fileSystem: .disk)
        var problems: [Diagnostic] = []
        #expect(folder.read("static/out.txt", &problems) == nil)
        #expect(
            problems.map(\.description) == [
                "static/out.txt:1:1: cannot read: refused: it is a link to a place outside the site folder"
            ])
    }

    @Test("the folders of a set of files, for telling a deleted folder from a deleted file")
    func folders() {
        let files = ["a/b/c.png": Data(), "a/d.png": Data(), "e.css": Data(), "f/g/h/i.txt": Data()]
        var folders: Set<String>?
        for (path, expected) in [
            ("a", true), ("a/b", true), ("f", true), ("f/g", true), ("f/g/h", true), ("a/b/c.png", false),
            ("e.css", false), ("b", false), ("a/b/c", false), ("", false), ("f/g/h/i.txt", false),
        ] {
            #expect(LiveSite.holdsFiles(path, of: files, folders: &folders) == expected, "\(path)")
        }
        #expect(folders == ["a", "a/b", "f", "f/g", "f/g/h"])
    }

    @Test("a path is a symbolic link by one look at it, as its folder's entries say, whatever it leads to")
    func symbolicLinks() throws {
        let scratch = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch.url) }
        try scratch.write("site/file.txt", "text")
        try scratch.write("site/folder/inner.txt", "text")
        let site = scratch.url.appendingPathComponent("site").path
        let links = [
            "broken": "nowhere", "loop-a": "loop-b", "loop-b": "loop-a", "to-file": "file.txt", "to-folder": "folder",
        ]
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(atPath: site + "/" + name, withDestinationPath: target)
        }
        var listing = FileSystem.disk
        listing.isSymbolicLink = nil
        for name in ["broken", "loop-a", "to-file", "to-folder", "file.txt", "folder", "missing", "folder/inner.txt"] {
            let path = site + "/" + name
            let parent = (path as NSString).deletingLastPathComponent
            let last = (name as NSString).lastPathComponent
            let looked = FileSystem.disk.isSymbolicLink(path, name: last, in: parent)
            #expect(looked == (links[name] != nil), "\(name)")
            #expect(looked == listing.isSymbolicLink(path, name: last, in: parent), "\(name)")
        }
    }
}
