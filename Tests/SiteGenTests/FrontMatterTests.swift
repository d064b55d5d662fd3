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

    @Test("spaces and tabs after a fence, which editors leave and no one sees, are allowed")
    func fencesWithTrailingSpace() throws {
        let front = try FrontMatter(splitting: "--- \ntitle: Stoner\n---\t \r\nThe body.\n", path: "a.md")
        #expect(front.yaml == "title: Stoner\n")
        #expect(front.body == "The body.\n")
        #expect(try FrontMatter(splitting: "---\ntitle: X\n...  \nBody", path: "a.md").body == "Body")
        #expect(throws: Diagnostic.self) { try FrontMatter(splitting: "--- x\ntitle: X\n---\n", path: "a.md") }
        #expect(throws: Diagnostic.self) { try FrontMatter(splitting: "----\ntitle: X\n---\n", path: "a.md") }
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

    @Test("lines ended by a carriage return alone are named as the cause; CRLF is fine")
    func carriageReturnsAlone() throws {
        #expect(
            throws: Diagnostic(
                "the lines of this file end with a carriage return alone (classic Mac OS): save it with LF or "
                    + "CRLF line endings",
                at: SourceLocation(path: "x.md", line: 1, column: 1))
        ) {
            try FrontMatter(splitting: "---\rtitle: X\r---\rBody\r", path: "x.md")
        }
        #expect(try FrontMatter(splitting: "---\r\ntitle: X\r\n---\r\nBody\r\n", path: "x.md").body == "Body\r\n")
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
        #expect(throws: Diagnostic.self) { try FrontMatter(splitting: "---\ntitle: Y\n--- x\n", path: "x.md") }
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

@Suite("Front matter: hostile input")
struct FrontMatterHostileTests {
    @Test("a \"--- x\" line inside front matter starts a second YAML document: an error at its file line")
    func secondDocumentInFrontMatter() {
        let site = InMemorySite([
            "content/movies/x.md": "---\ntitle: X\ndate: 2024-01-01\n--- rating: 3\nrating: 4\n---\nBody\n"
        ])
        #expect(
            site.problems() == [
                "content/movies/x.md:4:1: a second YAML document starts here, but only one is read: "
                    + "remove this \"---\" line to make one document"
            ])
    }

    @Test("billion laughs in a review is stopped at the alias, at its file line and column")
    func billionLaughs() {
        let site = InMemorySite([
            "content/movies/x.md": "---\ntitle: X\ndate: 2024-01-01\n" + YAMLLimitsTests.billionLaughs + "---\nBody\n"
        ])
        #expect(
            site.problems() == [
                "content/movies/x.md:9:8: this YAML expands to more than 100,000 values through aliases"
            ])
    }

    @Test("merge keys and aliases in front matter reach the review's fields and extra")
    func mergeKeysInFrontMatter() throws {
        let site = InMemorySite([
            "content/movies/x.md": reviewFile(
                "_film: &film {director: Bong Joon-ho, year: 2019, rating: 1}\n<<: *film\n"
                    + "title: Parasite\ndate: 2024-01-01\nrating: 4.5\ncast: &cast [Song Kang-ho]\nleads: *cast")
        ])
        let review = try #require(try site.load().reviews.first)
        #expect(review.work.creator == "Bong Joon-ho")
        #expect(review.work.year == 2019)
        #expect(review.rating == Rating(4.5))
        #expect(review.extra["leads"] == .array([.string("Song Kang-ho")]))
        #expect(review.extra["<<"] == nil)
    }

    @Test("the fuzzing entry point reads bytes as a build reads a review")
    func readReviewBytes() throws {
        let (review, problems) = FrontMatter.readReview(Data("---\ntitle: X\ndate: 2024-01-01\n---\n*Hi*\n".utf8))
        #expect(problems.isEmpty)
        #expect(review?.title == "X")
        #expect(review?.body.html == "<p><em>Hi</em></p>\n")
        #expect(
            FrontMatter.readReview(Data([0x2D, 0x2D, 0x2D, 0x0A, 0x61, 0xFF])).1.map(\.description) == [
                "content/movies/fuzz.md:2:2: not valid UTF-8 text (byte 0xFF): save the file as UTF-8"
            ])
        #expect(
            FrontMatter.readReview(Data("---\ntitle: a\u{0}\n---\n".utf8), kind: .book).1.map(\.description) == [
                "content/books/fuzz.md:2:9: control characters are not allowed (U+0000)"
            ])
        #expect(FrontMatter.readReview(Data()).1.count == 1)
    }

    @Test("NUL bytes and a byte order mark in the body reach Markdown, which replaces NUL with U+FFFD")
    func bodyBytes() throws {
        let site = InMemorySite(["content/movies/x.md": reviewFile("title: X\ndate: 2024-01-01", body: "a\u{0}b")])
        let review = try #require(try site.load().reviews.first)
        #expect(review.body.html == "<p>a\u{FFFD}b</p>\n")
    }
}
