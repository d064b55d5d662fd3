import Foundation
import Testing

@testable import SiteGen

#if canImport(Glibc)
    import Glibc
#endif

/// The manifest's stamps of the input folders, which are read side by side.
@Suite("Build manifest scan")
struct BuildManifestScanTests {
    @Test("the build's identity holds each shared library that writes pages, with its stamp")
    func identityHoldsLibraries() throws {
        let libraries = BuildManifest.loadedLibraries
        for name in ["libcmark", "libyaml", "libvips", "libFoundation"] {
            let line = try #require(libraries.first { $0.contains("/\(name)") }, "\(name) in \(libraries)")
            let path = String(line.prefix { $0 != " " })
            #expect(line == "\(path) \(try #require(FileStamp.following(path)).text)")
        }
    }

    @Test("every visible file and folder of the input folders is stamped, and nothing else")
    func stampsEveryInput() throws {
        let folder = try ScratchFolder()
        try Self.site(folder)
        let scanned = try #require(BuildManifest.scan(folder.url))
        // Each path once, as the manifest's table needs.
        #expect(Set(scanned.map(\.path)).count == scanned.count)
        let stamps = Dictionary(uniqueKeysWithValues: scanned.map { ($0.path, $0.stamp) })
        #expect(
            Set(stamps.keys) == [
                "site.yml", "content/", "content/movies/", "content/movies/a.md", "content/movies/b/",
                "content/movies/b/index.md", "metadata/", "metadata/movies/", "metadata/movies/tmdb-1.json", "static/",
                "static/robots.txt",
            ])
        #expect(stamps["content/movies/a.md"]?.size == 3)
    }

    @Test(
        "a folder reached twice makes no stamps (the build then runs in full): within one input folder or from two",
        arguments: [
            ("static/films", "../content/movies"), ("content/movies/again", ".."), ("metadata/x", "../content"),
        ])
    func folderReachedTwice(link: String, target: String) throws {
        let folder = try ScratchFolder()
        try Self.site(folder)
        #expect(symlink(target, folder.url.path + "/" + link) == 0)
        #expect(BuildManifest.scan(folder.url) == nil)
        // A link to a file, or to a folder outside the input folders, is stamped like any entry.
        #expect(unlink(folder.url.path + "/" + link) == 0)
        #expect(symlink("../content/movies/a.md", folder.url.path + "/static/a.md") == 0)
        #expect(BuildManifest.scan(folder.url)?.first { $0.path == "static/a.md" }?.stamp.size == 3)
    }

    static func site(_ folder: borrowing ScratchFolder) throws {
        try folder.write("site.yml", "title: T\n")
        try folder.write("content/movies/a.md", "abc")
        try folder.write("content/movies/b/index.md", "b")
        try folder.write("content/movies/.hidden.md", "x")
        try folder.write("metadata/movies/tmdb-1.json", "{}")
        try folder.write("static/robots.txt", "x")
    }
}
