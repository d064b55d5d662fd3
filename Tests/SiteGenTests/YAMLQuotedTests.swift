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
            "tab\there", "\u{1}\u{7F}\u{85}\u{2028}\u{2029}\u{FEFF}", "'single'", "%YAML", "@at `tick`", "",
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
        #expect("é기\n\t\u{0}\u{2028}".yamlQuoted == #""é기\n\t\u0000\u2028""#)
    }
}
