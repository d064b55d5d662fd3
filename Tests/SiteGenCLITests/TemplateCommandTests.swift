import Foundation
import SiteGenCLI
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("sitegen template")
struct TemplateCommandTests {
    @Test("renders with partials from the template's folder and writes exactly the output")
    func rendersWithPartials() async throws {
        let folder = try TemporaryFolder([
            "page.mustache": "{{<layout}}{{$body}}<p>{{greeting}}, {{name}}!</p>{{/body}}{{/layout}}",
            "layout.mustache": "<main>\n  {{>nav}}\n  {{$body}}{{/body}}\n</main>",
            "nav.mustache": "<nav>{{#links}}<a>{{.}}</a>{{/links}}</nav>\n",
            "data.json": #"{"greeting": "안녕", "name": "<Min>", "links": ["a", "b"]}"#,
        ])
        let console = TestConsole()
        #expect(await console.run(["template", "page.mustache", "--data", "data.json"], in: folder.url) == 0)
        #expect(console.out == "<main>\n  <nav><a>a</a><a>b</a></nav>\n  <p>안녕, &lt;Min&gt;!</p>\n</main>")
        #expect(console.err.isEmpty)
    }

    @Test("--partials names another folder")
    func partialsFolder() async throws {
        let folder = try TemporaryFolder([
            "pages/page.mustache": "[{{>part}}]",
            "theme/part.mustache": "{{x}}",
            "data.json": #"{"x": 1.5}"#,
        ])
        let console = TestConsole()
        let code = await console.run(
            ["template", "pages/page.mustache", "--data", "data.json", "--partials", "theme"], in: folder.url)
        #expect(code == 0)
        #expect(console.out == "[1.5]")

        // A folder that is not there, or a file, is said to be so, not as a partial not found.
        for (partials, reason) in [
            ("themes", "no such folder for --partials"), ("data.json", "--partials names a file, not a folder"),
        ] {
            let wrong = TestConsole()
            #expect(
                await wrong.run(
                    ["template", "pages/page.mustache", "--data", "data.json", "--partials", partials], in: folder.url)
                    == 1)
            #expect(wrong.err == "\(partials): \(reason)\n")
            #expect(wrong.out == "")
        }
    }

    @Test("a template named by one letter in the current folder takes its partials from there")
    func oneLetterName() async throws {
        // Foundation's deletingLastPathComponent trapped on a path of one character.
        let folder = try TemporaryFolder(["t": "Hi {{name}}{{>p}}", "p.mustache": "!", "d.json": #"{"name": "x"}"#])
        let console = TestConsole()
        #expect(await console.run(["template", "t", "--data", "d.json"], in: folder.url) == 0, "\(console.err)")
        #expect(console.out == "Hi x!")
    }

    @Test(
        "any JSON value is data, not only an object",
        arguments: [
            ("85", "85"), (#""text""#, "text"), ("[1, 2]", "12"), ("null", ""), ("true", "true"),
        ])
    func scalarData(json: String, expected: String) async throws {
        let folder = try TemporaryFolder(["t.mustache": "{{#.}}{{.}}{{/.}}", "d.json": json])
        let console = TestConsole()
        #expect(await console.run(["template", "t.mustache", "--data", "d.json"], in: folder.url) == 0)
        #expect(console.out == expected)
    }

    @Test("bad JSON names the file, line and column")
    func badJSON() async throws {
        let folder = try TemporaryFolder(["t.mustache": "{{a}}", "d.json": "{\n \"a\": 1,\n \"b\" 2}"])
        let console = TestConsole()
        #expect(await console.run(["template", "t.mustache", "--data", "d.json"], in: folder.url) == 1)
        #expect(console.out.isEmpty)
        #expect(console.err.hasPrefix("d.json:3:6: not valid JSON: "))
    }

    @Test("a template error names the file, line and column")
    func templateError() async throws {
        let folder = try TemporaryFolder(["t.mustache": "<ul>\n  {{#tags}}\n  <li>{{.}}</li>\n</ul>\n", "d.json": "{}"])
        let console = TestConsole()
        #expect(await console.run(["template", "t.mustache", "--data", "d.json"], in: folder.url) == 1)
        #expect(console.err == "t.mustache:5:1: unclosed section \"tags\" (opened at 2:3)\n")
    }

    @Test("a missing partial is an error that names the tag's place")
    func missingPartial() async throws {
        let folder = try TemporaryFolder(["t.mustache": "a\n {{>nav}}", "d.json": "{}"])
        let console = TestConsole()
        #expect(await console.run(["template", "t.mustache", "--data", "d.json"], in: folder.url) == 1)
        #expect(console.err == "t.mustache:2:2: no template named \"nav\"\n")
    }

    @Test("an error in a partial shows the chain of partials that led there")
    func errorInPartial() async throws {
        let folder = try TemporaryFolder([
            "t.mustache": "{{>outer}}", "outer.mustache": "x\n{{>inner}}", "inner.mustache": "{{/oops}}",
            "d.json": "{}",
        ])
        let console = TestConsole()
        #expect(await console.run(["template", "t.mustache", "--data", "d.json"], in: folder.url) == 1)
        #expect(
            console.err == """
                inner.mustache:1:1: closing tag "oops" has no matching opening tag
                    included from outer.mustache:2:1
                    included from t.mustache:1:1

                """)
    }

    @Test("partial names cannot leave the partials folder")
    func partialOutsideFolder() async throws {
        let folder = try TemporaryFolder([
            "theme/t.mustache": "{{>../secret}}", "secret.mustache": "SECRET", "d.json": "{}",
        ])
        let console = TestConsole()
        #expect(await console.run(["template", "theme/t.mustache", "--data", "d.json"], in: folder.url) == 1)
        #expect(console.err == "theme/t.mustache:1:1: no template named \"../secret\"\n")
        #expect(!console.out.contains("SECRET"))
        // A partial in the folder that links out of it is refused as such, not missing.
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("theme/leak.mustache").path,
            withDestinationPath: "../secret.mustache")
        try Data("{{>leak}}".utf8).write(to: folder.url.appendingPathComponent("theme/t.mustache"))
        let linked = TestConsole()
        #expect(await linked.run(["template", "theme/t.mustache", "--data", "d.json"], in: folder.url) == 1)
        #expect(
            linked.err == """
                theme/leak.mustache:1:1: cannot read template: refused: it is a link to a place outside its folder, or to nothing
                    included from theme/t.mustache:1:1

                """)
        #expect(!linked.out.contains("SECRET"))
    }

    @Test("a folder, a FIFO or a device as the template or the data is an error that says so, at once")
    func notRegularFiles() async throws {
        let folder = try TemporaryFolder(["t.mustache": "x", "d.json": "{}", "dir/.keep": ""])
        #expect(mkfifo(folder.url.appendingPathComponent("fifo").path, 0o644) == 0)
        for (arguments, message) in [
            (["template", "dir", "--data", "d.json"], "dir: cannot read template: is a folder, not a file\n"),
            (["template", "fifo", "--data", "d.json"], "fifo: cannot read template: not a regular file\n"),
            (["template", "t.mustache", "--data", "/dev/zero"], "/dev/zero: cannot read data: not a regular file\n"),
            (["template", "t.mustache", "--data", "dir"], "dir: cannot read data: is a folder, not a file\n"),
        ] {
            let console = TestConsole()
            #expect(await console.run(arguments, in: folder.url) == 1)
            #expect(console.err == message)
        }
    }

    @Test(
        "a missing template or data file is an error",
        arguments: [
            (["template", "nope.mustache", "--data", "d.json"], "nope.mustache: cannot read template: "),
            (["template", "t.mustache", "--data", "nope.json"], "nope.json: cannot read data: "),
        ])
    func missingFiles(arguments: [String], prefix: String) async throws {
        let folder = try TemporaryFolder(["t.mustache": "x", "d.json": "{}"])
        let console = TestConsole()
        #expect(await console.run(arguments, in: folder.url) == 1)
        #expect(console.err.hasPrefix(prefix))
    }

    @Test(
        "strict JSON: a trailing comma, a repeated key or nesting beyond 512 is an error at its place",
        arguments: [
            ("[1,2,]", #"d.json:1:5: not valid JSON: trailing comma before "]""#),
            ("{\"a\": 1,\n}", #"d.json:1:8: not valid JSON: trailing comma before "}""#),
            ("{\"a\": 1,\n \"a\": 2}", #"d.json:2:2: duplicate key "a" (first at 1:2)"#),
            (String(repeating: "[", count: 1 << 20), "d.json:1:513: arrays and objects nest more than 512 deep"),
            (#"{"a": 1e400}"#, "d.json:1:7: number 1e400 is too large (beyond ±1.8e308)"),
            (
                #"{"a": "\udc00"}"#,
                #"d.json:1:8: not valid JSON: "\udc00" is half of a surrogate pair, without its other half"#
            ),
        ])
    func strictJSON(json: String, message: String) async throws {
        let folder = try TemporaryFolder(["t.mustache": "{{a}}", "d.json": json])
        let console = TestConsole()
        #expect(await console.run(["template", "t.mustache", "--data", "d.json"], in: folder.url) == 1)
        #expect(console.err == message + "\n")
        #expect(console.out.isEmpty)
    }

    @Test("data reads as before: a byte order mark, big numbers and escapes")
    func dataAsBefore() async throws {
        let folder = try TemporaryFolder([
            "t.mustache": "{{a}}|{{b}}|{{c}}|{{d}}|{{e}}|{{f}}|{{g}}",
            "d.json": #"{"a": 1e300, "b": 123456789012345678901234567890, "c": -0, "d": 1.0, "e": 1E2, "#
                + #""f": 9223372036854775808, "g": "\ud83d\ude00\u0041"}"#,
        ])
        try Data([0xEF, 0xBB, 0xBF] + Array(#"{"a": "<b>"}"#.utf8)).write(
            to: folder.url.appendingPathComponent("bom.json"))
        let console = TestConsole()
        #expect(await console.run(["template", "t.mustache", "--data", "d.json"], in: folder.url) == 0)
        #expect(console.out == "1e+300|1.2345678901234568e+29|0|1|100|9.223372036854776e+18|😀A")
        let bom = TestConsole()
        #expect(await bom.run(["template", "t.mustache", "--data", "bom.json"], in: folder.url) == 0)
        #expect(bom.out == "&lt;b&gt;||||||")
    }

    @Test("data that is not UTF-8 is an error at the first bad byte")
    func invalidUTF8Data() async throws {
        let folder = try TemporaryFolder(["t.mustache": "{{a}}"])
        try Data(Array("{\n  \"a\": \"é".utf8) + [0xFF] + Array("\"}".utf8))
            .write(to: folder.url.appendingPathComponent("d.json"))
        let console = TestConsole()
        #expect(await console.run(["template", "t.mustache", "--data", "d.json"], in: folder.url) == 1)
        #expect(console.err == "d.json:2:10: not valid UTF-8: byte 0xFF cannot appear here\n")
    }

    @Test("a template or partial that is not UTF-8 is an error at the first bad byte, with the chain of partials")
    func invalidUTF8Template() async throws {
        let folder = try TemporaryFolder(["d.json": "{}", "page.mustache": "x\n {{>part}}"])
        try Data(Array("ab\n한국".utf8) + [0xC0, 0x80] + Array("x".utf8))
            .write(to: folder.url.appendingPathComponent("t.mustache"))
        try Data(Array("ok\n{{x}}".utf8) + [0x80]).write(to: folder.url.appendingPathComponent("part.mustache"))
        let console = TestConsole()
        #expect(await console.run(["template", "t.mustache", "--data", "d.json"], in: folder.url) == 1)
        #expect(console.err == "t.mustache:2:3: not valid UTF-8: byte 0xC0 cannot appear here\n")
        #expect(console.out.isEmpty)
        let partial = TestConsole()
        #expect(await partial.run(["template", "page.mustache", "--data", "d.json"], in: folder.url) == 1)
        #expect(
            partial.err == """
                part.mustache:2:6: not valid UTF-8: byte 0x80 cannot appear here
                    included from page.mustache:2:2

                """)
    }

    @Test("a template with a byte order mark renders without it, as before")
    func byteOrderMark() async throws {
        let folder = try TemporaryFolder(["d.json": #"{"a": 1}"#])
        try Data([0xEF, 0xBB, 0xBF] + Array("{{a}}\n{{/b}}".utf8)).write(
            to: folder.url.appendingPathComponent("t.mustache"))
        try Data([0xEF, 0xBB, 0xBF] + Array("[{{a}}]".utf8)).write(to: folder.url.appendingPathComponent("ok.mustache"))
        let console = TestConsole()
        #expect(await console.run(["template", "ok.mustache", "--data", "d.json"], in: folder.url) == 0)
        #expect(console.out == "[1]")
        let error = TestConsole()
        #expect(await error.run(["template", "t.mustache", "--data", "d.json"], in: folder.url) == 1)
        #expect(error.err == "t.mustache:2:1: closing tag \"b\" has no matching opening tag\n")
    }

    @Test("20,000 nested sections end in an error at the one too deep, not a crash")
    func deepSections() async throws {
        let text = String(repeating: "{{#a}}", count: 20_000) + "x" + String(repeating: "{{/a}}", count: 20_000)
        let folder = try TemporaryFolder(["t.mustache": text, "d.json": #"{"a": true}"#])
        let console = TestConsole()
        #expect(await console.run(["template", "t.mustache", "--data", "d.json"], in: folder.url) == 1)
        #expect(console.err == "t.mustache:1:6001: sections, blocks and partials nest more than 1000 deep\n")
    }

    @Test("a tree partial over data deeper than 200 ends in an error at the partial tag")
    func deepTree() async throws {
        let data = String(repeating: #"{"c": "#, count: 300) + "1" + String(repeating: "}", count: 300)
        let folder = try TemporaryFolder([
            "t.mustache": "{{>node}}", "node.mustache": "<{{#c}}{{>node}}{{/c}}>", "d.json": data,
        ])
        let console = TestConsole()
        #expect(await console.run(["template", "t.mustache", "--data", "d.json"], in: folder.url) == 1)
        #expect(
            console.err == """
                node.mustache:1:8: partials nest more than 200 deep (endless recursion?)
                    included from node.mustache:1:8 (199 times)
                    included from t.mustache:1:1

                """)
    }
}
