import Foundation
import Mustache
import Testing

/// Runs the official Mustache spec files from `$MUSTACHE_SPEC_DIR`.
///
/// Every module sitegen implements runs in full; only `~lambdas` is left out, because
/// the engine deliberately has no lambdas (templates stay logic-free).
@Suite(
    "Mustache spec conformance",
    .enabled(if: SpecCase.directory != nil, "MUSTACHE_SPEC_DIR is not set: spec files not run"))
struct SpecConformanceTests {
    @Test("spec case", arguments: SpecCase.all)
    func conforms(_ specCase: SpecCase) throws {
        let library = try TemplateLibrary(sources: specCase.partials, missingPartials: .renderEmpty)
        let template = try Template(specCase.template, name: specCase.name)
        let output = try template.render(specCase.data, partials: library)
        #expect(output == specCase.expected, "\(specCase.file): \(specCase.name)")
    }

    @Test("all 184 cases outside ~lambdas are present")
    func countsCases() {
        #expect(SpecCase.all.count == 184)
    }
}

struct SpecCase: Sendable, CustomTestStringConvertible, Decodable {
    static let modules = [
        "comments", "delimiters", "interpolation", "inverted", "partials", "sections",
        "~dynamic-names", "~inheritance",
    ]
    static let skipped = ["~lambdas": "lambdas are not supported: templates stay logic-free"]

    static var directory: URL? {
        ProcessInfo.processInfo.environment["MUSTACHE_SPEC_DIR"].map { URL(fileURLWithPath: $0) }
    }

    static let all: [SpecCase] = {
        guard let directory else { return [] }
        return modules.flatMap { module -> [SpecCase] in
            let url = directory.appendingPathComponent("\(module).json")
            guard let data = try? Data(contentsOf: url),
                let file = try? JSONDecoder().decode(SpecFile.self, from: data)
            else {
                Issue.record("cannot read \(url.path)")
                return []
            }
            return file.tests.map { $0.in(module) }
        }
    }()

    var file = ""
    let name: String
    let data: Value
    let template: String
    let expected: String
    let partials: [String: String]

    var testDescription: String { "\(file): \(name)" }

    enum CodingKeys: String, CodingKey { case name, data, template, expected, partials }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        data = try container.decode(Value.self, forKey: .data)
        template = try container.decode(String.self, forKey: .template)
        expected = try container.decode(String.self, forKey: .expected)
        partials = try container.decodeIfPresent([String: String].self, forKey: .partials) ?? [:]
    }

    func `in`(_ module: String) -> SpecCase {
        var copy = self
        copy.file = module
        return copy
    }
}

private struct SpecFile: Decodable {
    let tests: [SpecCase]
}
