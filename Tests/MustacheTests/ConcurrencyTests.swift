import Mustache
import Testing

/// One compiled template and one library shared by many concurrent renders.
@Suite("Concurrency")
struct ConcurrencyTests {
    static let taskCount = 8
    static let rendersPerTask = 200

    /// The data for render `index` of task `task`: every render gets different data.
    static func data(task: Int, index: Int) -> Value {
        let items: [Value] = (0..<(index % 4)).map { item in
            ["n": .int(item), "label": .string("t\(task)i\(index)#\(item)")]
        }
        return ["title": .string("Task \(task) <\(index)> & co"), "items": .array(items), "site": "RN"]
    }

    /// What the template below must produce for that data, built without the engine.
    static func expected(task: Int, index: Int) -> String {
        var text = "<h1>Task \(task) &lt;\(index)&gt; &amp; co</h1>\n<ul>\n"
        for item in 0..<(index % 4) {
            text += "  <li>\(item): t\(task)i\(index)#\(item)</li>\n"
        }
        if index % 4 == 0 { text += "  <li>none</li>\n" }
        return text + "</ul>\n<footer>RN</footer>\n"
    }

    static let page = """
        <h1>{{title}}</h1>
        <ul>
          {{#items}}
          <li>{{n}}: {{label}}</li>
          {{/items}}
          {{^items}}
          <li>none</li>
          {{/items}}
        </ul>
        {{>footer}}

        """

    @Test("one template rendered from many tasks at once gives the right output every time")
    func sharedTemplate() async throws {
        let template = try Template(Self.page, name: "page")
        let library = try TemplateLibrary(sources: ["footer": "<footer>{{site}}</footer>\n"])
        let wrong = await withTaskGroup(of: Int.self) { group in
            for task in 0..<Self.taskCount {
                group.addTask {
                    var failures = 0
                    for index in 0..<Self.rendersPerTask {
                        let output = try? template.render(Self.data(task: task, index: index), partials: library)
                        if output != Self.expected(task: task, index: index) { failures += 1 }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        #expect(
            try template.render(Self.data(task: 3, index: 6), partials: library) == Self.expected(task: 3, index: 6))
    }

    @Test("a library whose loader reads a folder serves concurrent renders correctly")
    func sharedLoadingLibrary() async throws {
        let folder = try TemporaryFolder()
        try folder.write(Self.page, to: "page.mustache")
        try folder.write("<footer>{{site}}</footer>\n", to: "footer.mustache")
        let asked = AskedNames()
        let library = TemplateLibrary(loader: folder.loader(onLoad: asked.add))
        let wrong = await withTaskGroup(of: Int.self) { group in
            for task in 0..<Self.taskCount {
                group.addTask {
                    var failures = 0
                    for index in 0..<Self.rendersPerTask {
                        let output = try? library.render("page", Self.data(task: task, index: index))
                        if output != Self.expected(task: task, index: index) { failures += 1 }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        #expect(Set(asked.names) == ["page", "footer"])
        // Once cached, a name is never loaded again; only renders racing on the first use may load it twice.
        #expect(asked.names.count <= 2 * Self.taskCount)
    }

    @Test("errors from concurrent renders are each complete and correct")
    func concurrentErrors() async throws {
        let library = TemplateLibrary(templates: [:])
        let template = try Template("line\n  {{>missing}}", name: "page", path: "page.mustache")
        let expected = TemplateError(
            .missingPartial(name: "missing"), at: SourceLocation(path: "page.mustache", line: 2, column: 3))
        let matching = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<Self.taskCount {
                group.addTask {
                    var count = 0
                    for _ in 0..<50 {
                        do throws(TemplateError) {
                            _ = try template.render([:], partials: library)
                        } catch {
                            if error == expected { count += 1 }
                        }
                    }
                    return count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(matching == Self.taskCount * 50)
    }
}
