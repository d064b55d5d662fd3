import Foundation
import Testing

/// "One C library, one adapter file": SwiftPM hands every target that depends on an adapter
/// the C module too, so the compiler alone would let `SiteGen` import `CYaml`. This test
/// reads the package's sources and holds the rule. libyaml has two: its parser and its emitter.
@Suite("C library boundaries")
struct AdapterBoundaryTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    @Test(
        "each C library is imported only by its adapter files",
        arguments: [
            ("CYaml", ["YAML/YAMLEmitter.swift", "YAML/YAMLParser.swift"]), ("CCmark", ["CommonMark/Markdown.swift"]),
            ("CZip", ["Zip/ZipArchive.swift"]), ("CTCMalloc", ["Allocator/Allocator.swift"]),
        ])
    func onlyAdaptersSeeEachLibrary(module: String, adapters: [String]) throws {
        let importing = try swiftFiles().filter { path in
            let text = try String(contentsOf: Self.sources.appendingPathComponent(path), encoding: .utf8)
            return text.split(separator: "\n").contains {
                $0.wholeMatch(
                    of: /(?:@_implementationOnly |internal |public |package |private |fileprivate )?import\s+(\w+)/)?
                    .output.1 == Substring(module)
            }
        }
        #expect(importing == adapters)
    }

    @Test("the zip adapter target is that one file")
    func zipTargetIsOneFile() throws {
        #expect(try swiftFiles().filter { $0.hasPrefix("Zip/") } == ["Zip/ZipArchive.swift"])
    }

    @Test("no libyaml, cmark or libzip name appears outside the adapter files")
    func noCNamesOutside() throws {
        let adapters: Set = [
            "YAML/YAMLParser.swift", "YAML/YAMLEmitter.swift", "CommonMark/Markdown.swift", "Zip/ZipArchive.swift",
        ]
        for path in try swiftFiles() where !adapters.contains(path) {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(path), encoding: .utf8)
            #expect(
                text.firstMatch(of: /\b(yaml|cmark|zip)_[a-z_]+\(|\b(YAML|CMARK|ZIP)_[A-Z_]+\b/) == nil, "\(path)")
        }
    }

    /// Every `.swift` file under `Sources/`, relative to it, sorted.
    func swiftFiles() throws -> [String] {
        let walker = try #require(FileManager.default.enumerator(atPath: Self.sources.path))
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
    }
}
