import Foundation
import Testing
import Zip

/// The zip adapter: archives written with libzip and with Info-ZIP's `zip` read back, and
/// the archives it refuses.
@Suite("Zip adapter")
struct ZipArchiveTests {
    @Test("entries written with libzip read back byte for byte, with their names in order")
    func roundTrip() throws {
        let folder = try ScratchFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.url.appendingPathComponent("export.zip").path
        let korean = Data("Name\n기생충\n".utf8)
        let binary = Data((0...255).map { UInt8($0) } + [0, 0, 0])
        try ZipArchive.create(
            at: path,
            entries: [("diary.csv", korean), ("lists/", Data()), ("lists/bytes.bin", binary), ("empty", Data())])
        let archive = try ZipArchive(path: path)
        #expect(archive.entryNames == ["diary.csv", "lists/", "lists/bytes.bin", "empty"])
        #expect(try archive.read("diary.csv", limit: 100) == korean)
        #expect(try archive.read("lists/bytes.bin", limit: 259) == binary)
        #expect(try archive.read("empty", limit: 0) == Data())
        #expect(throws: ZipError("the archive has no \"missing.csv\"")) { try archive.read("missing.csv", limit: 10) }
        #expect(throws: ZipError("\"lists/bytes.bin\" unpacks to more than 258 bytes: refused")) {
            try archive.read("lists/bytes.bin", limit: 258)
        }
        #expect(throws: ZipError("File already exists")) { try ZipArchive.create(at: path, entries: []) }
    }

    @Test(
        "an archive made by the zip command reads",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zip")))
    func infoZip() throws {
        let folder = try ScratchFolder()
        try folder.write("export/diary.csv", "Date,Name\r\n2024-03-15,\"Parasite, again\"\r\n")
        let zip = Process()
        zip.executableURL = URL(fileURLWithPath: "/usr/bin/zip")
        zip.arguments = ["-q", "-r", "../export.zip", "."]
        zip.currentDirectoryURL = folder.url.appendingPathComponent("export")
        try zip.run()
        zip.waitUntilExit()
        #expect(zip.terminationStatus == 0)
        let archive = try ZipArchive(path: folder.url.appendingPathComponent("export.zip").path)
        #expect(archive.entryNames == ["diary.csv"])
        #expect(
            try archive.read("diary.csv", limit: 1000) == Data("Date,Name\r\n2024-03-15,\"Parasite, again\"\r\n".utf8))
    }

    @Test(
        "names that would leave the folder are refused when the archive is opened",
        arguments: [
            "../x.csv", "a/../../x.csv", "/etc/passwd", "a\\..\\x", "C:/x.csv", "..",
            // A combining mark after the slash or backslash: one Character with it, two bytes.
            "../\u{301}x.csv", "a/..\\\u{301}x", "/\u{301}etc",
        ])
    func escapingNames(name: String) throws {
        let folder = try ScratchFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.url.appendingPathComponent("evil.zip").path
        try ZipArchive.create(at: path, entries: [("diary.csv", Data("a".utf8)), (name, Data("b".utf8))])
        #expect(
            throws: ZipError(
                "the entry \"\(name)\" has a path that leads out of the folder it would be unpacked into: refused")
        ) { try ZipArchive(path: path) }
    }

    @Test("names with dots that stay inside are fine")
    func dotsInside() throws {
        let folder = try ScratchFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.url.appendingPathComponent("ok.zip").path
        try ZipArchive.create(at: path, entries: [("a..b.csv", Data()), ("./c.csv", Data()), ("d/...", Data())])
        #expect(try ZipArchive(path: path).entryNames == ["a..b.csv", "./c.csv", "d/..."])
    }

    @Test("a file that is not a zip, an empty file, a missing file and too many entries are errors")
    func notZip() throws {
        let folder = try ScratchFolder()
        try folder.write("diary.csv", "Date,Name\n")
        try folder.write("empty.zip", "")
        #expect(throws: ZipError("not a zip file")) {
            try ZipArchive(path: folder.url.appendingPathComponent("diary.csv").path)
        }
        #expect(throws: ZipError("not a zip file")) {
            try ZipArchive(path: folder.url.appendingPathComponent("empty.zip").path)
        }
        #expect(throws: ZipError("No such file")) {
            try ZipArchive(path: folder.url.appendingPathComponent("missing.zip").path)
        }
        let many = folder.url.appendingPathComponent("many.zip").path
        try ZipArchive.create(at: many, entries: (1...5).map { ("f\($0)", Data()) })
        #expect(throws: ZipError("the archive has 5 entries; more than 4 are refused")) {
            try ZipArchive(path: many, maxEntries: 4)
        }
    }

    @Test("two entries of one name, or a FIFO, are errors in words (libzip said File already exists)")
    func duplicatesAndFIFO() throws {
        let folder = try ScratchFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.url.appendingPathComponent("twice.zip").path
        try ZipArchive.create(at: path, entries: [("a.csv", Data("1".utf8)), ("b.csv", Data("2".utf8))])
        // The second entry renamed to the first's name, in its local header and the directory.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let other = Data("b.csv".utf8)
        while let range = bytes.range(of: other) { bytes.replaceSubrange(range, with: Data("a.csv".utf8)) }
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: ZipError("two entries of the archive have the same name")) { try ZipArchive(path: path) }
        let fifo = folder.url.appendingPathComponent("fifo.zip").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: ZipError("not a regular file: a zip archive is read from a file")) {
            try ZipArchive(path: fifo)
        }
    }

    @Test("an encrypted entry is an error in words (libzip said No password provided)")
    func encrypted() throws {
        let folder = try ScratchFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.url.appendingPathComponent("locked.zip").path
        try ZipArchive.create(at: path, entries: [("diary.csv", Data(String(repeating: "x,1\n", count: 50).utf8))])
        // The "encrypted" flag (bit 0 of the general purpose flags) set in the local header and the directory.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for (signature, offset) in [([0x50, 0x4B, 0x03, 0x04] as [UInt8], 6), ([0x50, 0x4B, 0x01, 0x02], 8)] {
            let start = try #require((0...(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == signature })
            bytes[start + offset] |= 1
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let archive = try ZipArchive(path: path)
        #expect(throws: ZipError("\"diary.csv\": the entry is encrypted: export it again without a password")) {
            try archive.read("diary.csv", limit: 1 << 20)
        }
    }

    @Test("a damaged archive is an error, not wrong bytes")
    func damaged() throws {
        let folder = try ScratchFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.url.appendingPathComponent("damaged.zip").path
        let text = Data(String(repeating: "Parasite,2019,4.5\n", count: 200).utf8)
        try ZipArchive.create(at: path, entries: [("diary.csv", text)])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Flip bytes in the middle of the deflated data (after the 30-byte local header and name).
        for offset in 45..<55 { bytes[offset] ^= 0xFF }
        try bytes.write(to: URL(fileURLWithPath: path))
        let archive = try ZipArchive(path: path)
        #expect(throws: ZipError.self) { try archive.read("diary.csv", limit: 1 << 20) }
    }
}
