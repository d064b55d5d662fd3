import Foundation
import Testing

/// Runs the built `sitegen` binary, checking its output bytes and exit codes.
@Suite("sitegen binary")
struct EndToEndTests {
    @Test("template writes exactly the rendered bytes, with no newline added")
    func templateOutput() throws {
        let folder = try TemporaryFolder([
            "t.mustache": "{{#items}}<{{name}}>{{/items}}\n  {{>p}}",
            "p.mustache": "[{{title}}]\n[end]",
            "d.json": #"{"items": [{"name": "a&b"}, {"name": "리뷰"}], "title": "x"}"#,
        ])
        let result = try BuiltBinary("sitegen").run(["template", "t.mustache", "--data", "d.json"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.out == Data("<a&amp;b><리뷰>\n  [x]\n  [end]".utf8))
        #expect(result.err.isEmpty)
    }

    @Test("exit codes: 0 for help, 64 for usage errors, 1 for failures")
    func exitCodes() throws {
        let folder = try TemporaryFolder(["t.mustache": "{{#a}}", "d.json": "{}"])
        let binary = try BuiltBinary("sitegen")
        #expect(try binary.run(["--help"], in: folder.url).status == 0)
        #expect(try binary.run(["--version"], in: folder.url).outText == "sitegen 0.2.0\n")
        let usage = try binary.run(["template", "--frobnicate"], in: folder.url)
        #expect(usage.status == 64)
        #expect(usage.err.contains("unknown option --frobnicate"))
        let failure = try binary.run(["template", "t.mustache", "--data", "d.json"], in: folder.url)
        #expect(failure.status == 1)
        #expect(failure.err == "t.mustache:1:7: unclosed section \"a\" (opened at 1:1)\n")
        #expect(failure.out.isEmpty)
    }
}
