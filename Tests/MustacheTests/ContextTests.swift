import Mustache
import Testing

/// Name lookup through the context stack, sections, truthiness and number formatting.
@Suite("Context and sections")
struct ContextTests {
    @Test("a name missing from the inner context is found in an outer one")
    func nestedContextsFallBackOutward() throws {
        let template = try Template(
            "{{#review}}{{title}} by {{site}}{{#author}} ({{name}}, {{site}}){{/author}}{{/review}}")
        let output = try template.render([
            "site": "Reel Notes",
            "review": ["title": "Heat", "author": ["name": "Kim"]],
        ])
        #expect(output == "Heat by Reel Notes (Kim, Reel Notes)")
    }

    @Test("the innermost context with the name wins")
    func innerContextShadowsOuter() throws {
        let template = try Template("{{name}}-{{#child}}{{name}}-{{#grandchild}}{{name}}{{/grandchild}}{{/child}}")
        let output = try template.render([
            "name": "outer",
            "child": ["name": "middle", "grandchild": ["other": 1]],
        ])
        #expect(output == "outer-middle-middle")
    }

    @Test("dotted names walk into objects, in variables and sections")
    func dottedNames() throws {
        let template = try Template(
            "{{page.meta.title}}|{{#page.meta}}{{author.name}}{{/page.meta}}|{{page.missing.x}}")
        let output = try template.render([
            "page": ["meta": ["title": "Oldboy", "author": ["name": "Park"]]]
        ])
        #expect(output == "Oldboy|Park|")
    }

    @Test("only the first part of a dotted name is looked up in outer contexts")
    func dottedNameDoesNotFallBackAfterFirstPart() throws {
        let template = try Template("{{#a}}[{{b.c}}]{{/a}}")
        let output = try template.render(["a": ["b": ["other": 1]], "b": ["c": "ERROR"]])
        #expect(output == "[]")
    }

    @Test("{{.}} is the current item in a list of scalars")
    func implicitIteratorOverScalars() throws {
        let template = try Template("<ul>{{#tags}}<li>{{.}}</li>{{/tags}}</ul>")
        let output = try template.render(["tags": ["drama", "<thriller>", 1999, 2.5, true]])
        #expect(output == "<ul><li>drama</li><li>&lt;thriller&gt;</li><li>1999</li><li>2.5</li><li>true</li></ul>")
    }

    @Test("{{.}} is the value a non-list section pushed")
    func implicitIteratorInScalarSection() throws {
        let template = try Template("{{#name}}Hello {{.}}!{{/name}}")
        #expect(try template.render(["name": "Sora"]) == "Hello Sora!")
    }

    @Test("a list of objects renders the section once per object")
    func listOfObjects() throws {
        let template = try Template(
            """
            {{#reviews}}
            - {{title}} ({{year}}){{#featured}} *{{/featured}}
            {{/reviews}}

            """)
        let output = try template.render([
            "reviews": [
                ["title": "Parasite", "year": 2019, "featured": true],
                ["title": "Mother", "year": 2009, "featured": false],
                ["title": "Okja", "year": 2017],
            ]
        ])
        #expect(output == "- Parasite (2019) *\n- Mother (2009)\n- Okja (2017)\n")
    }

    @Test("nested lists: {{.}} refers to the innermost item")
    func nestedLists() throws {
        let template = try Template("{{#rows}}[{{#.}}{{.}}{{/.}}]{{/rows}}")
        #expect(try template.render(["rows": [[1, 2], [3], []]]) == "[12][3][]")
    }

    @Test("inverted sections render when the value is missing, false or empty")
    func invertedSections() throws {
        let template = try Template("{{^items}}none{{/items}}{{#items}}{{.}}{{/items}}")
        #expect(try template.render([:]) == "none")
        #expect(try template.render(["items": []]) == "none")
        #expect(try template.render(["items": false]) == "none")
        #expect(try template.render(["items": ["a", "b"]]) == "ab")
    }

    @Test("null, false, \"\" and [] are false", arguments: [Value.null, false, "", []])
    func falsyValues(_ value: Value) throws {
        let template = try Template("{{#v}}yes{{/v}}{{^v}}no{{/v}}")
        #expect(try template.render(["v": value]) == "no")
        #expect(!value.isTruthy)
    }

    @Test(
        "0, 0.0, true, a non-empty string and {} are true",
        arguments: [
            Value.int(0), .double(0), true, "x", .object([:]), [Value.null],
        ])
    func truthyValues(_ value: Value) throws {
        let template = try Template("{{#v}}yes{{/v}}{{^v}}no{{/v}}")
        #expect(try template.render(["v": value]) == "yes")
        #expect(value.isTruthy)
    }

    @Test("a missing name renders nothing and counts as false")
    func missingName() throws {
        let template = try Template("[{{nope}}|{{{nope}}}|{{#nope}}x{{/nope}}|{{^nope}}y{{/nope}}]")
        #expect(try template.render(["other": 1]) == "[|||y]")
    }

    @Test("null and objects interpolate as nothing")
    func nullAndObjectInterpolateEmpty() throws {
        let template = try Template("[{{a}}|{{b}}]")
        #expect(try template.render(["a": nil, "b": ["k": "v"]]) == "[|]")
    }

    @Test(
        "numbers: ints, decimals, and whole doubles without \".0\"",
        arguments: [
            (Value.int(42), "42"),
            (.int(-7), "-7"),
            (.int(0), "0"),
            (.double(1.5), "1.5"),
            (.double(1.210), "1.21"),
            (.double(-0.25), "-0.25"),
            (.double(3.0), "3"),
            (.double(-12.0), "-12"),
            (.double(1e14), "100000000000000"),
            (.double(1e15), "1000000000000000"),
            (.double(-9_007_199_254_740_992), "-9007199254740992"),
            (.double(1e17), "100000000000000000"),
            (.double(0.1 + 0.2), "0.30000000000000004"),
        ])
    func numberFormatting(_ value: Value, _ expected: String) throws {
        #expect(try Template("{{n}}").render(["n": value]) == expected)
        #expect(value.renderedText == expected)
    }

    @Test("objects with many members find every key (the hashed-index path)")
    func largeObjectLookup() throws {
        var members: [String: Value] = [:]
        for index in 0..<40 { members["key\(index)"] = .int(index * 10) }
        let names = (0..<40).map { "{{key\($0)}}" }.joined(separator: ",")
        let template = try Template(names + "|{{missing}}")
        let expected = (0..<40).map { String($0 * 10) }.joined(separator: ",") + "|"
        #expect(try template.render(.object(members)) == expected)
    }

    @Test("keys of every length, and keys one byte apart at every place, are told apart, small objects and large")
    func keysOfEveryLength() {
        var keys: [String] = [""]
        for length in 1...20 {
            let base = Array("abcdefghijklmnopqrstu".utf8.prefix(length))
            keys.append(String(decoding: base, as: UTF8.self))
            for place in 0..<length {
                var other = base
                other[place] = UInt8(ascii: "Z")
                keys.append(String(decoding: other, as: UTF8.self))
            }
        }
        keys += ["기생충", "기생", "é", "e\u{301}", String(repeating: "long key ", count: 20)]
        // In objects of up to a dozen members (read in order) and in one with all of them (hashed).
        let groups = stride(from: 0, to: keys.count, by: 10).map { Array(keys[$0..<min($0 + 10, keys.count)]) } + [keys]
        for group in groups {
            let object = Object(pairs: group.enumerated().map { (key: $0.element, value: .int($0.offset)) })
            #expect(object.count == group.count)
            for (number, key) in group.enumerated() {
                #expect(object[key] == .int(number), "\(key.debugDescription)")
                #expect(object[key + "!"] == nil)
            }
        }
    }

    @Test("a repeated key keeps its last value in its first place, from pairs and from members, small and large")
    func repeatedKeys() {
        let small = Object(pairs: [("a", 1), ("b", 2), ("a", 3)])
        #expect(small.count == 2)
        #expect(small.keys == ["a", "b"])
        #expect(small["a"] == 3)
        let members = Object(members: ["a": 1, "b": 2, "a": 3])
        #expect(members.count == 2)
        #expect(members.keys == ["a", "b"])
        #expect(members["a"] == 3)
        // Many keys share a hash bit: the check reads every key, finds each once, or the repeat.
        for size in [40, 100] {
            let distinct = (0..<size).map { (key: "key\($0)", value: Value.int($0)) }
            let object = Object(pairs: distinct)
            #expect(object.count == size)
            #expect(object["key\(size - 1)"] == .int(size - 1))
            let repeated = Object(pairs: distinct + [(key: "key5", value: "last")])
            #expect(repeated.count == size)
            #expect(repeated.keys == distinct.map(\.key))
            #expect(repeated["key5"] == "last")
        }
    }

    @Test("a section over an object pushes it; its members are names inside")
    func objectSection() throws {
        let template = try Template("{{#rating}}{{stars}} ({{label}}){{/rating}}")
        let output = try template.render(["rating": ["stars": "★★★★½", "label": "4.5 out of 5"]])
        #expect(output == "★★★★½ (4.5 out of 5)")
    }

    @Test("standalone section tags take their whole line")
    func standaloneSectionLines() throws {
        let template = try Template(
            """
            <ul>
              {{#items}}
              <li>{{.}}</li>
              {{/items}}
            </ul>

            """)
        #expect(try template.render(["items": ["a", "b"]]) == "<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>\n")
    }

    @Test("objects are equal with the same members in any order, and unequal when a key or a value differs")
    func objectEquality() {
        let members: [(key: String, value: Value)] = (0..<20).map { ("k\($0)", .int($0)) }
        let object = Object(pairs: members)
        #expect(object == Object(pairs: members))
        #expect(object == Object(pairs: members.reversed()))
        #expect(object == Object(pairs: Array(members[10...] + members[..<10])))
        var otherValue = members
        otherValue[7].value = .string("7")
        #expect(object != Object(pairs: otherValue))
        var otherKey = members
        otherKey[19].key = "z"
        #expect(object != Object(pairs: otherKey))
        #expect(object != Object(pairs: Array(members.dropLast())))
        let small: Object = ["a": 1, "b": ["c": [1, 2]]]
        #expect(small == ["b": ["c": [1, 2]], "a": 1])
        #expect(small != ["b": ["c": [1, 3]], "a": 1])
        #expect(small != ["a": 1, "c": ["c": [1, 2]]])
    }
}
