import Mustache
import Testing

/// Partial tags: lookup, context, recursion, indentation, dynamic names and missing partials.
@Suite("Partials")
struct PartialTests {
    @Test("a partial renders in the caller's context")
    func partialSeesCallerContext() throws {
        let library = try TemplateLibrary(sources: ["byline": "by {{author}} on {{date}}"])
        let template = try Template("<h1>{{title}}</h1> {{#meta}}{{>byline}}{{/meta}}")
        let output = try template.render(
            ["title": "Memories of Murder", "meta": ["author": "Lee", "date": "2024-05-01"]], partials: library)
        #expect(output == "<h1>Memories of Murder</h1> by Lee on 2024-05-01")
    }

    @Test("a partial is rendered once per list item")
    func partialInList() throws {
        let library = try TemplateLibrary(sources: ["card": "<li>{{title}}</li>"])
        let template = try Template("<ul>{{#reviews}}{{> card }}{{/reviews}}</ul>")
        let output = try template.render(["reviews": [["title": "A"], ["title": "B & C"]]], partials: library)
        #expect(output == "<ul><li>A</li><li>B &amp; C</li></ul>")
    }

    @Test("a recursive partial walks a tree and stops where the data ends")
    func recursionOverTree() throws {
        let library = try TemplateLibrary(sources: [
            "node": "{{name}}{{#children}}[{{>node}}]{{/children}}"
        ])
        let tree: Value = [
            "name": "root",
            "children": [
                ["name": "a", "children": [["name": "a1", "children": []], ["name": "a2", "children": []]]],
                ["name": "b", "children": []],
            ],
        ]
        #expect(try library.render("node", tree) == "root[a[a1][a2]][b]")
    }

    @Test("a standalone partial is indented by the blanks before its tag, on every line")
    func standalonePartialIndentation() throws {
        let library = try TemplateLibrary(sources: [
            "item": "<li>{{name}}</li>\n<li>\n  {{#sub}}<b>{{.}}</b>{{/sub}}\n</li>\n"
        ])
        let template = try Template("<ul>\n    {{>item}}\n</ul>\n")
        let output = try template.render(["name": "x", "sub": ["y"]], partials: library)
        #expect(output == "<ul>\n    <li>x</li>\n    <li>\n      <b>y</b>\n    </li>\n</ul>\n")
    }

    @Test("indentation adds up through nested standalone partials")
    func nestedPartialIndentation() throws {
        let library = try TemplateLibrary(sources: [
            "outer": "<div>\n  {{>inner}}\n</div>\n",
            "inner": "<p>\n{{text}}\n</p>\n",
        ])
        let template = try Template("<body>\n  {{>outer}}\n</body>\n")
        let output = try template.render(["text": "hi"], partials: library)
        #expect(output == "<body>\n  <div>\n    <p>\n    hi\n    </p>\n  </div>\n</body>\n")
    }

    @Test("a partial inline with other text is not indented")
    func inlinePartialIsNotIndented() throws {
        let library = try TemplateLibrary(sources: ["two": "1\n2\n"])
        let template = try Template("  x {{>two}}y\n")
        #expect(try template.render([:], partials: library) == "  x 1\n2\ny\n")
    }

    @Test("{{>*name}} picks the partial named by the data")
    func dynamicPartials() throws {
        let library = try TemplateLibrary(sources: [
            "movie": "Movie: {{title}}",
            "book": "Book: {{title}}",
        ])
        let template = try Template("{{#items}}{{>*kind}};{{/items}}|{{>*page.card}}")
        let output = try template.render(
            [
                "items": [["kind": "movie", "title": "Heat"], ["kind": "book", "title": "Pachinko"]],
                "page": ["card": "book"],
                "title": "Top",
            ], partials: library)
        #expect(output == "Movie: Heat;Book: Pachinko;|Book: Top")
    }

    @Test("a missing partial with .fail is an error at the partial tag")
    func missingPartialFails() throws {
        let library = TemplateLibrary(templates: [:], missingPartials: .fail)
        let template = try Template("<main>\n  <p>{{>sidebar}}</p>\n</main>", name: "page", path: "/site/page.mustache")
        let error = #expect(throws: TemplateError.self) {
            try template.render([:], partials: library)
        }
        #expect(
            error
                == TemplateError(
                    .missingPartial(name: "sidebar"),
                    at: SourceLocation(path: "/site/page.mustache", line: 2, column: 6)))
        #expect(error?.description == "/site/page.mustache:2:6: no template named \"sidebar\"")
    }

    @Test("a missing partial inside partials reports the chain of partial tags, innermost first")
    func missingPartialInNestedPartial() throws {
        let library = try TemplateLibrary(
            sources: [
                "layout": "<html>\n{{>body}}\n</html>\n",
                "body": "<body>\n  {{#items}}\n    x {{>itme}}\n  {{/items}}\n</body>\n",
            ],
            paths: ["layout": "templates/layout.mustache", "body": "templates/body.mustache"])
        let template = try Template("{{! page }}\n\n  {{>layout}}\n", name: "page", path: "pages/index.mustache")
        let error = #expect(throws: TemplateError.self) {
            try template.render(["items": [1]], partials: library)
        }
        #expect(
            error
                == TemplateError(
                    .missingPartial(name: "itme"),
                    at: SourceLocation(path: "templates/body.mustache", line: 3, column: 7),
                    includedFrom: [
                        SourceLocation(path: "templates/layout.mustache", line: 2, column: 1),
                        SourceLocation(path: "pages/index.mustache", line: 3, column: 3),
                    ]))
        #expect(
            error?.description == """
                templates/body.mustache:3:7: no template named "itme"
                    included from templates/layout.mustache:2:1
                    included from pages/index.mustache:3:3
                """)
    }

    @Test("a dynamic partial naming a missing template is an error with .fail")
    func missingDynamicPartialFails() throws {
        let library = TemplateLibrary(templates: [:])
        let template = try Template("{{>*kind}}", name: "page")
        let error = #expect(throws: TemplateError.self) {
            try template.render(["kind": "poem"], partials: library)
        }
        #expect(
            error == TemplateError(.missingPartial(name: "poem"), at: SourceLocation(path: "page", line: 1, column: 1)))
    }

    @Test("a dynamic partial whose name is not in the data is an error with .fail, and empty with .renderEmpty")
    func unresolvedDynamicName() throws {
        let template = try Template("a\n {{>*knid}}", name: "page")
        let error = #expect(throws: TemplateError.self) {
            try template.render(["kind": "movie"], partials: TemplateLibrary(templates: [:]))
        }
        #expect(
            error == TemplateError(.missingPartial(name: "*knid"), at: SourceLocation(path: "page", line: 2, column: 2))
        )
        let lenient = TemplateLibrary(templates: [:], missingPartials: .renderEmpty)
        #expect(try template.render(["kind": "movie"], partials: lenient) == "a\n")
    }

    @Test("a missing partial with .renderEmpty renders nothing")
    func missingPartialRendersEmpty() throws {
        let library = try TemplateLibrary(sources: ["known": "K"], missingPartials: .renderEmpty)
        let template = try Template("[{{>unknown}}|{{>known}}]\n  {{>unknown}}\nend")
        #expect(try template.render([:], partials: library) == "[|K]\nend")
    }

    @Test("a partial that includes itself forever stops with .tooDeep")
    func endlessRecursionIsTooDeep() throws {
        let library = try TemplateLibrary(sources: ["loop": "x{{>loop}}"], paths: ["loop": "loop.mustache"])
        let template = try Template("{{>loop}}", name: "page", path: "page.mustache")
        let error = try #require(throws: TemplateError.self) {
            try template.render([:], partials: library)
        }
        let loopSite = SourceLocation(path: "loop.mustache", line: 1, column: 2)
        #expect(error.reason == .tooDeep(limit: 200))
        #expect(error.location == loopSite)
        #expect(error.includedFrom.count == 200)
        #expect(error.includedFrom.last == SourceLocation(path: "page.mustache", line: 1, column: 1))
        #expect(
            error
                == TemplateError(
                    .tooDeep(limit: 200), at: loopSite,
                    includedFrom: Array(repeating: loopSite, count: 199) + [
                        SourceLocation(path: "page.mustache", line: 1, column: 1)
                    ]))
    }

    @Test("a tree deeper than the data stops, even when a leaf has no children key of its own")
    func recursionWithoutChildrenKeyFallsBackOutward() throws {
        // A leaf without "children" finds its parent's list again (ordinary Mustache lookup),
        // so the recursion never ends: the engine reports it instead of overflowing the stack.
        let library = try TemplateLibrary(sources: ["node": "{{name}}{{#children}}[{{>node}}]{{/children}}"])
        let tree: Value = ["name": "root", "children": [["name": "leaf"]]]
        let error = try #require(throws: TemplateError.self) {
            try library.render("node", tree)
        }
        #expect(error.reason == .tooDeep(limit: 200))
    }

    @Test("a loader supplies partials from a folder, and its misses are missing partials")
    func loaderFromFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("<footer>{{site}}</footer>", to: "footer.mustache")
        let library = TemplateLibrary(loader: folder.loader())
        let template = try Template("{{>footer}}", name: "page")
        #expect(try template.render(["site": "Reel Notes"], partials: library) == "<footer>Reel Notes</footer>")

        let broken = try Template("{{>header}}", name: "page")
        let error = #expect(throws: TemplateError.self) {
            try broken.render([:], partials: library)
        }
        #expect(
            error
                == TemplateError(.missingPartial(name: "header"), at: SourceLocation(path: "page", line: 1, column: 1)))
    }

    @Test("templates given up front take precedence and the loader is asked once per name")
    func loaderCachesAndDefersToGivenTemplates() throws {
        let folder = try TemporaryFolder()
        try folder.write("from disk", to: "a.mustache")
        try folder.write("B", to: "b.mustache")
        let asked = AskedNames()
        let library = TemplateLibrary(
            templates: ["a": try Template("given", name: "a")], loader: folder.loader(onLoad: asked.add))
        let template = try Template("{{>a}} {{>b}} {{>b}} {{#list}}{{>b}}{{/list}}")
        #expect(try template.render(["list": [1, 2]], partials: library) == "given B B BB")
        #expect(try template.render([:], partials: library) == "given B B ")
        #expect(asked.names == ["b"])
    }

    @Test("TemplateLibrary.render renders a named template with the library's partials")
    func libraryRender() throws {
        let library = try TemplateLibrary(sources: ["page": "<h1>{{>title}}</h1>", "title": "{{title}}!"])
        #expect(try library.render("page", ["title": "Hi"]) == "<h1>Hi!</h1>")
        #expect(library.names == ["page", "title"])
        let error = #expect(throws: TemplateError.self) {
            try library.render("nope", [:])
        }
        #expect(
            error == TemplateError(.missingPartial(name: "nope"), at: SourceLocation(path: "nope", line: 1, column: 1)))
    }
}
