import Foundation
import Mustache
import Testing

/// Page models into values through ``ValueEncoder``, and JSON into values through `Decodable`.
@Suite("Values from Encodable models and JSON")
struct ValueEncoderTests {
    struct ReviewPage: Encodable {
        struct Rating: Encodable {
            let stars: String
            let label: String
        }

        struct Related: Encodable {
            let title: String
            let subtitle: String?
            let url: String
        }

        enum Kind: String, Encodable {
            case movie, book
        }

        let title: String
        let subtitle: String?
        let summary: String?
        let kind: Kind
        let year: Int
        let score: Double
        let draft: Bool
        let rating: Rating
        let director: Rating?
        let tags: [String]
        let related: [Related]
        let counts: [String: Int]
    }

    static let page = ReviewPage(
        title: "Heat", subtitle: "A Los Angeles Crime Saga", summary: nil, kind: .movie, year: 1995, score: 4.5,
        draft: false, rating: .init(stars: "★★★★½", label: "4.5 out of 5"), director: nil,
        tags: ["crime", "drama"],
        related: [
            .init(title: "Thief", subtitle: nil, url: "/thief/"),
            .init(title: "Collateral", subtitle: "Night shift", url: "/collateral/"),
        ],
        counts: ["views": 10])

    @Test("a page model encodes into nested objects, lists and scalars, nil optionals as null")
    func encodesPageModel() throws {
        let value = try ValueEncoder().encode(Self.page)
        let expected: Value = [
            "title": "Heat",
            "subtitle": "A Los Angeles Crime Saga",
            "summary": nil,
            "kind": "movie",
            "year": 1995,
            "score": 4.5,
            "draft": false,
            "rating": ["stars": "★★★★½", "label": "4.5 out of 5"],
            "director": nil,
            "tags": ["crime", "drama"],
            "related": [
                ["title": "Thief", "subtitle": nil, "url": "/thief/"],
                ["title": "Collateral", "subtitle": "Night shift", "url": "/collateral/"],
            ],
            "counts": ["views": 10],
        ]
        #expect(value == expected)
        #expect(value["summary"] == .null)
    }

    @Test("a nil optional hides the outer context's key of the same name")
    func nilOptionalDoesNotFallThrough() throws {
        let template = try Template(
            """
            {{#related}}
            <a href="{{url}}">{{title}}{{#subtitle}}: {{subtitle}}{{/subtitle}}{{^subtitle}} (no subtitle){{/subtitle}}</a>
            {{/related}}

            """)
        let output = try template.render(try ValueEncoder().encode(Self.page))
        #expect(
            output == """
                <a href="/thief/">Thief (no subtitle)</a>
                <a href="/collateral/">Collateral: Night shift</a>

                """)
    }

    @Test("a whole page renders from its model")
    func rendersPageModel() throws {
        let template = try Template(
            """
            <h1>{{title}}{{#subtitle}} — {{.}}{{/subtitle}}</h1>
            <p class="{{kind}}">{{year}} · {{score}} · {{#rating}}<span aria-label="{{label}}">{{stars}}</span>{{/rating}}</p>
            {{^summary}}<p>No summary.</p>{{/summary}}
            {{#director}}<p>{{label}}</p>{{/director}}
            <ul>{{#tags}}<li>{{.}}</li>{{/tags}}</ul>
            {{^draft}}published{{/draft}} {{counts.views}} views
            """)
        let output = try template.render(try ValueEncoder().encode(Self.page))
        #expect(
            output == """
                <h1>Heat — A Los Angeles Crime Saga</h1>
                <p class="movie">1995 · 4.5 · <span aria-label="4.5 out of 5">★★★★½</span></p>
                <p>No summary.</p>

                <ul><li>crime</li><li>drama</li></ul>
                published 10 views
                """)
    }

    struct Numbers: Encodable {
        let small: UInt8
        let big: Int64
        let unsigned: UInt32
        let float: Float
        let whole: Double
        let optionalInt: Int?
        let missingInt: Int?
        let maybeList: [String?]
    }

    @Test("integer and floating-point types of every width encode as int and double")
    func encodesNumberTypes() throws {
        let value = try ValueEncoder().encode(
            Numbers(
                small: 7, big: -9_000_000_000, unsigned: 4_000_000_000, float: 0.5, whole: 2.0,
                optionalInt: 3, missingInt: nil, maybeList: ["a", nil]))
        #expect(
            value == [
                "small": 7, "big": .int(-9_000_000_000), "unsigned": .int(4_000_000_000), "float": 0.5, "whole": 2.0,
                "optionalInt": 3, "missingInt": nil, "maybeList": ["a", nil],
            ])
        #expect(try Template("{{whole}} {{float}} {{big}}").render(value) == "2 0.5 -9000000000")
    }

    struct Extremes: Encodable {
        let largest: UInt64
        let smallest: Int64
        let fits: UInt64
    }

    @Test("integers too large for Int become doubles instead of wrapping around")
    func encodesOutOfRangeIntegers() throws {
        let value = try ValueEncoder().encode(Extremes(largest: .max, smallest: .min, fits: 42))
        #expect(value == ["largest": .double(18_446_744_073_709_551_616), "smallest": .int(.min), "fits": 42])
        #expect(try Template("{{largest}}").render(value) == "1.8446744073709552e+19")
    }

    @Test("top-level arrays and scalars encode directly")
    func encodesTopLevelValues() throws {
        let encoder = ValueEncoder()
        #expect(try encoder.encode(["a", "b"]) == ["a", "b"])
        #expect(try encoder.encode(5) == 5)
        #expect(try encoder.encode("text") == "text")
        #expect(try encoder.encode(true) == true)
        #expect(try encoder.encode(Optional<Int>.none) == .null)
        #expect(try encoder.encode([[1], [2, 3]]) == [[1], [2, 3]])
        #expect(try encoder.encode([String: [Int]]()) == .object([:]))
    }

    struct Credits: Encodable {
        let director: String
        let cast: [String]
        let note: String?

        enum CodingKeys: String, CodingKey { case people, note }
        enum PeopleKeys: String, CodingKey { case director, cast }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var people = container.nestedContainer(keyedBy: PeopleKeys.self, forKey: .people)
            try people.encode(director, forKey: .director)
            var cast = people.nestedUnkeyedContainer(forKey: .cast)
            for name in self.cast { try cast.encode(name) }
            try container.encode(note, forKey: .note)
        }
    }

    @Test("a custom encode(to:) with nested containers and an explicitly encoded nil")
    func customEncoding() throws {
        let value = try ValueEncoder().encode(Credits(director: "Mann", cast: ["Pacino", "De Niro"], note: nil))
        #expect(value == ["people": ["director": "Mann", "cast": ["Pacino", "De Niro"]], "note": nil])
    }

    @Test("coding keys rename members")
    func renamedKeys() throws {
        struct Renamed: Encodable {
            let name: String
            enum CodingKeys: String, CodingKey { case name = "display_name" }
        }
        #expect(try ValueEncoder().encode(Renamed(name: "Kim")) == ["display_name": "Kim"])
    }

    @Test("JSON objects decode into object values, null members included")
    func decodesJSONObject() throws {
        let json = """
            {"title": "괴물", "year": 2006, "score": 8.5, "draft": false, "subtitle": null,
             "tags": ["monster", "family"], "director": {"name": "Bong \\"BJH\\" Joon-ho"}, "empty": {}}
            """
        let value = try JSONDecoder().decode(Value.self, from: Data(json.utf8))
        #expect(
            value == [
                "title": "괴물", "year": 2006, "score": 8.5, "draft": false, "subtitle": nil,
                "tags": ["monster", "family"], "director": ["name": "Bong \"BJH\" Joon-ho"], "empty": .object([:]),
            ])
    }

    @Test("a JSON null member hides the outer context's key of the same name")
    func decodedNullDoesNotFallThrough() throws {
        let json = #"{"title": "outer", "items": [{"title": null}, {"title": "inner"}]}"#
        let value = try JSONDecoder().decode(Value.self, from: Data(json.utf8))
        #expect(try Template("{{#items}}[{{title}}]{{/items}}").render(value) == "[][inner]")
    }

    @Test("JSON arrays decode in order, with mixed members")
    func decodesJSONArray() throws {
        let value = try JSONDecoder().decode(
            Value.self, from: Data(#"[1, "two", 3.5, true, null, [], {"k": [0]}]"#.utf8))
        #expect(value == [1, "two", 3.5, true, nil, [], ["k": [0]]])
    }

    @Test(
        "JSON scalars decode at the top level",
        arguments: [
            ("\"text\"", Value.string("text")),
            ("42", .int(42)),
            ("-7", .int(-7)),
            ("2.5", .double(2.5)),
            ("true", .bool(true)),
            ("false", .bool(false)),
            ("0", .int(0)),
            ("1", .int(1)),
            ("null", .null),
            ("\"\"", .string("")),
        ])
    func decodesJSONScalar(_ json: String, _ expected: Value) throws {
        #expect(try JSONDecoder().decode(Value.self, from: Data(json.utf8)) == expected)
    }

    @Test("whole JSON numbers print without a fraction, however they were written")
    func decodedNumbersRender() throws {
        let json = #"{"a": 1.0, "b": 1.25, "c": 1e3, "d": 12345678901234567890}"#
        let value = try JSONDecoder().decode(Value.self, from: Data(json.utf8))
        #expect(try Template("{{a}} {{b}} {{c}}").render(value) == "1 1.25 1000")
        #expect(value["d"] == .double(12_345_678_901_234_567_168))
    }
}
