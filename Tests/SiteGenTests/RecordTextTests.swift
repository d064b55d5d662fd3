import Foundation
import Mustache
import Testing

@testable import SiteGen

/// The output folder's record and the build manifest, read as UTF-8 bytes.
@Suite("Record and manifest text")
struct RecordTextTests {
    @Test("lines and fields are cut where String.split cuts them, empty ones kept")
    func fieldsMatchSplit() {
        var generator = SplitMix(seed: 7)
        let alphabet = Array("ab \n-0")
        for _ in 0..<2_000 {
            let text = String(
                (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let maxSplits = Int.random(in: 0...8, using: &generator)
            var copy = text
            let (lines, fields) = copy.withUTF8 { bytes in
                (RecordText.lines(bytes).map(\.text), RecordText.fields(bytes[...], maxSplits: maxSplits).map(\.text))
            }
            #expect(lines == text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), "\(text)")
            #expect(
                fields
                    == text.split(separator: " ", maxSplits: maxSplits, omittingEmptySubsequences: false).map(
                        String.init),
                "\(text) \(maxSplits)")
        }
    }

    @Test("numbers are read as Int, UInt64 and UInt64(radix: 16) read them, overflow refused")
    func numbers() {
        let texts = [
            "0", "7", "-7", "+7", "-", "+", "", "12a", " 1", "1 ", "0012", "9223372036854775807", "9223372036854775808",
            "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616", "٣",
        ]
        for text in texts {
            var copy = text
            copy.withUTF8 { bytes in
                #expect(bytes[...].int == Int(text), "\(text)")
                // The record never writes a sign before an inode.
                #expect(bytes[...].unsigned == (text.first == "+" ? nil : UInt64(text)), "\(text)")
            }
        }
        for text in ["0", "ff", "FF", "0123456789abcdef", "1123456789ABCDEF0", "fg", "", "-1", "+1"] {
            var copy = text
            copy.withUTF8 { bytes in
                let expected = text.first.map { $0 == "-" || $0 == "+" } == true ? nil : UInt64(text, radix: 16)
                #expect(bytes[...].hexadecimal == expected, "\(text)")
            }
        }
    }

    @Test("a record comes back as it was written, whatever its paths hold")
    func recordRoundTrip() throws {
        let folder = try ScratchFolder()
        let paths = [
            "index.html", "movies/기생충/index.html", "a b/c d.html", "tags/x/page/2/index.html",
            // A combining mark first: read as Swift Characters, the space before it joined it and
            // the line lost a field, so the whole record was called damaged.
            "\u{301}x/index.html", "movies/Ame\u{301}lie/index.html",
        ]
        var entries: [String: OutputRecord.Entry] = [:]
        for (number, path) in paths.enumerated() {
            entries[path] = OutputRecord.Entry(
                stamp: FileStamp(
                    size: number * 100, seconds: -5 + number, nanoseconds: 999_999_999, inode: .max - 1, changed: 12),
                hash: ContentHash(path))
        }
        let record = OutputRecord(entries: entries)
        try folder.write(OutputRecord.fileName, record.text)
        #expect(OutputRecord.read(in: folder.url.path) == .record(record))
    }

    @Test(
        "a record sitegen did not write is damaged, and the line is named",
        arguments: [
            ("sitegen-output 1\n", "not a record sitegen wrote"),
            ("sitegen-output 2", "not a record sitegen wrote"),
            ("sitegen-output 2\n\(ContentHash("a")) 1 2 3 4 5 a.html", "not a record sitegen wrote"),
            (
                "sitegen-output 2\n\(ContentHash("a")) 1 2 3 4 5 a.html\nx 1 2 3 4 5 b.html\n",
                "line 3 is not what sitegen writes"
            ),
            ("sitegen-output 2\n\(ContentHash("a")) 1 2 3 -4 5 a.html\n", "line 2 is not what sitegen writes"),
            ("sitegen-output 2\n\(ContentHash("a")) 1 2 3 4 5 \n", "line 2 is not what sitegen writes"),
            ("sitegen-output 2\n\(ContentHash("a")) 1 2 3 4 a.html\n", "line 2 is not what sitegen writes"),
            (
                "sitegen-output 2\n\(ContentHash("a")) 1 2 3 4 5 a.html\n\(ContentHash("b")) 1 2 3 4 5 a.html\n",
                "line 3 is not what sitegen writes"
            ),
            ("sitegen-output 2\n\n", "line 2 is not what sitegen writes"),
        ])
    func damagedRecord(text: String, reason: String) throws {
        let folder = try ScratchFolder()
        try folder.write(OutputRecord.fileName, text)
        #expect(OutputRecord.read(in: folder.url.path) == .damaged(reason))
    }

    @Test("a manifest comes back as it was written; a damaged one is not read")
    func manifestRoundTrip() throws {
        let folder = try ScratchFolder()
        let url = folder.url.appendingPathComponent(".sitegen/build-x.manifest")
        let manifest = BuildManifest(
            identity: "abc",
            inputs: [
                "site.yml": .init(
                    stamp: FileStamp(size: 10, seconds: 1, nanoseconds: 2, inode: 3, changed: 4), hash: nil),
                "content/": .init(stamp: FileStamp(size: -1, seconds: 0, nanoseconds: 0, inode: 0), hash: nil),
                "content/movies/\u{301}a b.md": .init(
                    stamp: FileStamp(size: 5, seconds: 6, nanoseconds: 7, inode: 8, changed: 9), hash: ContentHash("x")),
            ], output: ContentHash("record"), pages: 3, files: 4,
            warnings: [
                Diagnostic(
                    "no metadata", at: Mustache.SourceLocation(path: "content/movies/a b.md", line: 2, column: 3),
                    severity: .warning,
                    topic: .uncachedMetadata)
            ], nextPublication: Day("2030-01-02"), newestPublication: Day("2020-03-04"))
        try manifest.write(to: url)
        #expect(BuildManifest.read(url) == manifest)
        let text = try String(contentsOf: url, encoding: .utf8)
        for damaged in [
            text.replacingOccurrences(of: "report 3 4", with: "report 3"),
            text.replacingOccurrences(of: "published 2020-03-04", with: "published 2020-13-04"),
            text.replacingOccurrences(of: " 5 6 7 8 9 ", with: " 5 6 7 8 "),
            text.replacingOccurrences(of: "\nwarning ", with: "\nwarned "),
            text + "zz 1 2 3 4 5 x\n",
            String(text.dropLast()),
        ] {
            try damaged.write(to: url, atomically: true, encoding: .utf8)
            #expect(BuildManifest.read(url) == nil, "\(damaged)")
        }
    }

    @Test("a record's bytes are the same with the paths a build sorted, with wrong ones, and with none")
    func recordWithSortedPaths() {
        let entry = { (size: Int) in
            OutputRecord.Entry(
                stamp: FileStamp(size: size, seconds: 1, nanoseconds: 2, inode: 3, changed: 4),
                hash: ContentHash("\(size)"))
        }
        let record = OutputRecord(entries: ["b/index.html": entry(1), "a.css": entry(2), "é/index.html": entry(3)])
        let expected = Data(
            (OutputRecord.header + "\n"
                + ["a.css": 2, "b/index.html": 1, "é/index.html": 3].sorted { $0.key < $1.key }
                .map { "\(ContentHash("\($0.value)")) \($0.value) 1 2 3 4 \($0.key)\n" }.joined()).utf8)
        #expect(record.bytes(sortedPaths: nil) == expected)
        #expect(record.text == String(decoding: expected, as: UTF8.self))
        for paths in [
            ["a.css", "b/index.html", "é/index.html"],
            ["b/index.html", "a.css", "é/index.html"],  // not sorted
            ["a.css", "b/index.html", "x.html"],  // another path
            ["a.css", "a.css", "b/index.html"],  // one twice
            ["a.css", "b/index.html"],  // one missing
            ["a.css", "b/index.html", "c.html", "é/index.html"],  // one more
        ] {
            #expect(record.bytes(sortedPaths: paths) == expected, "\(paths)")
        }
    }

    @Test("a manifest written with the inputs prepared while the site built is the one written without")
    func manifestWithPreparedInputs() throws {
        let started = Date(timeIntervalSince1970: 1_000_000)
        let old = FileStamp(size: 5, seconds: 900_000, nanoseconds: 7, inode: 8, changed: 900_000_000_000_000)
        let stamps: BuildManifest.Stamps = [
            ("site.yml", old),
            ("content/", FileStamp(size: -1, seconds: 0, nanoseconds: 0, inode: 0)),
            ("content/movies/b.md", FileStamp(size: 6, seconds: 999_999, nanoseconds: 0, inode: 9, changed: 0)),
            (
                "content/movies/a.md",
                FileStamp(size: 7, seconds: 1, nanoseconds: 0, inode: 10, changed: 999_999_500_000_000)
            ),
            ("static/x.txt", old),
        ]
        let prepared = BuildManifest.PreparedInputs(stamps, started: started)
        // Changed within a second before the start, by its modification or its status time.
        #expect(prepared.recent == ["content/movies/a.md", "content/movies/b.md"])
        #expect(prepared.paths == stamps.map(\.path).sorted())
        #expect(prepared.inputs.values.allSatisfy { $0.hash == nil })

        let folder = try ScratchFolder()
        var inputs = prepared.inputs
        inputs["content/movies/a.md"] = .init(stamp: inputs["content/movies/a.md"]!.stamp, hash: ContentHash("a"))
        for inputs in [prepared.inputs, inputs] {
            let manifest = BuildManifest(
                identity: "abc", inputs: inputs, output: ContentHash("record"), pages: 1, files: 2, warnings: [])
            let with = folder.url.appendingPathComponent("with.manifest")
            let without = folder.url.appendingPathComponent("without.manifest")
            try manifest.write(to: with, prepared: prepared)
            try manifest.write(to: without)
            #expect(try Data(contentsOf: with) == Data(contentsOf: without))
            #expect(BuildManifest.read(with) == manifest)
        }
        // Prepared from other stamps: its lines are not used.
        var other = stamps
        other[0].stamp = FileStamp(size: 50, seconds: 1, nanoseconds: 2, inode: 3, changed: 4)
        let manifest = BuildManifest(
            identity: "abc", inputs: prepared.inputs, output: ContentHash("record"), pages: 1, files: 2, warnings: [])
        let url = folder.url.appendingPathComponent("other.manifest")
        try manifest.write(to: url, prepared: BuildManifest.PreparedInputs(other, started: started))
        #expect(BuildManifest.read(url) == manifest)
    }

    @Test("records and manifests are read up to their limit, and one byte more is refused")
    func sizeLimits() throws {
        let folder = try ScratchFolder()
        let record = OutputRecord(entries: [
            "index.html": .init(
                stamp: FileStamp(size: 1, seconds: 2, nanoseconds: 3, inode: 4, changed: 5), hash: ContentHash("a"))
        ])
        try folder.write(OutputRecord.fileName, record.text)
        let recordSize = record.text.utf8.count
        #expect(OutputRecord.read(in: folder.url.path, limit: recordSize) == .record(record))
        #expect(
            OutputRecord.read(in: folder.url.path, limit: recordSize - 1)
                == .damaged("the file is \(recordSize) bytes; files over 0 MiB are refused here"))

        let url = folder.url.appendingPathComponent("build-x.manifest")
        let manifest = BuildManifest(
            identity: "abc", inputs: [:], output: ContentHash("record"), pages: 1, files: 1, warnings: [])
        try manifest.write(to: url)
        let manifestSize = try Data(contentsOf: url).count
        #expect(BuildManifest.read(url, limit: manifestSize) == manifest)
        #expect(BuildManifest.read(url, limit: manifestSize - 1) == nil)
    }

    @Test("a record or manifest grown past any real one (4 GiB, sparse) is refused unread")
    func hugeFilesRefused() throws {
        let folder = try ScratchFolder()
        let big = 4 << 30
        let manifestURL = folder.url.appendingPathComponent("build-x.manifest")
        for name in [OutputRecord.fileName, manifestURL.lastPathComponent] {
            try folder.write(name, "sitegen")
            #expect(truncate(folder.url.appendingPathComponent(name).path, big) == 0)
        }
        #expect(
            OutputRecord.read(in: folder.url.path)
                == .damaged("the file is \(big) bytes; files over 1024 MiB are refused here"))
        #expect(BuildManifest.read(manifestURL) == nil)
    }
}
