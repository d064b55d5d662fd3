import Dispatch
import Testing

@testable import Mustache

/// Objects that keep renderings (`Object(pairs:keepsRenderings:)`): a partial rendered with one
/// on top of the stack is written again from its record, which must give exactly the bytes
/// (or the error) that rendering it would.
@Suite("Kept renderings")
struct KeptRenderingsTests {
    /// A card, kept or plain, with the same members.
    static func card(_ pairs: KeyValuePairs<String, Value>, kept: Bool = true) -> Value {
        .object(Object(pairs: pairs.map { (key: $0.key, value: $0.value) }, keepsRenderings: kept))
    }

    @Test("a name the partial finds outside the card is looked up again on every page")
    func escapesAreCheckedAgain() throws {
        let library = try TemplateLibrary(sources: [
            "card": "<b>{{title}}</b> on {{site}}{{^rating}} ({{labels.notRated}}){{/rating}}"
        ])
        let page = try Template("{{#card}}{{>card}}{{/card}}")
        let card = Self.card(["title": "Mother"])
        let first: Value = ["site": "One", "labels": ["notRated": "no stars"], "card": card]
        let second: Value = ["site": "Two", "labels": ["notRated": "unrated"], "card": card]
        let third: Value = ["site": "Two", "rating": 3, "card": card]
        #expect(try page.render(first, partials: library) == "<b>Mother</b> on One (no stars)")
        #expect(try page.render(second, partials: library) == "<b>Mother</b> on Two (unrated)")
        #expect(try page.render(third, partials: library) == "<b>Mother</b> on Two")
        #expect(try page.render(first, partials: library) == "<b>Mother</b> on One (no stars)")
    }

    @Test("a record keeps nothing alive: not the page it was rendered in, nor the card")
    func recordsHoldNoCycle() throws {
        let library = try TemplateLibrary(sources: [
            "card": "{{title}}{{#home}}, home {{name}}{{/home}}{{#cards}}+{{title}}{{/cards}}",
            "plain": "{{title}} on {{#home}}{{name}}{{/home}}",
        ])
        let page = try Template("{{#card}}{{>card}}|{{>plain}}|{{>plain}}{{/card}}")
        weak var card: ObjectStorage?
        weak var home: ObjectStorage?
        weak var root: ObjectStorage?
        do {
            let kept = Self.card(["title": "Mother"])
            // The home object and the list hold the card: a record holding them would hold itself.
            let homeValue: Value = .object(Object(pairs: [("name", "Home"), ("card", kept)]))
            let data: Value = .object(Object(pairs: [("card", kept), ("home", homeValue), ("cards", [kept])]))
            #expect(
                try page.render(data, partials: library) == "Mother, home Home+Mother|Mother on Home|Mother on Home")
            #expect(
                try page.render(data, partials: library) == "Mother, home Home+Mother|Mother on Home|Mother on Home")
            if case .object(let members) = kept { card = members.storage }
            if case .object(let members) = homeValue { home = members.storage }
            if case .object(let members) = data { root = members.storage }
            #expect(card != nil && home != nil && root != nil)
        }
        #expect(card == nil)
        #expect(home == nil)
        #expect(root == nil)
    }

    @Test("one record serves every indentation, and writes each on every line")
    func indentationIsWrittenAgain() throws {
        let library = try TemplateLibrary(sources: [
            "card": "<li>\n  {{title}}\n  {{>line}}\n</li>\n",
            "line": "<i>{{year}}</i>\n\n",
        ])
        let page = try Template(
            "{{#cards}}\n  {{>card}}\n{{/cards}}\n<ol>\n{{#cards}}\n      {{>card}}\n{{/cards}}\n</ol>\n{{#cards}}{{>card}}{{/cards}}"
        )
        func cards(kept: Bool) -> Value {
            .array([
                Self.card(["title": "A", "year": 2003], kept: kept),
                Self.card(["title": "B", "year": 2019], kept: kept),
            ])
        }
        let kept = try page.render(["cards": cards(kept: true)], partials: library)
        #expect(kept == (try page.render(["cards": cards(kept: false)], partials: library)))
        // Each line of a card at the indentation of its include, the empty one too.
        #expect(kept.hasPrefix("  <li>\n    A\n    <i>2003</i>\n    \n  </li>\n  <li>\n    B\n"))
        #expect(kept.contains("<ol>\n      <li>\n        A\n        <i>2003</i>\n        \n      </li>\n"))
        #expect(kept.hasSuffix("</ol>\n<li>\n  A\n  <i>2003</i>\n  \n</li>\n<li>\n  B\n  <i>2019</i>\n  \n</li>\n"))
    }

    @Test("a card rendered by one theme is rendered anew by another")
    func anotherLibraryRendersAnew() throws {
        let card = Self.card(["title": "Parasite"])
        let page = try Template("{{#card}}{{>card}}{{/card}}")
        for (index, text) in ["<h3>{{title}}</h3>", "<h4>{{title}}</h4>", "[{{title}}]", "<h3>{{title}}</h3>"]
            .enumerated()
        {
            let library = try TemplateLibrary(sources: ["card": text])
            let expected = ["<h3>Parasite</h3>", "<h4>Parasite</h4>", "[Parasite]", "<h3>Parasite</h3>"][index]
            #expect(try page.render(["card": card], partials: library) == expected)
            #expect(try page.render(["card": card], partials: library) == expected)
        }
    }

    @Test("a record made with one library is not used with another that shares the template")
    func libraryIsPartOfTheRecord() throws {
        let card = try Template("<li>{{>line}}</li>", name: "card")
        let first = TemplateLibrary(templates: ["card": card, "line": try Template("{{title}}", name: "line")])
        let second = TemplateLibrary(templates: ["card": card, "line": try Template("[{{title}}]", name: "line")])
        let page = try Template("{{#card}}{{>card}}{{/card}}")
        let data: Value = ["card": Self.card(["title": "Burning"])]
        #expect(try page.render(data, partials: first) == "<li>Burning</li>")
        #expect(try page.render(data, partials: second) == "<li>[Burning]</li>")
        #expect(try page.render(data, partials: first) == "<li>Burning</li>")
    }

    @Test("a card inside a card: what the inner one looked up outside both is checked for the outer one too")
    func nestedCardsPassTheirEscapesOn() throws {
        let library = try TemplateLibrary(sources: [
            "card": "<li>{{title}} {{#friend}}({{>mini}}){{/friend}}</li>",
            "mini": "{{title}} on {{site}}",
        ])
        let page = try Template("{{#inner}}{{>mini}}|{{/inner}}{{#outer}}{{>card}}{{/outer}}")
        let inner = Self.card(["title": "Inner"])
        let outer = Self.card(["title": "Outer", "friend": inner])
        // The inner card's record is made first, then used while the outer card's is made.
        #expect(
            try page.render(["site": "A", "inner": inner, "outer": outer], partials: library)
                == "Inner on A|<li>Outer (Inner on A)</li>")
        #expect(try page.render(["site": "B", "outer": outer], partials: library) == "<li>Outer (Inner on B)</li>")
    }

    @Test("a record is not used where the rendering would run into a limit: the same error")
    func limitsStillStop() throws {
        let card = "<p>{{#sub}}{{#sub}}{{title}}{{/sub}}{{/sub}}</p>"
        let limits = RenderLimits(partialDepth: 3, nesting: 5, steps: 10_000, outputBytes: 10_000)
        let library = TemplateLibrary(
            templates: ["card": try Template(card, name: "card"), "wrap": try Template("{{>card}}", name: "wrap")],
            limits: limits)
        let shallow = try Template("{{#card}}{{>card}}{{/card}}", name: "shallow")
        let deep = try Template("{{#a}}{{#b}}{{#card}}{{>wrap}}{{/card}}{{/b}}{{/a}}", name: "deep")
        func data(kept: Bool) -> Value {
            let card = Self.card(["title": "T", "sub": ["title": "S"]], kept: kept)
            return ["a": true, "b": true, "card": card]
        }
        let plain = data(kept: false)
        let kept = data(kept: true)
        #expect(try shallow.render(kept, partials: library) == "<p>S</p>")
        let expected = #expect(throws: TemplateError.self) { try deep.render(plain, partials: library) }
        let found = #expect(throws: TemplateError.self) { try deep.render(kept, partials: library) }
        #expect(found == expected)
        #expect(found?.reason == .nestedTooDeep(limit: 5))
    }

    @Test("random templates and data: kept cards render as plain ones, page after page")
    func randomTemplatesMatchPlainRendering() throws {
        for seed in UInt64(1)...250 {
            var random = Random(seed: seed)
            let world = RandomWorld(&random)
            for library in world.libraries {
                for page in world.pages {
                    let plain = Result { () throws(TemplateError) in
                        try library.render("page", page.plain)
                    }
                    let kept = Result { () throws(TemplateError) in
                        try library.render("page", page.kept)
                    }
                    #expect(kept == plain, "seed \(seed)")
                    if kept != plain { return }
                }
            }
        }
    }

    @Test("pages that share kept cards render alike on many threads at once")
    func concurrentRendering() throws {
        for seed in UInt64(300)...340 {
            var random = Random(seed: seed)
            let world = RandomWorld(&random)
            let library = world.libraries[0]
            let expected = world.pages.map { page in
                Result { () throws(TemplateError) in try library.render("page", page.plain) }
            }
            let jobs = Array(repeating: Array(world.pages.indices), count: 8).flatMap { $0 }
            let found = Results(count: jobs.count)
            DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
                let page = world.pages[jobs[index]]
                found.set(index, Result { () throws(TemplateError) in try library.render("page", page.kept) })
            }
            for (index, page) in jobs.enumerated() {
                #expect(found.get(index) == expected[page], "seed \(seed)")
            }
        }
    }
}

/// Results filled in from several threads.
private final class Results: @unchecked Sendable {
    private var values: [Result<String, TemplateError>?]
    private let lock = DispatchQueue(label: "results")

    init(count: Int) { values = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Result<String, TemplateError>) { lock.sync { values[index] = value } }

    func get(_ index: Int) -> Result<String, TemplateError>? { lock.sync { values[index] } }
}

/// A small deterministic generator (SplitMix64).
struct Random {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Partials p0…p3 (each includes only later ones) and a page over cards, in a few libraries
/// (tight limits in some); cards shared by pages whose other values differ.
private struct RandomWorld {
    struct Page {
        let plain: Value
        let kept: Value
    }

    var libraries: [TemplateLibrary] = []
    var pages: [Page] = []

    static let names = [
        "title", "n", "flag", "items", "sub", "sub.title", ".", "site", "labels.notRated", "labels", "pageTitle",
        "missing", "sub.missing",
    ]
    static let sections = ["items", "sub", "flag", "labels", "title", "missing", "site", "n", "sub.items"]

    init(_ random: inout Random) {
        for _ in 0..<2 {
            var sources: [String: String] = [:]
            for index in 0..<4 {
                sources["p\(index)"] = Self.body(&random, partial: index, depth: 0)
            }
            sources["page"] = Self.page(&random)
            let limits =
                random.chance(30)
                ? RenderLimits(
                    partialDepth: 2 + random.below(4), nesting: 3 + random.below(8), steps: 50 + random.below(2000),
                    outputBytes: 100 + random.below(4000))
                : .standard
            let templates = sources.reduce(into: [String: Template]()) { templates, source in
                templates[source.key] = try? Template(source.value, name: source.key)
            }
            let missing: TemplateLibrary.MissingPartials = random.chance(50) ? .fail : .renderEmpty
            libraries.append(TemplateLibrary(templates: templates, missingPartials: missing, limits: limits))
        }
        // Cards, each with an earlier one as its friend now and then (kept cards inside kept cards).
        let cards = (0..<4).map { _ in Self.cardPairs(&random) }
        let friends = cards.indices.map { index in index > 0 && random.chance(50) ? random.below(index) : nil }
        var plainCards: [Value] = []
        var keptCards: [Value] = []
        for (index, pairs) in cards.enumerated() {
            let plainFriend = friends[index].map { [(key: "friend", value: plainCards[$0])] } ?? []
            let keptFriend = friends[index].map { [(key: "friend", value: keptCards[$0])] } ?? []
            plainCards.append(.object(Object(pairs: pairs + plainFriend)))
            keptCards.append(.object(Object(pairs: pairs + keptFriend, keepsRenderings: true)))
        }
        for _ in 0..<6 {
            let chosen = (0..<random.below(5)).map { _ in random.below(cards.count) }
            let one = random.below(cards.count)
            var pairs: [(key: String, value: Value)] = []
            if random.chance(70) { pairs.append(("site", .string(random.pick(["One & Co", "Two", "", "<Three>"])))) }
            if random.chance(60) {
                pairs.append(("labels", ["notRated": .string(random.pick(["none", "unrated", "—"]))]))
            }
            if random.chance(50) { pairs.append(("pageTitle", .string(random.pick(["Home", "Films"])))) }
            if random.chance(30) { pairs.append(("title", "page title")) }
            if random.chance(30) { pairs.append(("n", .int(random.below(3)))) }
            if random.chance(40) { pairs.append(("dyn", .string(random.pick(["p3", "p2", "nowhere"])))) }
            func root(_ cards: [Value]) -> Value {
                .object(
                    Object(
                        pairs: pairs + [
                            (key: "cards", value: .array(chosen.map { cards[$0] })), (key: "card", value: cards[one]),
                        ]))
            }
            pages.append(Page(plain: root(plainCards), kept: root(keptCards)))
        }
    }

    static func cardPairs(_ random: inout Random) -> [(key: String, value: Value)] {
        var pairs: [(key: String, value: Value)] = []
        if random.chance(80) { pairs.append(("title", .string(random.pick(["A & B", "Oldboy", "", "\"x\""])))) }
        if random.chance(50) { pairs.append(("n", .int(random.below(100)))) }
        if random.chance(50) { pairs.append(("flag", .bool(random.chance(50)))) }
        if random.chance(50) {
            pairs.append(
                ("items", .array((0..<random.below(3)).map { _ in ["title": .string(random.pick(["i", "j"]))] })))
        }
        if random.chance(50) { pairs.append(("sub", ["title": "sub title"])) }
        if random.chance(20) { pairs.append(("labels", ["notRated": "card's own"])) }
        if random.chance(30) { pairs.append(("dyn", .string(random.pick(["p3", "p1"])))) }
        return pairs
    }

    /// A page: the cards at several indentations, inline, in sections and through parents.
    static func page(_ random: inout Random) -> String {
        var text = ""
        for _ in 0..<(1 + random.below(4)) {
            let partial = "p\(random.below(4))"
            let indent = String(repeating: " ", count: random.pick([0, 2, 6]))
            switch random.below(5) {
            case 0: text += "{{#cards}}\n\(indent){{>\(partial)}}\n{{/cards}}\n"
            case 1: text += "<ul>{{#cards}}<li>{{>\(partial)}}</li>{{/cards}}</ul>\n"
            case 2: text += "{{#card}}\n\(indent){{>\(partial)}}\n{{/card}}\n"
            case 3: text += "{{#cards}}{{<\(partial)}}{{$b}}over {{title}}{{/b}}{{/\(partial)}}{{/cards}}\n"
            default: text += "{{#flag}}{{#card}}\(indent){{>\(partial)}}{{/card}}{{/flag}}\n"
            }
        }
        return text
    }

    /// A partial's text: tags of every kind; partials only of later partials.
    static func body(_ random: inout Random, partial: Int, depth: Int) -> String {
        var text = ""
        for _ in 0..<(1 + random.below(6)) {
            switch random.below(depth < 2 ? 12 : 6) {
            case 0: text += random.pick(["<p>", "x ", "\n", "  \n", " ", "é", "\n\n", "\t"])
            case 1: text += "{{\(random.pick(names))}}"
            case 2: text += "{{{\(random.pick(names))}}}"
            case 3: text += "\n  {{\(random.pick(names))}}\n"
            case 4: text += "{{$b}}default {{\(random.pick(names))}}{{/b}}"
            case 5:
                guard partial < 3 else { continue }
                let later = "p\(partial + 1 + random.below(3 - partial))"
                text +=
                    random.chance(50)
                    ? "\n\(String(repeating: " ", count: random.below(4))){{>\(later)}}\n" : "{{>\(later)}}"
            case 6, 7:
                let name = random.pick(sections)
                let inner = body(&random, partial: partial, depth: depth + 1)
                let sigil = random.chance(70) ? "#" : "^"
                text +=
                    random.chance(50)
                    ? "{{\(sigil)\(name)}}\(inner){{/\(name)}}" : "\n  {{\(sigil)\(name)}}\n\(inner)\n  {{/\(name)}}\n"
            case 8:
                // Dynamic names may name an earlier partial (or none): recursion runs into the limits.
                text += random.chance(50) ? "{{>*dyn}}" : "\n    {{>*dyn}}\n"
            case 9:
                guard partial < 3 else { continue }
                text += "{{<p\(partial + 1)}}{{$b}}from p\(partial) {{title}}{{/b}}{{/p\(partial + 1)}}"
            case 10:
                guard partial < 3 else { continue }
                let later = "p\(partial + 1 + random.below(3 - partial))"
                text +=
                    random.chance(50)
                    ? "{{#friend}}{{>\(later)}}{{/friend}}" : "\n{{#friend}}\n  {{>\(later)}}\n{{/friend}}\n"
            default: text += "{{#items}}{{title}},{{/items}}"
            }
        }
        return text
    }
}
