import Mustache
import Testing

/// Parse errors: each asserted whole, with its reason, path, line and column.
@Suite("Errors")
struct ErrorTests {
    /// The error parsing `text` as `page.mustache` throws.
    func parseError(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> TemplateError? {
        #expect(throws: TemplateError.self, sourceLocation: sourceLocation) {
            try Template(text, name: "page", path: "page.mustache")
        }
    }

    func at(_ line: Int, _ column: Int, in path: String = "page.mustache") -> SourceLocation {
        SourceLocation(path: path, line: line, column: column)
    }

    @Test("an unclosed section is reported at the end of the template, naming where it opened")
    func unclosedSection() {
        let error = parseError("<article>\n  {{#tags}}\n  <li>{{.}}</li>\n</article>\n")
        #expect(error == TemplateError(.unclosedSection(name: "tags", openedAt: at(2, 3)), at: at(5, 1)))
        #expect(error?.description == "page.mustache:5:1: unclosed section \"tags\" (opened at 2:3)")
    }

    @Test("an unclosed section inside a closed one names the innermost")
    func unclosedInnerSection() {
        let error = parseError("{{#a}}{{^b}}x{{/a}}")
        #expect(
            error
                == TemplateError(
                    .mismatchedClosingTag(expected: "b", found: "a", openedAt: at(1, 7)), at: at(1, 14)))
        let unclosed = parseError("{{#a}}\n{{#b}}{{/b}}")
        #expect(unclosed == TemplateError(.unclosedSection(name: "a", openedAt: at(1, 1)), at: at(2, 13)))
    }

    @Test("a closing tag that does not match the open section")
    func mismatchedClosingTag() {
        let error = parseError("{{#reviews}}\n  {{#tags}}\n  {{/reviews}}\n{{/tags}}\n")
        #expect(
            error
                == TemplateError(
                    .mismatchedClosingTag(expected: "tags", found: "reviews", openedAt: at(2, 3)), at: at(3, 3)))
        #expect(
            error?.description
                == "page.mustache:3:3: closing tag \"reviews\" does not match \"tags\" (opened at 2:3)")
    }

    @Test("a closing tag with nothing open")
    func unexpectedClosingTag() {
        let error = parseError("hello\n  {{/items}}\n")
        #expect(error == TemplateError(.unexpectedClosingTag(name: "items"), at: at(2, 3)))
        #expect(error?.description == "page.mustache:2:3: closing tag \"items\" has no matching opening tag")
    }

    @Test("a tag without its closing delimiter")
    func unclosedTag() {
        let error = parseError("<p>\nHi {{name</p>\n")
        #expect(error == TemplateError(.unclosedTag(delimiter: "}}"), at: at(2, 4)))
        #expect(error?.description == "page.mustache:2:4: unclosed tag: no \"}}\" after it")
    }

    @Test("a triple mustache needs three closing braces")
    func unclosedTripleMustache() {
        let error = parseError("{{{html}}")
        #expect(error == TemplateError(.unclosedTag(delimiter: "}}}"), at: at(1, 1)))
    }

    @Test("an unclosed tag after a set-delimiter tag names the new delimiter")
    func unclosedTagWithCustomDelimiters() {
        let error = parseError("{{=<% %>=}}\n<% name }}")
        #expect(error == TemplateError(.unclosedTag(delimiter: "%>"), at: at(2, 1)))
    }

    @Test("columns count characters, not bytes, after non-ASCII text")
    func columnsCountCharacters() {
        let error = parseError("제목: 한국어 {{title")
        #expect(error == TemplateError(.unclosedTag(delimiter: "}}"), at: at(1, 9)))
    }

    @Test("a tag with no name", arguments: ["a {{}}", "a {{ }}", "a {{#}}", "a {{/ }}", "a {{>}}", "a {{&}}"])
    func emptyTag(_ text: String) {
        let error = parseError(text)
        #expect(error == TemplateError(.emptyTag, at: at(1, 3)))
        #expect(error?.description == "page.mustache:1:3: tag has no name")
    }

    @Test(
        "a set-delimiter tag without exactly two delimiters",
        arguments: [
            ("{{=<%=}}", "<%"),
            ("{{=<% %> |=}}", "<% %> |"),
            ("{{= a=b c =}}", "a=b c"),
            ("{{==}}", ""),
        ])
    func invalidDelimiters(_ text: String, _ content: String) {
        let error = parseError("x\n" + text)
        #expect(error == TemplateError(.invalidDelimiters(content), at: at(2, 1)))
        #expect(
            error?.description == "page.mustache:2:1: invalid set-delimiter tag \"\(content)\": "
                + "expected two delimiters without \"=\" or spaces")
    }

    @Test(
        "variables, sections and partials directly inside a parent tag are errors",
        arguments: [
            ("{{<layout}}\n  {{title}}\n{{/layout}}", "{{title}}", 2, 3),
            ("{{<layout}}\n  {{{title}}}\n{{/layout}}", "{{{title}}}", 2, 3),
            ("{{<layout}}{{#items}}{{/items}}{{/layout}}", "{{#items}}", 1, 12),
            ("{{<layout}}\n{{^items}}x{{/items}}\n{{/layout}}", "{{^items}}", 2, 1),
            ("{{<layout}}{{$a}}{{/a}}{{> card}}{{/layout}}", "{{> card}}", 1, 24),
        ])
    func tagInsideParent(_ text: String, _ tag: String, _ line: Int, _ column: Int) {
        let error = parseError(text)
        #expect(error == TemplateError(.tagInsideParent(tag: tag, parent: "layout"), at: at(line, column)))
        #expect(
            error?.description == "page.mustache:\(line):\(column): \(tag) inside parent \"layout\": "
                + "only blocks ({{$name}}) and comments may appear there")
    }

    @Test("tags inside a block inside a parent are fine")
    func tagsInsideBlockInsideParent() throws {
        let library = try TemplateLibrary(sources: ["layout": "<{{$a}}{{/a}}>"])
        let page = try Template("{{<layout}}{{$a}}{{#items}}{{.}}{{/items}}{{/a}}{{/layout}}")
        #expect(try page.render(["items": [1, 2]], partials: library) == "<12>")
    }

    @Test("TemplateLibrary(sources:) reports a parse error under the template's path")
    func libraryParseErrorUsesPath() {
        let error = #expect(throws: TemplateError.self) {
            try TemplateLibrary(
                sources: ["good": "ok", "bad": "line\n{{#x}}"], paths: ["bad": "templates/bad.mustache"])
        }
        let path = "templates/bad.mustache"
        #expect(
            error == TemplateError(.unclosedSection(name: "x", openedAt: at(2, 1, in: path)), at: at(2, 7, in: path)))
    }

    @Test("a parse error in a partial from a loader carries the chain of tags that included it")
    func parseErrorInLoadedPartial() throws {
        let folder = try TemporaryFolder()
        let cardPath = try folder.write("<li>\n  {{#title}}{{title}}\n</li>\n", to: "card.mustache")
        let listPath = try folder.write("<ul>\n{{#items}}\n  {{>card}}\n{{/items}}\n</ul>\n", to: "list.mustache")
        let library = TemplateLibrary(loader: folder.loader())
        let page = try Template("<main>\n    {{>list}}\n</main>\n", name: "page", path: "pages/index.mustache")

        let error = #expect(throws: TemplateError.self) {
            try page.render(["items": [["title": "a"]]], partials: library)
        }
        #expect(
            error
                == TemplateError(
                    .unclosedSection(name: "title", openedAt: at(2, 3, in: cardPath)),
                    at: at(4, 1, in: cardPath),
                    includedFrom: [at(3, 3, in: listPath), at(2, 5, in: "pages/index.mustache")]))
        #expect(
            error?.description == """
                \(cardPath):4:1: unclosed section "title" (opened at 2:3)
                    included from \(listPath):3:3
                    included from pages/index.mustache:2:5
                """)
    }

    @Test("a parse error in a layout from a loader is reported at the layout, included from the parent tag")
    func parseErrorInLoadedLayout() throws {
        let folder = try TemporaryFolder()
        let layoutPath = try folder.write("<html>{{$body}}{{/bdoy}}</html>", to: "layout.mustache")
        let library = TemplateLibrary(loader: folder.loader())
        let page = try Template("{{<layout}}{{$body}}x{{/body}}{{/layout}}", name: "page")
        let error = #expect(throws: TemplateError.self) {
            try page.render([:], partials: library)
        }
        #expect(
            error
                == TemplateError(
                    .mismatchedClosingTag(expected: "body", found: "bdoy", openedAt: at(1, 7, in: layoutPath)),
                    at: at(1, 16, in: layoutPath),
                    includedFrom: [at(1, 1, in: "page")]))
    }

    @Test("description prints path:line:col: message, then one line per including tag")
    func descriptionFormat() {
        let error = TemplateError(
            .missingPartial(name: "x"), at: SourceLocation(path: "a/b.mustache", line: 12, column: 7),
            includedFrom: [SourceLocation(path: "c.mustache", line: 1, column: 2)])
        #expect(error.description == "a/b.mustache:12:7: no template named \"x\"\n    included from c.mustache:1:2")
        #expect(error.message == "no template named \"x\"")
        #expect(
            TemplateError(.tooDeep(limit: 5), at: at(1, 1)).description
                == "page.mustache:1:1: partials nest more than 5 deep (endless recursion?)")
        #expect(
            TemplateError(.unreadable(detail: "permission denied"), at: at(1, 1)).description
                == "page.mustache:1:1: cannot read template: permission denied")
    }

    @Test("sites that repeat are written once with a count; two in a row, or none, are written out")
    func foldedSites() {
        let a = at(1, 1, in: "a.mustache")
        let b = at(2, 2, in: "b.mustache")
        let c = at(3, 3, in: "c.mustache")
        func lines(_ sites: [SourceLocation]) -> [String] {
            TemplateError(.tooDeep(limit: 5), at: at(1, 1), includedFrom: sites).includedFromLines
        }
        #expect(lines([]) == [])
        #expect(
            lines([a, b, c]) == [
                "    included from a.mustache:1:1", "    included from b.mustache:2:2",
                "    included from c.mustache:3:3",
            ])
        #expect(
            lines([a, a, c]) == [
                "    included from a.mustache:1:1", "    included from a.mustache:1:1",
                "    included from c.mustache:3:3",
            ])
        #expect(
            lines([a, a, a, c]) == ["    included from a.mustache:1:1 (3 times)", "    included from c.mustache:3:3"])
        #expect(
            lines([c] + Array(repeating: a, count: 7)) == [
                "    included from c.mustache:3:3", "    included from a.mustache:1:1 (7 times)",
            ])
        // A cycle of two partials, then the page; the longest repetition wins over a shorter one.
        #expect(
            lines(Array([[a, b], [a, b], [a, b], [a, b]].joined()) + [c]) == [
                "    included from a.mustache:1:1",
                "    included from b.mustache:2:2",
                "    (the 2 lines above, 4 times in all)",
                "    included from c.mustache:3:3",
            ])
        // Cycles longer than the longest folded one are written out.
        let long = (1...(TemplateError.longestCycle + 1)).map { at($0, 1, in: "n.mustache") }
        #expect(lines(Array([long, long, long].joined())).count == 3 * long.count)
        let cycle = Array(long.dropLast())
        #expect(lines(Array([cycle, cycle, cycle].joined())).count == cycle.count + 1)
    }

    @Test("two partials that include each other end in a short error, the cycle written once")
    func mutualRecursionMessage() throws {
        let library = try TemplateLibrary(
            sources: ["ping": "<{{>pong}}", "pong": "-{{>ping}}", "page": "{{>ping}}"],
            paths: ["ping": "ping.mustache", "pong": "pong.mustache", "page": "page.mustache"])
        let error = #expect(throws: TemplateError.self) { try library.render("page", [:]) }
        #expect(error?.includedFrom.count == 200)
        #expect(
            error?.description == """
                pong.mustache:1:2: partials nest more than 200 deep (endless recursion?)
                    included from ping.mustache:1:2
                    included from pong.mustache:1:2
                    (the 2 lines above, 99 times in all)
                    included from ping.mustache:1:2
                    included from page.mustache:1:1
                """)
    }

    @Test("source locations print as path:line:col and sort by path, line, then column")
    func sourceLocationOrder() {
        let locations = [at(2, 1), at(1, 9), at(1, 2, in: "b"), at(1, 10)]
        #expect(locations.sorted() == [at(1, 2, in: "b"), at(1, 9), at(1, 10), at(2, 1)])
        #expect(at(3, 4).description == "page.mustache:3:4")
    }

    @Test("template bytes that are not UTF-8 are an error at the first bad byte; a byte order mark is skipped")
    func invalidUTF8() throws {
        let bytes = Array("<p>\n  제목 ".utf8) + [0xFF] + Array("</p>".utf8)
        let error = #expect(throws: TemplateError.self) {
            try Template(utf8: bytes, name: "page", path: "page.mustache")
        }
        #expect(error == TemplateError(.invalidUTF8(byte: 0xFF), at: at(2, 6)))
        #expect(error?.description == "page.mustache:2:6: not valid UTF-8: byte 0xFF cannot appear here")
        let truncated = #expect(throws: TemplateError.self) {
            try Template(utf8: Array("ab".utf8) + [0xE2, 0x82], name: "page", path: "page.mustache")
        }
        #expect(truncated == TemplateError(.invalidUTF8(byte: 0xE2), at: at(1, 3)))
        #expect(try Template(utf8: [0xEF, 0xBB, 0xBF] + Array("{{a}}".utf8)).render(["a": 1]) == "1")
        let afterMark = #expect(throws: TemplateError.self) {
            try Template(utf8: [0xEF, 0xBB, 0xBF] + Array("{{/x}}".utf8), name: "page", path: "page.mustache")
        }
        #expect(afterMark == TemplateError(.unexpectedClosingTag(name: "x"), at: at(1, 1)))
    }

    @Test(
        "limit errors say which limit",
        arguments: [
            (TemplateError.Reason.nestedTooDeep(limit: 1000), "sections, blocks and partials nest more than 1000 deep"),
            (
                .tooManySteps(limit: 5),
                "rendering takes more than 5 steps (partials that include themselves over and over?)"
            ),
            (.outputTooLarge(limit: 7), "the output is larger than 7 bytes"),
            (.longDelimiters(limit: 32), "set-delimiter tag: a delimiter may be at most 32 bytes long"),
            (.invalidUTF8(byte: 0x0A), "not valid UTF-8: byte 0x0A cannot appear here"),
        ])
    func limitMessages(reason: TemplateError.Reason, message: String) {
        #expect(TemplateError(reason, at: at(3, 4)).description == "page.mustache:3:4: \(message)")
    }
}
