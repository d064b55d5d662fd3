import Foundation
import Mustache
import SiteGen
import Testing
import YAML

@Suite("Front matter")
struct FrontMatterTests {
    @Test("splits the YAML between the fences from the body")
    func splits() throws {
        let front = try FrontMatter(
            splitting: "---\ntitle: Stoner\nrating: 4\n---\nThe body.\n\n---\nMore.\n", path: "a.md")
        #expect(front.yaml == "title: Stoner\nrating: 4\n")
        #expect(front.yamlFirstLine == 2)
        #expect(front.body == "The body.\n\n---\nMore.\n")
    }

    @Test("CRLF line endings: fences are found and the YAML and body keep their text")
    func crlf() throws {
        let front = try FrontMatter(splitting: "---\r\ntitle: Stoner\r\n---\r\nThe body.\r\n", path: "a.md")
        #expect(front.yaml == "title: Stoner\r\n")
        #expect(front.body == "The body.\r\n")
        #expect(try YAMLParser.parse(front.yaml)?["title"]?.scalarText == "Stoner")
    }

    @Test("a byte order mark before the first fence is skipped")
    func byteOrderMark() throws {
        let front = try FrontMatter(splitting: "\u{FEFF}---\ntitle: Almond\n---\nBody\n", path: "a.md")
        #expect(front.yaml == "title: Almond\n")
        #expect(front.body == "Body\n")
    }

    @Test("\"...\" also closes the front matter; an empty block is empty YAML")
    func otherClosings() throws {
        let dots = try FrontMatter(splitting: "---\ntitle: X\n...\nBody", path: "a.md")
        #expect(dots.yaml == "title: X\n")
        #expect(dots.body == "Body")
        let empty = try FrontMatter(splitting: "---\n---\n", path: "a.md")
        #expect(empty.yaml == "")
        #expect(empty.body == "")
        #expect(try YAMLParser.parse(empty.yaml) == nil)
    }

    @Test("a file without an opening fence is an error at 1:1")
    func noFrontMatter() {
        #expect(
            throws: Diagnostic(
                "no front matter: the file must start with a \"---\" line, then YAML, then \"---\"",
                at: SourceLocation(path: "content/movies/x.md", line: 1, column: 1))
        ) {
            try FrontMatter(splitting: "title: X\n---\nBody\n", path: "content/movies/x.md")
        }
        #expect(throws: Diagnostic.self) { try FrontMatter(splitting: "", path: "x.md") }
        #expect(throws: Diagnostic.self) { try FrontMatter(splitting: " ---\ntitle: X\n---\n", path: "x.md") }
    }

    @Test("an opening fence without a closing one is an error at 1:1")
    func unclosed() {
        #expect(
            throws: Diagnostic(
                "front matter is not closed: add a \"---\" line after the YAML",
                at: SourceLocation(path: "content/books/y.md", line: 1, column: 1))
        ) {
            try FrontMatter(splitting: "---\ntitle: Y\ndate: 2024-01-01\nBody text\n", path: "content/books/y.md")
        }
        #expect(throws: Diagnostic.self) { try FrontMatter(splitting: "---", path: "x.md") }
        #expect(throws: Diagnostic.self) { try FrontMatter(splitting: "---\ntitle: Y\n--- \n", path: "x.md") }
    }

    @Test("errors inside CRLF or BOM front matter keep their file line and column")
    func positionsAfterCRLFAndBOM() {
        let site = InMemorySite([
            "content/movies/a.md": "\u{FEFF}---\r\ntitle: A\r\ndate: 2024-01-01\r\nrating: 9\r\n---\r\nBody\r\n",
            "content/movies/b.md": "---\r\ntitle: B\r\n\r\ndate: soon\r\n---\r\n",
        ])
        #expect(
            site.problems() == [
                "content/movies/a.md:4:9: \"rating\" must be a number from 0 to 5 in half steps (like 3.5), not \"9\"",
                "content/movies/b.md:4:7: \"date\" must be a date written YYYY-MM-DD, not \"soon\"",
            ])
    }
}
