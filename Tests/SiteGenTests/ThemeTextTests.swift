import Foundation
import Testing

@testable import SiteGen

/// A site's own templates are UTF-8 text, read as `sitegen template` reads them.
@Suite("Theme templates' text")
struct ThemeTextTests {
    func theme(_ bytes: [UInt8]) throws -> Result<Theme, any Error> {
        let folder = try ScratchFolder()
        try folder.write("site.yml", "title: T\nbase_url: https://example.org/\n")
        try folder.write("Templates/404.mustache", "")
        try Data(bytes).write(to: folder.url.appendingPathComponent("Templates/404.mustache"))
        return Result { try Theme.load(site: SiteFolder(root: folder.url, fileSystem: .disk)) }
    }

    @Test("a byte that is not UTF-8 is an error at its line and column, as sitegen template says; a BOM is skipped")
    func utf8() throws {
        let broken = try theme(Array("<p>\n  Gone\u{E9} ".utf8) + [0xFF] + Array(" away</p>".utf8))
        #expect(throws: BuildError.self) { try broken.get() }
        if case .failure(let error as BuildError) = broken {
            #expect(
                error.diagnostics.map(\.description) == [
                    "Templates/404.mustache:2:9: not valid UTF-8: byte 0xFF cannot appear here"
                ])
        }
        let marked = try theme([0xEF, 0xBB, 0xBF] + Array("<p>Lost</p>".utf8)).get()
        #expect(marked.templates["404"]?.text == "<p>Lost</p>")
    }
}
