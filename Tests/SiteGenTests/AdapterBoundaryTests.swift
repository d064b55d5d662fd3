import Foundation
import Testing

/// "One C library, one adapter file": SwiftPM hands every target that depends on an adapter
/// the C module too, so the compiler alone would let `SiteGen` import `CYaml`. This test
/// reads the package's sources and holds the rule.
@Suite("C library boundaries")
struct AdapterBoundaryTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    @Test(
        "each C library is imported by exactly one Swift file, its adapter",
        arguments: [("CYaml", "YAML/YAMLParser.swift"), ("CCmark", "CommonMark/Markdown.swift")])
    func oneFileSeesEachLibrary(module: String, adapter: String) throws {
        let importing = try swiftFiles().filter { path in
            let text = try String(contentsOf: Self.sources.appendingPathComponent(path), encoding: .utf8)
            return text.split(separator: "\n").contains {
                $0.wholeMatch(
                    of: /(?:@_implementationOnly |internal |public |package |private |fileprivate )?import\s+(\w+)/)?
                    .output.1 == Substring(module)
            }
        }
        #expect(importing == [adapter])
    }

    @Test("no libyaml or cmark name appears outside the adapter files")
    func noCNamesOutside() throws {
        let adapters: Set = ["YAML/YAMLParser.swift", "CommonMark/Markdown.swift"]
        for path in try swiftFiles() where !adapters.contains(path) {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(path), encoding: .utf8)
            #expect(text.firstMatch(of: /\b(yaml|cmark)_[a-z_]+\(|\b(YAML|CMARK)_[A-Z_]+\b/) == nil, "\(path)")
        }
    }

    /// Every `.swift` file under `Sources/`, relative to it, sorted.
    func swiftFiles() throws -> [String] {
        let walker = try #require(FileManager.default.enumerator(atPath: Self.sources.path))
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
    }
}
