import Testing
import YAML

/// The YAML emitter: libyaml picks each scalar's quoting, and what it writes reads back as
/// the same values through the parser the build uses.
@Suite("YAML emitter")
struct YAMLEmitterTests {
    @Test("a front matter mapping is written one key a line, quoted only where needed")
    func frontMatter() throws {
        let text = try YAMLEmitter.document(
            .mapping([
                ("title", .text("Dune: Part Two")), ("original_title", .text("기생충")),
                ("date", .plain("2024-03-15")), ("rating", .plain("4.5")),
                ("tags", .list([.text("sci-fi"), .text("a, b"), .text("2024"), .text("#1")])),
                ("year", .plain("2024")), ("isbn", .text("9780140449136")),
                ("letterboxd", .text("https://boxd.it/1BuTKZ")),
            ]))
        #expect(
            text == """
                title: 'Dune: Part Two'
                original_title: 기생충
                date: 2024-03-15
                rating: 4.5
                tags: [sci-fi, 'a, b', '2024', '#1']
                year: 2024
                isbn: '9780140449136'
                letterboxd: https://boxd.it/1BuTKZ

                """)
    }

    static let awkward = [
        "", " ", "a: b", ": x", "x:", "- dash", "-", "--- three", "---", "...", "# hash", "a #b", "a# b", "'single'",
        "\"double\"", "it's", "say \"hi\"", "2046", "4.5", "-1", "+1", ".5", "1e3", "0x1F", "0o17", "017", "1_000",
        "12:30", "1:02:03", ".inf", "-.Inf", ".NaN", "yes", "No", "ON", "off", "y", "N", "true", "False", "~", "null",
        "NULL", "2024-03-15", "2001-12-14t21:59:43.10-05:00", "<<", "=", "[a]", "{a: b}", "&anchor", "*alias",
        "!tag", "|", ">", "%percent", "@at", "`tick", " leading", "trailing ", "tab\there", "line\nbreak",
        "crlf\r\nline", "기생충: 반지하", "기생충", "🎬 film", "\u{FEFF}bom", "back\\slash", "a,b",
        "C++", "C#", "Tom & Jerry", "?", "? x", "x ? y", "https://letterboxd.com/film/parasite-2019/",
    ]

    @Test("awkward text reads back as the same text, never a number, date, boolean or null", arguments: awkward)
    func roundTrip(_ text: String) throws {
        let yaml = try YAMLEmitter.document(.mapping([("value", .text(text)), ("list", .list([.text(text)]))]))
        let node = try #require(try YAMLParser.parse(yaml))
        #expect(node["value"]?.scalarText == text, "\(yaml)")
        #expect(node["list"]?.sequenceItems.first?.scalarText == text, "\(yaml)")
        if YAMLEmitter.readsAsOtherThanText(text) {
            guard case .scalar(_, let plain, _) = node["value"] else {
                Issue.record("not a scalar")
                return
            }
            #expect(!plain, "\(yaml) is written plain")
        }
        #expect(!yaml.split(separator: "\n", omittingEmptySubsequences: false).contains("---"))
    }

    @Test("characters outside the Basic Multilingual Plane are written as themselves, not as \\U escapes")
    func astralCharacters() throws {
        let text = try YAMLEmitter.document(
            .mapping([
                ("title", .text("🎬 Night 🌙")), ("original_title", .text("𠀋 and 기생충")),
                ("tags", .list([.text("🍿"), .text("a: 🎞️")])), ("review", .text("Two lines 🎬\nand a \"quote\"")),
            ]))
        #expect(
            text == """
                title: 🎬 Night 🌙
                original_title: 𠀋 and 기생충
                tags: [🍿, 'a: 🎞️']
                review: "Two lines 🎬\\nand a \\"quote\\""

                """)
        let node = try #require(try YAMLParser.parse(text))
        #expect(node["title"]?.scalarText == "🎬 Night 🌙")
        #expect(node["review"]?.scalarText == "Two lines 🎬\nand a \"quote\"")
    }

    @Test("text that holds Private Use Area characters and emoji reads back as the same text")
    func privateUseBesideAstral() throws {
        // The stand-ins come from the Private Use Area: those the text holds are never used.
        let pua = (0xE000...0xE00F).map { String(Unicode.Scalar($0)!) }.joined()
        let value = pua + "🎬" + "\u{E010}" + "😀" + "\\U0001F3AC"
        let yaml = try YAMLEmitter.document(.mapping([("value", .text(value)), ("list", .list([.text("😀\u{F8FF}")]))]))
        #expect(yaml.contains("🎬") && yaml.contains("😀"), "\(yaml)")
        let node = try #require(try YAMLParser.parse(yaml))
        #expect(node["value"]?.scalarText == value)
        #expect(node["list"]?.sequenceItems.first?.scalarText == "😀\u{F8FF}")
    }

    @Test("characters no YAML reader accepts (control characters but tab and line breaks) are left out")
    func controlCharacters() throws {
        let text =
            "bell\u{7}, nul\u{0}, vt\u{B}, esc\u{1B}, del\u{7F}, c1\u{80}\u{9F}, nel\u{85}, \u{FFFE}\u{FFFF}x\ttab"
        let yaml = try YAMLEmitter.document(.mapping([("value", .text(text)), ("list", .list([.text("\u{1}")]))]))
        let node = try #require(try YAMLParser.parse(yaml))
        #expect(node["value"]?.scalarText == "bell, nul, vt, esc, del, c1, nel\u{85}, x\ttab", "\(yaml)")
        #expect(node["list"]?.sequenceItems.first?.scalarText == "", "\(yaml)")
    }

    @Test("text that a YAML reader could take for another type is recognised")
    func otherTypes() {
        for text in ["2046", "-3", "4.5", "1e3", "0x1F", "1_000", "12:30", "yes", "Off", "~", "", "2024-03-15", ".nan"]
        {
            #expect(YAMLEmitter.readsAsOtherThanText(text), "\(text)")
        }
        for text in ["Parasite", "2046 (film)", "42nd Street", "1917s", "기생충", "-dash", "e", "Yesterday"] {
            #expect(!YAMLEmitter.readsAsOtherThanText(text), "\(text)")
        }
    }

    @Test("plain values are written as given; lists of mappings go one item a line")
    func plainAndNested() throws {
        let text = try YAMLEmitter.document(
            .mapping([
                ("draft", .plain("true")), ("empty", .list([])),
                ("cast", .list([.mapping([("name", .text("Song Kang-ho")), ("role", .text("Ki-taek"))])])),
            ]))
        #expect(
            text == """
                draft: true
                empty: []
                cast:
                - name: Song Kang-ho
                  role: Ki-taek

                """)
    }
}

private extension YAMLNode {
    var sequenceItems: [YAMLNode] {
        if case .sequence(let items, _) = self { return items }
        return []
    }
}
