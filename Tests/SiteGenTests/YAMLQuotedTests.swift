import Foundation
import Testing
import YAML

@testable import SiteGen

@Suite("Quoting scalars for the YAML sitegen writes")
struct YAMLQuotedTests {
    @Test(
        "a quoted text reads back as itself",
        arguments: [
            "Parasite", "Dune: Part Two", "\"quoted\" and \\back\\", "기생충", "# not a comment", "- not a list",
            "yes", "null", "123", "4.5", "[1, 2]", "{a: b}", "&anchor *alias", "!tag", "  spaced  ", "line\nbreak",
            "tab\there", "\u{85}\u{2028}\u{2029}\u{FEFF}", "'single'", "%YAML", "@at `tick`", "",
        ])
    func roundTrip(text: String) throws {
        let node = try YAMLParser.parse("title: \(text.yamlQuoted)\n")
        var reader = FieldReader(node, path: "x.md", firstLine: 1)
        #expect(reader.string("title", required: false) == text || text.isEmpty)
        #expect(reader.diagnostics.isEmpty)
    }

    @Test("what is escaped and what is written as it is")
    func escapes() {
        #expect("a\"b\\c".yamlQuoted == #""a\"b\\c""#)
        #expect("é기\n\t\u{2028}".yamlQuoted == #""é기\n\t\u2028""#)
    }

    @Test("control characters no YAML reader accepts, even escaped, are left out")
    func controlCharacters() throws {
        let quoted = "a\u{0}b\u{1}\u{1B}c\u{7F}\u{80}\u{9F}d\u{85}\u{FFFE}\u{FFFF}e".yamlQuoted
        #expect(quoted == #""abcd\u0085e""#)
        let node = try YAMLParser.parse("title: \(quoted)\n")
        var reader = FieldReader(node, path: "x.md", firstLine: 1)
        #expect(reader.string("title", required: false) == "abcd\u{85}e")
    }
}
