import Testing

@testable import SiteGen

/// The path helpers of `String+Path.swift`: slashes found as bytes, names compared as text.
@Suite("Path segments")
struct PathSegmentsTests {
    /// Names of ASCII, Hangul, a precomposed and a decomposed é, and none (for `//` and a
    /// leading or trailing `/`): nowhere does a combining mark follow a slash.
    static let names = ["", "", "a", "movies", "x.md", "..", ".", "기생충", "영화", "é", "cafe\u{301}", "été.jpg"]

    /// `count` random paths of up to five names (seeded, so a failure repeats).
    static func randomPaths(_ count: Int) -> [String] {
        var generator = SplitMix(seed: 7)
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...5, using: &generator)).map { _ in names.randomElement(using: &generator)! }
                .joined(separator: "/")
        }
    }

    @Test("on paths without a combining mark after a slash, the helpers cut where split and index(of:) cut")
    func sameAsSplit() {
        for path in Self.randomPaths(2_000) {
            let shown = path.debugDescription
            #expect(bytes(path.pathSegments()) == bytes(path.split(separator: "/")), "\(shown)")
            #expect(
                bytes(path.pathSegments(omittingEmpty: false))
                    == bytes(path.split(separator: "/", omittingEmptySubsequences: false)), "\(shown)")
            #expect(path.firstSlashIndex == path.firstIndex(of: "/"), "\(shown)")
            #expect(path.lastSlashIndex == path.lastIndex(of: "/"), "\(shown)")
            let inner = path.dropFirst(path.count / 2)
            #expect(bytes(inner.pathSegments()) == bytes(inner.split(separator: "/")), "\(shown)")
            #expect(inner.lastSlashIndex == inner.lastIndex(of: "/"), "\(shown)")
            if let slash = path.firstSlashIndex {
                #expect(path.suffix(afterSlash: slash).startIndex == path.index(after: slash), "\(shown)")
            }
        }
    }

    @Test("on such paths, a folder prefix is found where hasPrefix finds it, and the rest is what follows it")
    func prefixSameAsHasPrefix() {
        let paths = Self.randomPaths(600)
        for (path, other) in zip(paths, paths.reversed() + ["", "/", "//", "./", "movies/a"]) {
            let segments = path.split(separator: "/", omittingEmptySubsequences: false)
            // Folders of the path itself (most found), and of another path (most not).
            let folders = (0..<segments.count).map { segments[..<$0].joined(separator: "/") + "/" } + [other + "/"]
            for prefix in folders + ["/", "//", "./"] {
                let shown = "\(path.debugDescription) \(prefix.debugDescription)"
                let expected = path.hasPrefix(prefix) ? path.dropFirst(prefix.count) : nil
                #expect(path.removingPathPrefix(prefix).map(\.startIndex) == expected.map(\.startIndex), "\(shown)")
                #expect(path.hasPathPrefix(prefix) == path.hasPrefix(prefix), "\(shown)")
            }
        }
    }

    @Test("a name starting with a combining mark is cut from the slash before it, as the kernel cuts it")
    func combiningMarkAfterSlash() throws {
        let path = "a/\u{301}b//c/"
        #expect(path.split(separator: "/").count == 2)  // As Characters, `/\u{301}` is no slash.
        #expect(path.pathSegments() == ["a", "\u{301}b", "c"])
        #expect(path.pathSegments(omittingEmpty: false) == ["a", "\u{301}b", "", "c", ""])
        #expect("/\u{301}".pathSegments(omittingEmpty: false) == ["", "\u{301}"])
        let slash = try #require("a/\u{301}b".lastSlashIndex)
        #expect("a/\u{301}b"[..<slash] == "a")
        #expect(Array("a/\u{301}b".suffix(afterSlash: slash).unicodeScalars) == ["\u{301}", "b"])
        #expect("x/\u{301}/y".firstSlashIndex.map { "x/\u{301}/y"[..<$0] } == "x")
        let inner = "x/a/\u{301}b".dropFirst(2)
        #expect(inner.pathSegments() == ["a", "\u{301}b"])
        // A folder's path and `/`: the slash found as a byte, the names compared as text.
        #expect("content/\u{301}x".removingPathPrefix("content/") == "\u{301}x")
        #expect("/\u{301}x".removingPathPrefix("/") == "\u{301}x")
        #expect("//\u{301}x".hasPathPrefix("//"))
        #expect("./\u{301}x".removingPathPrefix("./") == "\u{301}x")
        #expect("a/b/\u{301}".removingPathPrefix("a/b/") == "\u{301}")
        #expect("café/x".removingPathPrefix("cafe\u{301}/") == "x")
        #expect(!"contents/\u{301}x".hasPathPrefix("content/"))
        #expect(!"content\u{301}/x".hasPathPrefix("content/"))
        #expect(!"content".hasPathPrefix("content/"))
    }

    /// The bytes of each part, so that parts equal as text but not as bytes differ.
    private func bytes(_ parts: [Substring]) -> [[UInt8]] {
        parts.map { Array($0.utf8) }
    }
}
