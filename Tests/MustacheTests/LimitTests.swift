import Mustache
import Testing

/// Hostile templates end in located errors, never a crash or an endless render; deep but
/// legal ones still render.
@Suite("Render limits")
struct LimitTests {
    func at(_ line: Int, _ column: Int, in path: String = "deep.mustache") -> SourceLocation {
        SourceLocation(path: path, line: line, column: column)
    }

    func nested(_ open: String, _ close: String, _ count: Int, around inner: String = "x") -> String {
        String(repeating: open, count: count) + inner + String(repeating: close, count: count)
    }

    @Test(
        "20,000 nested sections, inverted sections or blocks stop at the tag one level too deep",
        arguments: [("{{#a}}", "{{/a}}"), ("{{^no}}", "{{/no}}"), ("{{$b}}", "{{/b}}")])
    func deepNesting(open: String, close: String) throws {
        let template = try Template(nested(open, close, 20_000), name: "deep", path: "deep.mustache")
        let error = #expect(throws: TemplateError.self) { try template.render(["a": true]) }
        let column = 1000 * open.count + 1
        #expect(error == TemplateError(.nestedTooDeep(limit: 1000), at: at(1, column)))
        #expect(
            error?.description == "deep.mustache:1:\(column): sections, blocks and partials nest more than 1000 deep")
    }

    @Test("sections, inverted sections and blocks 1,000 deep render")
    func deepButLegal() throws {
        for (open, close) in [("{{#a}}", "{{/a}}"), ("{{^no}}", "{{/no}}"), ("{{$b}}", "{{/b}}")] {
            let template = try Template(nested(open, close, 1000))
            #expect(try template.render(["a": true]) == "x")
        }
        let lines = try Template(nested("{{#a}}\n", "{{/a}}\n", 999, around: "{{#a}}\n  x\n{{/a}}\n"))
        #expect(try lines.render(["a": true]) == "  x\n")
    }

    @Test("deep nesting that is never entered is no problem")
    func deepButSkipped() throws {
        let template = try Template(nested("{{#off}}", "{{/off}}", 20_000))
        #expect(try template.render(["off": false]) == "")
    }

    @Test("a tree template over data deeper than 200 partials stops at the partial tag, with the chain")
    func deepTree() throws {
        let library = try TemplateLibrary(
            sources: ["node": "{{name}}{{#child}}<{{>node}}>{{/child}}"], paths: ["node": "node.mustache"])
        var tree: Value = ["name": "leaf", "child": false]
        for level in 0..<300 { tree = ["name": .string("n\(level)"), "child": tree] }
        let error = #expect(throws: TemplateError.self) { try library.render("node", tree) }
        let tag = at(1, 20, in: "node.mustache")
        #expect(error == TemplateError(.tooDeep(limit: 200), at: tag, includedFrom: Array(repeating: tag, count: 200)))
        #expect(
            error?.description == """
                node.mustache:1:20: partials nest more than 200 deep (endless recursion?)
                    included from node.mustache:1:20 (200 times)
                """)

        var shallow: Value = ["name": "leaf", "child": false]
        for level in 0..<150 { shallow = ["name": .string("\(level)"), "child": shallow] }
        let output = try library.render("node", shallow)
        #expect(output == (0..<150).reversed().map { "\($0)<" }.joined() + "leaf" + String(repeating: ">", count: 150))
    }

    @Test("a layout that extends itself, and a dynamic partial that names itself, stop at 200")
    func selfInclusion() throws {
        let library = try TemplateLibrary(
            sources: ["self": "a\n{{<self}}{{$b}}{{/b}}{{/self}}", "loop": "{{>*me}}"],
            paths: ["self": "self.mustache", "loop": "loop.mustache"])
        let layoutError = #expect(throws: TemplateError.self) { try library.render("self", [:]) }
        #expect(layoutError?.reason == .tooDeep(limit: 200))
        #expect(layoutError?.location == at(2, 1, in: "self.mustache"))
        #expect(layoutError?.includedFrom.count == 200)
        let dynamicError = #expect(throws: TemplateError.self) { try library.render("loop", ["me": "loop"]) }
        #expect(dynamicError?.reason == .tooDeep(limit: 200))
        #expect(dynamicError?.location == at(1, 1, in: "loop.mustache"))
    }

    @Test("20,000 nested parents, each filling the block of the one before, stop at 200 layouts")
    func deepInheritance() throws {
        let library = try TemplateLibrary(sources: ["p": "[{{$b}}{{/b}}]"])
        let page = try Template(nested("{{<p}}{{$b}}", "{{/b}}{{/p}}", 20_000), name: "deep", path: "deep.mustache")
        let error = #expect(throws: TemplateError.self) { try page.render([:], partials: library) }
        #expect(error?.reason == .tooDeep(limit: 200))
        #expect(error?.location == at(1, 2401))
        #expect(error?.includedFrom.first == at(1, 2389))
        #expect(error?.includedFrom.last == at(1, 1))

        let legal = try Template(nested("{{<p}}{{$b}}", "{{/b}}{{/p}}", 150))
        #expect(
            try legal.render([:], partials: library) == String(repeating: "[", count: 150) + "x"
                + String(repeating: "]", count: 150))
    }

    @Test("a partial that doubles its work at each level runs out of steps at a located tag")
    func stepBudget() throws {
        let limits = RenderLimits(partialDepth: 200, nesting: 1000, steps: 10_000, outputBytes: 1 << 20)
        let library = TemplateLibrary(
            templates: [
                "twice": try Template("{{#a}}{{>twice}}{{>twice}}{{/a}}", name: "twice", path: "twice.mustache")
            ],
            limits: limits)
        var data: Value = ["a": false]
        for _ in 0..<40 { data = ["a": data] }
        let error = #expect(throws: TemplateError.self) { try library.render("twice", data) }
        #expect(error?.reason == .tooManySteps(limit: 10_000))
        #expect(error?.location == at(1, 7, in: "twice.mustache"))
        #expect(error?.includedFrom.count == 39)
        #expect(
            error?.message == "rendering takes more than 10000 steps (partials that include themselves over and over?)")

        var small: Value = ["a": false]
        for _ in 0..<8 { small = ["a": small] }
        #expect(try library.render("twice", small) == "")

        // Without a partial inside itself, the hint is the data's length, not the partials.
        let lists = TemplateLibrary(
            templates: [
                "grid": try Template("{{#rows}}{{#cells}}{{.}}{{/cells}}{{/rows}}", name: "grid", path: "grid.mustache")
            ],
            limits: limits)
        let row: Value = ["cells": .array((0..<200).map { .int($0) })]
        let wide = #expect(throws: TemplateError.self) {
            try lists.render("grid", ["rows": .array(Array(repeating: row, count: 200))])
        }
        #expect(wide?.reason == .tooManySteps(limit: 10_000, throughPartials: false))
        #expect(wide?.message == "rendering takes more than 10000 steps (sections that repeat over very long lists?)")
    }

    @Test("a loop that writes more than the output limit stops at the tag in it that passes the limit")
    func outputLimit() throws {
        let limits = RenderLimits(partialDepth: 200, nesting: 1000, steps: 1_000_000, outputBytes: 10_000)
        let library = TemplateLibrary(limits: limits)
        let template = try Template("{{! big }}\n{{#list}}{{big}}{{/list}}", name: "big", path: "big.mustache")
        let data: Value = [
            "big": .string(String(repeating: "x", count: 1000)), "list": .array(Array(repeating: 1, count: 100)),
        ]
        let error = #expect(throws: TemplateError.self) { try template.render(data, partials: library) }
        #expect(error == TemplateError(.outputTooLarge(limit: 10_000), at: at(2, 10, in: "big.mustache")))
        #expect(error?.message == "the output is larger than 10000 bytes")
        #expect(try template.render(["big": "x", "list": [1, 2]], partials: library) == "xx")
    }

    @Test("a large value written by many tags, without a section, stops at the tag that passes the limit")
    func repeatedValueOutputLimit() throws {
        let limits = RenderLimits(partialDepth: 200, nesting: 1000, steps: 1_000_000, outputBytes: 10_000)
        let library = TemplateLibrary(limits: limits)
        let template = try Template(
            "{{v}}\n" + String(repeating: "{{v}}", count: 300), name: "many", path: "many.mustache")
        let data: Value = ["v": .string(String(repeating: "<", count: 1000))]
        let error = #expect(throws: TemplateError.self) { try template.render(data, partials: library) }
        // Each value is 4,000 bytes once escaped: the second tag of line 2 passes 10,000.
        #expect(error == TemplateError(.outputTooLarge(limit: 10_000), at: at(2, 6, in: "many.mustache")))
    }

    @Test("indentation that makes a partial's lines outgrow the output limit stops at the partial's text")
    func indentedOutputLimit() throws {
        let limits = RenderLimits(partialDepth: 200, nesting: 1000, steps: 1_000_000, outputBytes: 10_000)
        let library = TemplateLibrary(
            templates: [
                "lines": try Template(String(repeating: "line\n", count: 100), name: "lines", path: "lines.mustache")
            ],
            limits: limits)
        let page = try Template(
            String(repeating: " ", count: 1000) + "{{>lines}}\n", name: "page", path: "page.mustache")
        let error = #expect(throws: TemplateError.self) { try page.render([:], partials: library) }
        #expect(
            error
                == TemplateError(
                    .outputTooLarge(limit: 10_000), at: at(1, 1, in: "lines.mustache"),
                    includedFrom: [at(1, 1001, in: "page.mustache")]))
    }

    @Test("the standard limits")
    func standardLimits() {
        #expect(
            RenderLimits.standard
                == RenderLimits(partialDepth: 200, nesting: 1000, steps: 100_000_000, outputBytes: 256 << 20))
        #expect(TemplateLibrary().limits == .standard)
    }

    @Test("a set-delimiter tag may not choose delimiters longer than 32 bytes")
    func longDelimiters() throws {
        let long = String(repeating: "<", count: 33)
        let error = #expect(throws: TemplateError.self) {
            try Template("ok\n{{=\(long) >=}}", name: "d", path: "d.mustache")
        }
        #expect(error == TemplateError(.longDelimiters(limit: 32), at: at(2, 1, in: "d.mustache")))
        #expect(error?.message == "set-delimiter tag: a delimiter may be at most 32 bytes long")
        let longest = String(repeating: "<", count: 32)
        #expect(try Template("{{=\(longest) >=}}\(longest)a>").render(["a": 1]) == "1")
    }

    @Test("a template of 200,000 tags compiles and renders (compiling is linear in its size)")
    func largeTemplate() throws {
        let variables = String(repeating: "{{v}} ", count: 100_000) + "\n"
        let sections = String(repeating: "{{#s}}\n{{v}}\n{{/s}}\n", count: 25_000)
        let template = try Template(variables + sections)
        let output = try template.render(["v": 1, "s": true])
        let expected = String(repeating: "1 ", count: 100_000) + "\n" + String(repeating: "1\n", count: 25_000)
        #expect(output.count == expected.count)
        #expect(output == expected, "the output differs")
    }
}
