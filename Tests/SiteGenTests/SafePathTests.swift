import Foundation
import Testing

@testable import SiteGen

#if canImport(Glibc)
    import Glibc
#endif

/// Joining untrusted relative paths to a folder: what stays inside is kept, what leaves is refused.
@Suite("Safe paths")
struct SafePathTests {
    /// Runs `body` with the scratch folder and its `root/`, which holds a file, a folder and
    /// links inside and out (beside it, `outside/`); the folder is removed afterwards.
    private func inTree(_ body: (_ scratch: URL, _ root: URL) throws -> Void) throws {
        let scratch = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch.url) }
        try scratch.write("root/movies/parasite.json", "{}")
        try scratch.write("outside/secret.json", "{}")
        let manager = FileManager.default
        let root = scratch.url.appendingPathComponent("root")
        try manager.createSymbolicLink(atPath: root.path + "/inner", withDestinationPath: "movies")
        try manager.createSymbolicLink(atPath: root.path + "/out", withDestinationPath: "../outside")
        try manager.createSymbolicLink(
            atPath: root.path + "/escape.json", withDestinationPath: "../outside/secret.json")
        try manager.createSymbolicLink(atPath: root.path + "/dangling", withDestinationPath: "../outside/missing")
        try manager.createSymbolicLink(atPath: root.path + "/loop", withDestinationPath: "loop")
        try body(scratch.url, root)
    }

    @Test("a path resolved in one walk is what realpath(3) gives, and nil where realpath fails; so is one 600 deep")
    func resolvedIsRealpath() throws {
        try inTree { scratch, root in
            var deep = root.path + "/deep"
            for _ in 0..<600 { deep += "/d" }
            try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
            try Data().write(to: URL(fileURLWithPath: deep + "/file.txt"))
            let names = [
                "movies", "movies/parasite.json", "inner", "inner/parasite.json", "out", "out/secret.json",
                "escape.json", "dangling", "loop", "missing", "movies/missing.json", "inner/../inner",
            ]
            for path in names.map({ root.path + "/" + $0 }) + [scratch.path, "/", deep, deep + "/file.txt"] {
                let expected = realpath(path, nil).map { pointer in
                    defer { free(pointer) }
                    return String(cString: pointer)
                }
                #expect(SafePath.resolved(path) == expected, "\(path)")
            }
        }
    }

    @Test("paths inside the folder are kept, existing or not, through links that stay inside")
    func keepsInside() throws {
        try inTree { _, root in
            for relative in [
                "movies/parasite.json", "movies//parasite.json", "inner/parasite.json", "movies/new.json",
                "new/folder/file.json", "inner/new.json",
                // A name starting with a combining mark is inside, though `root/` is no prefix of it as Characters.
                "\u{301}x.json", "\u{301}x/new.json",
            ] {
                let url = try #require(SafePath.resolve(relative, in: root), "\(relative.debugDescription)")
                #expect(url.path.utf8.starts(with: (root.path + "/").utf8), "\(relative.debugDescription)")
            }
        }
    }

    @Test("absolute paths, dot segments, NUL, backslashes and links leading out or nowhere are refused")
    func refusesEscapes() throws {
        try inTree { _, root in
            for relative in [
                "", "/etc/passwd", "../outside/secret.json", "movies/../../outside", "./movies", "a\0b",
                "a\\b", "out/secret.json", "out/new.json", "escape.json", "dangling", "dangling/x", "loop", "loop/x",
                // A combining mark after a slash: as Characters, `/\u{301}` is one, and `..` hid.
                "../\u{301}x", "movies/../../\u{301}x",
            ] {
                #expect(SafePath.resolve(relative, in: root) == nil, "\(relative.debugDescription)")
            }
            // The segments are the kernel's: a `..` before such a name is one, and the name is whole.
            #expect(SafePath.segments(of: "content/../\u{301}x") == nil)
            #expect(SafePath.segments(of: "a/\u{301}b//c")?.map(String.init) == ["a", "\u{301}b", "c"])
            #expect(SafePath.segments(of: "\u{301}/x")?.map(String.init) == ["\u{301}", "x"])
            #expect(SafePath.segments(of: "a/.../b")?.map(String.init) == ["a", "...", "b"])
        }
    }

    @Test("a real path is inside a root by its bytes: composed and decomposed é are two folders")
    func withinByBytes() {
        #expect(SafePath.isWithin("/r/caf\u{E9}/x", "/r/caf\u{E9}"))
        #expect(!SafePath.isWithin("/r/cafe\u{301}/x", "/r/caf\u{E9}"))
        #expect(!SafePath.isWithin("/r/cafe\u{301}", "/r/caf\u{E9}"))
        #expect(SafePath.isWithin("/r/\u{301}x", "/r"))
        #expect(SafePath.isWithin("/r/\u{301}x", "/r/"))
        #expect(SafePath.isWithin("/x", "/"))
        #expect(!SafePath.isWithin("/rx", "/r"))
    }

    @Test("a root reached through a link is compared by its real place")
    func rootThroughLink() throws {
        try inTree { scratch, root in
            let alias = scratch.appendingPathComponent("alias")
            try FileManager.default.createSymbolicLink(atPath: alias.path, withDestinationPath: root.path)
            #expect(SafePath.resolve("movies/parasite.json", in: alias)?.path == alias.path + "/movies/parasite.json")
            #expect(SafePath.resolve("out/secret.json", in: alias) == nil)
        }
    }

    @Test("the checker for many files decides as resolve does, asked twice, from a linked root too")
    func checkerAgrees() throws {
        try inTree { scratch, root in
            let alias = scratch.appendingPathComponent("alias")
            try FileManager.default.createSymbolicLink(atPath: alias.path, withDestinationPath: root.path)
            try FileManager.default.createSymbolicLink(
                atPath: root.path + "/movies/escape.json", withDestinationPath: "../../outside/secret.json")
            let paths = [
                "movies/parasite.json", "movies//parasite.json", "inner/parasite.json", "movies/new.json",
                "new/folder/file.json", "inner/new.json", "", "/etc/passwd", "../outside/secret.json",
                "movies/../../outside", "./movies", "a\0b", "a\\b", "out/secret.json", "out/new.json", "escape.json",
                "dangling", "dangling/x", "loop", "loop/x", "movies/escape.json", "inner/escape.json", "movies/",
            ]
            for folder in [root, alias] {
                let checker = SafePathChecker(root: folder)
                for relative in paths + paths {
                    #expect(
                        checker.isInside(relative) == (SafePath.resolve(relative, in: folder) != nil),
                        "\(relative.debugDescription) in \(folder.lastPathComponent)")
                }
                #expect(checker.isInside("movies/parasite.json"))
                #expect(!checker.isInside("movies/escape.json"))
                #expect(!checker.isInside("out/secret.json"))
            }
        }
    }
}
