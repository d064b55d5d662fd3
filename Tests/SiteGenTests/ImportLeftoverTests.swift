import Foundation
import Testing

@testable import SiteGen

@Suite("What a killed import left")
struct ImportLeftoverTests {
    @Test("its temporary files over a minute old go when the next import writes; others' files stay")
    func leftovers() throws {
        let folder = try ScratchFolder()
        let names = [
            ".heat.md.sitegen-import", "..heat.md.sitegen-import.sitegen-tmp-1x2y", ".heat.md.sitegen-tmp-abc123",
            // Not an import's: kept.
            ".DS_Store", ".notes.md", ".heat.md.sitegen-tmp-", ".heat.txt.sitegen-tmp-abc", "heat.md",
            ".heat.md.sitegen-tmp-ABC",
        ]
        for name in names { try folder.write("content/movies/\(name)", "x") }
        // A temporary file being written now is never taken.
        try folder.write("content/movies/.fresh.md.sitegen-tmp-zz9", "x")
        let old = Date().addingTimeInterval(-120)
        for name in names {
            try FileManager.default.setAttributes(
                [.modificationDate: old], ofItemAtPath: folder.url.appendingPathComponent("content/movies/\(name)").path
            )
        }
        Importer.removeLeftovers(in: folder.url.appendingPathComponent("content/movies").path)
        #expect(
            try folder.entries() == [
                "content", "content/movies", "content/movies/.DS_Store", "content/movies/.fresh.md.sitegen-tmp-zz9",
                "content/movies/.heat.md.sitegen-tmp-", "content/movies/.heat.md.sitegen-tmp-ABC",
                "content/movies/.heat.txt.sitegen-tmp-abc", "content/movies/.notes.md", "content/movies/heat.md",
            ])
    }
}
