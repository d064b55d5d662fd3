import Foundation
import Testing

@testable import SiteGen

/// Foundation's errors in words: the file and the reason, never "NSCocoaErrorDomain error 256".
@Suite("Error messages")
struct ErrorTextTests {
    @Test("a folder that cannot be made names the path and the reason")
    func folderInTheWay() throws {
        let folder = try ScratchFolder()
        try folder.write("metadata", "a file, not a folder")
        let target = folder.url.appendingPathComponent("metadata/movies")
        let error = try #require(throws: (any Error).self) {
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        }
        let text = ErrorText.describe(error)
        #expect(!text.contains("Domain"), "\(text)")
        #expect(text.hasPrefix(folder.url.path), "\(text)")
        // sitegen's own mkdir -p says exactly what is wrong.
        #expect(
            throws: FileSystemError(
                path: folder.url.appendingPathComponent("metadata").path, reason: "a file is where a folder is needed")
        ) {
            try Directory.make(target.path)
        }
    }

    @Test("an unreadable or missing file names the path and the reason")
    func missingFile() throws {
        let folder = try ScratchFolder()
        let missing = folder.url.appendingPathComponent("nothing.json")
        let error = try #require(throws: (any Error).self) { try Data(contentsOf: missing) }
        #expect(ErrorText.describe(error) == "\(missing.path): No such file or directory")
        #expect(ErrorText.reason(POSIXError(.EACCES)) == "Permission denied")
    }

    @Test("a failed theme eject says what it undid: files removed, files put back, and any it could not put back")
    func ejectUndone() {
        #expect(ThemeEjector.undoneNote(made: 0, replaced: 0, []) == "")
        #expect(ThemeEjector.undoneNote(made: 1, replaced: 0, []) == " (the file copied before it was removed)")
        #expect(
            ThemeEjector.undoneNote(made: 3, replaced: 2, [])
                == " (the 3 files copied before it were removed; the 2 files it replaced were put back)")
        #expect(
            ThemeEjector.undoneNote(made: 0, replaced: 2, ["/s/Templates/a.css (Permission denied)"])
                == " (the file it replaced was put back; could not put back what was in /s/Templates/a.css (Permission denied))"
        )
    }
}
