import Mustache
import Testing

/// Layouts through parent tags (`{{<layout}}`) and blocks (`{{$name}}`).
@Suite("Inheritance")
struct InheritanceTests {
    static let layout = """
        <html>
        <head>
          <title>{{$title}}Reel Notes{{/title}}</title>
        </head>
        <body>
          <main>
            {{$content}}
            <p>Nothing here yet.</p>
            {{/content}}
          </main>
          {{$footer}}<footer>{{site}}</footer>{{/footer}}
        </body>
        </html>

        """

    @Test("a page overrides some blocks of its layout; the others keep their defaults")
    func overrideAndDefaultBlocks() throws {
        let library = try TemplateLibrary(sources: ["layout": Self.layout])
        let page = try Template(
            """
            {{<layout}}
            {{$title}}{{title}} — Reel Notes{{/title}}
            {{$content}}
            <h1>{{title}}</h1>
            <p>{{summary}}</p>
            {{/content}}
            {{/layout}}

            """)
        let output = try page.render(["title": "Heat", "summary": "Cops & robbers", "site": "RN"], partials: library)
        #expect(
            output == """
                <html>
                <head>
                  <title>Heat — Reel Notes</title>
                </head>
                <body>
                  <main>
                    <h1>Heat</h1>
                    <p>Cops &amp; robbers</p>
                  </main>
                  <footer>RN</footer>
                </body>
                </html>

                """)
    }

    @Test("a page that overrides nothing renders the layout's defaults")
    func onlyDefaults() throws {
        let library = try TemplateLibrary(sources: ["layout": Self.layout])
        let page = try Template("{{<layout}}{{/layout}}")
        let output = try page.render(["site": "RN"], partials: library)
        #expect(
            output == """
                <html>
                <head>
                  <title>Reel Notes</title>
                </head>
                <body>
                  <main>
                    <p>Nothing here yet.</p>
                  </main>
                  <footer>RN</footer>
                </body>
                </html>

                """)
    }

    @Test("block content sheds its own first-line indentation and takes the block's place in the layout")
    func blockContentIsReindented() throws {
        let library = try TemplateLibrary(sources: ["layout": Self.layout])
        let page = try Template(
            """
            {{<layout}}
                {{$content}}
                  <ul>
                    {{#items}}
                    <li>{{.}}</li>
                    {{/items}}
                  </ul>
                {{/content}}
            {{/layout}}
            """)
        let output = try page.render(["items": ["a", "b"], "site": "RN"], partials: library)
        #expect(
            output == """
                <html>
                <head>
                  <title>Reel Notes</title>
                </head>
                <body>
                  <main>
                    <ul>
                      <li>a</li>
                      <li>b</li>
                    </ul>
                  </main>
                  <footer>RN</footer>
                </body>
                </html>

                """)
    }

    static let base = """
        <title>{{$title}}Site{{/title}}</title>
        <body>
          {{$body}}
          <p>base body</p>
          {{/body}}
        </body>

        """

    static let reviewLayout = """
        {{<base}}
        {{$title}}Review: {{$reviewTitle}}untitled{{/reviewTitle}}{{/title}}
        {{$body}}
        <article>
          {{$article}}
          <p>no text</p>
          {{/article}}
        </article>
        {{/body}}
        {{/base}}

        """

    @Test("layouts nest: a page fills blocks of a layout that itself extends a base layout")
    func multiLevelLayouts() throws {
        let library = try TemplateLibrary(sources: ["base": Self.base, "review": Self.reviewLayout])
        let page = try Template(
            """
            {{<review}}
            {{$reviewTitle}}{{title}}{{/reviewTitle}}
            {{$article}}
            <h1>{{title}}</h1>
            <p>{{text}}</p>
            {{/article}}
            {{/review}}

            """)
        let output = try page.render(["title": "Heat", "text": "Good."], partials: library)
        #expect(
            output == """
                <title>Review: Heat</title>
                <body>
                  <article>
                    <h1>Heat</h1>
                    <p>Good.</p>
                  </article>
                </body>

                """)
    }

    @Test("the outermost override of a block wins over the middle layout's")
    func pageOverrideBeatsMiddleLayout() throws {
        let library = try TemplateLibrary(sources: ["base": Self.base, "review": Self.reviewLayout])
        let page = try Template("{{<review}}{{$title}}Custom {{title}}{{/title}}{{/review}}")
        let output = try page.render(["title": "Heat"], partials: library)
        #expect(
            output == """
                <title>Custom Heat</title>
                <body>
                  <article>
                    <p>no text</p>
                  </article>
                </body>

                """)
    }

    @Test("a layout alone renders its own defaults, nested blocks included")
    func middleLayoutAlone() throws {
        let library = try TemplateLibrary(sources: ["base": Self.base, "review": Self.reviewLayout])
        #expect(
            try library.render("review", [:]) == """
                <title>Review: untitled</title>
                <body>
                  <article>
                    <p>no text</p>
                  </article>
                </body>

                """)
    }

    @Test("blocks see the page data and the context stack at the place they expand")
    func blocksSeeData() throws {
        let library = try TemplateLibrary(sources: [
            "list": "<ul>{{#reviews}}<li>{{$item}}{{title}}{{/item}}</li>{{/reviews}}</ul>{{$after}}{{/after}}"
        ])
        let page = try Template(
            """
            {{<list}}{{$item}}{{title}} ({{site}}){{/item}}{{$after}} {{count}} reviews{{/after}}{{/list}}
            """)
        let output = try page.render(
            [
                "site": "RN", "count": 2, "reviews": [["title": "Heat"], ["title": "Ran"]],
            ], partials: library)
        #expect(output == "<ul><li>Heat (RN)</li><li>Ran (RN)</li></ul> 2 reviews")
    }

    @Test("{{<*name}} picks the layout named by the data")
    func dynamicParent() throws {
        let library = try TemplateLibrary(sources: [
            "wide": "<div class=wide>{{$content}}{{/content}}</div>",
            "narrow": "<div class=narrow>{{$content}}{{/content}}</div>",
        ])
        let page = try Template("{{<*layout}}{{$content}}{{title}}{{/content}}{{/*layout}}")
        #expect(
            try page.render(["layout": "narrow", "title": "Hi"], partials: library) == "<div class=narrow>Hi</div>")
        #expect(try page.render(["layout": "wide", "title": "Yo"], partials: library) == "<div class=wide>Yo</div>")
    }

    @Test("text and comments directly inside a parent tag are ignored")
    func textInsideParentIsIgnored() throws {
        let library = try TemplateLibrary(sources: ["layout": "[{{$a}}A{{/a}}]"])
        let page = try Template("{{<layout}}\nignored text\n{{! note }}\n{{$a}}B{{/a}} more ignored{{/layout}}")
        #expect(try page.render([:], partials: library) == "[B]")
    }

    @Test("a block outside any parent renders its default content")
    func blockWithoutParent() throws {
        let template = try Template("<h1>{{$title}}Default {{name}}{{/title}}</h1>")
        #expect(try template.render(["name": "X"]) == "<h1>Default X</h1>")
    }

    static let components = [
        "base": "<title>{{$title}}Site{{/title}}</title>\n<body>\n  {{$content}}\n  {{/content}}\n</body>\n",
        "box": "<div class=\"box\">\n  <h2>{{$title}}Untitled{{/title}}</h2>\n  {{$content}}\n  {{/content}}\n</div>\n",
    ]

    @Test("a component used inside a block gets its own blocks, even ones named like the page's")
    func componentInsideBlockUsesItsOwnBlocks() throws {
        let library = try TemplateLibrary(sources: Self.components)
        let page = try Template(
            """
            {{<base}}
            {{$title}}{{title}}{{/title}}
            {{$content}}
            {{<box}}
            {{$title}}Cast{{/title}}
            {{$content}}
            <p>{{cast}}</p>
            {{/content}}
            {{/box}}
            {{/content}}
            {{/base}}

            """)
        let output = try page.render(["title": "Heat", "cast": "Pacino"], partials: library)
        #expect(
            output == """
                <title>Heat</title>
                <body>
                  <div class="box">
                    <h2>Cast</h2>
                    <p>Pacino</p>
                  </div>
                </body>

                """)
    }

    @Test("a component used inside a block keeps its defaults for blocks it is not given")
    func componentInsideBlockKeepsDefaults() throws {
        let library = try TemplateLibrary(sources: Self.components)
        let page = try Template(
            """
            {{<base}}
            {{$title}}Page{{/title}}
            {{$content}}
            {{<box}}{{/box}}
            {{/content}}
            {{/base}}
            """)
        let output = try page.render([:], partials: library)
        #expect(
            output == """
                <title>Page</title>
                <body>
                  <div class="box">
                    <h2>Untitled</h2>
                  </div>
                </body>

                """)
    }

    @Test("a missing layout with .fail is an error at the parent tag")
    func missingLayoutFails() throws {
        let library = TemplateLibrary(templates: [:])
        let page = try Template("\n  {{<layot}}{{$a}}x{{/a}}{{/layot}}", name: "page", path: "pages/page.mustache")
        let error = #expect(throws: TemplateError.self) {
            try page.render([:], partials: library)
        }
        #expect(
            error
                == TemplateError(
                    .missingPartial(name: "layot"), at: SourceLocation(path: "pages/page.mustache", line: 2, column: 3))
        )
    }
}
