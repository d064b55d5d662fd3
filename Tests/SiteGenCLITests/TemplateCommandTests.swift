import Foundation
import SiteGenCLI
import Testing

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
}
