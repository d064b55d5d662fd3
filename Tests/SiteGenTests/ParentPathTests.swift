import Testing

@testable import SiteGen

@Suite("Parent paths")
struct ParentPathTests {
    @Test(
        "the parent of a /-separated path, as NSString gives it, and no trap on one character",
        arguments: [
            ("x", ""), ("é", ""), ("ab", ""), ("", ""), ("/", "/"), ("/x", "/"), ("//x", "/"), ("x/", ""),
            ("d/x", "d"), ("a/b/c", "a/b"), ("a/b/", "a"), ("a//b", "a"), ("/a/b", "/a"), ("영화/기생충", "영화"),
            ("a/\u{301}b", "a"), ("\u{301}/\u{301}", "\u{301}"), ("a\u{301}/b/", "a\u{301}"),
        ])
    func parent(path: String, expected: String) {
        #expect(path.parentPath == expected)
    }
}
