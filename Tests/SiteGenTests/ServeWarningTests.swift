import Foundation
import Mustache
import Testing

@testable import SiteGen

/// `sitegen serve` prints the warnings an edit brings: an update says which files it read
/// and their warnings (as a full build finds them), and the ledger keeps what was shown.
@Suite("Warnings while serving")
struct ServeWarningTests {
    static let unknownField =
        "\"mood\" is not a field sitegen knows: templates get it as review.extra.mood; if that is meant, list it in site.yml under extra_fields"

    @Test("an update reads its files' warnings as a full build finds them, and says which files it read")
    func updateWarnings() throws {
        let folder = try ScratchFolder()
        try folder.write("site.yml", "title: Films\nbase_url: https://example.org/\n")
        try folder.write("content/movies/_index.md", "---\ntitle: Films\n---\nIntro.\n")
        try folder.write("content/movies/heat.md", "---\ntitle: Heat\ndate: 2024-02-01\n---\nA review.\n")
        try folder.write("content/movies/alien.md", "---\ntitle: Alien\ndate: 2024-01-01\n---\nA review.\n")
        try folder.write("content/about.md", "---\ntitle: About\n---\nMe.\n")
        let builder = SiteBuilder(
            options: .init(
                source: folder.url, output: folder.url.appendingPathComponent("public"), today: Day("2025-06-01")))
        let site = try LiveSite.build(builder)
        #expect(site.lastReading == LiveSite.Reading(files: nil, warnings: []))
        let fullBuildWarnings = { try LiveSite.build(builder).content.warnings.map(\.description) }

        // A field sitegen does not know: the review's warning, the one a full build gives.
        try folder.write("content/movies/heat.md", "---\ntitle: Heat\ndate: 2024-02-01\nmood: grim\n---\nA review.\n")
        let unknown = try site.updating(["content/movies/heat.md"])
        #expect(unknown.lastReading.files == ["content/movies/heat.md"])
        #expect(
            unknown.lastReading.warnings.map(\.description) == [
                "content/movies/heat.md:4:1: warning: \(Self.unknownField)"
            ])
        #expect(try fullBuildWarnings() == unknown.lastReading.warnings.map(\.description))

        // A page's own, read with every page.
        try folder.write("content/about.md", "---\ntitle: About\nmood: calm\n---\nMe.\n")
        let page = try unknown.updating(["content/about.md"])
        #expect(page.lastReading.files == ["content/about.md"])
        #expect(
            page.lastReading.warnings.map(\.description)
                == [
                    "content/about.md:3:1: warning: \"mood\" is not a field sitegen knows: templates get it as extra.mood; if that is meant, list it in site.yml under extra_fields"
                ])

        // Dated after today: left out, with a warning at its file (the build sums these up).
        try folder.write("content/movies/alien.md", "---\ntitle: Alien\ndate: 2026-01-01\n---\nA review.\n")
        let future = try page.updating(["content/movies/alien.md"])
        #expect(future.lastReading.files == ["content/movies/alien.md"])
        #expect(
            future.lastReading.warnings.map(\.description)
                == [
                    "content/movies/alien.md:1:1: warning: dated after today and left out until 2026-01-01: --future includes it"
                ])
        #expect(future.files["movies/alien/index.html"] == nil)
        #expect(
            try fullBuildWarnings().contains(
                "warning: 1 review is dated after today and left out until 2026-01-01: --future includes it"))

        // An edit that falls back to a full build: everything read, every warning.
        try folder.write("site.yml", "title: Films again\nbase_url: https://example.org/other/\n")
        let full = try future.updating(["site.yml"])
        #expect(full.lastReading.files == nil)
        #expect(full.lastReading.warnings.map(\.description) == (try fullBuildWarnings()))
    }

    @Test("a file or folder put into a section that is no review gets the build's \"ignored\" warning; fixed, none")
    func listingWarnings() throws {
        let folder = try ScratchFolder()
        try folder.write("site.yml", "title: Films\nbase_url: https://example.org/\n")
        try folder.write("content/movies/heat.md", "---\ntitle: Heat\ndate: 2024-02-01\n---\nA review.\n")
        let builder = SiteBuilder(
            options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")))
        var site = try LiveSite.build(builder)
        let fullBuildWarnings = { try LiveSite.build(builder).content.warnings.map(\.description) }
        let file = "content/movies/notes.txt:1:1: warning: ignored: only .md files belong in a section folder"
        let bundle =
            "content/movies/alien:1:1: warning: ignored: a folder in a section is a review (a page bundle) only when it holds index.md"
        let files = folder.files
        let root = folder.url
        let review = "---\ntitle: Alien\ndate: 2024-01-01\n---\nA review.\n"
        let steps: [(name: String, path: String, edit: () throws -> Void, expected: [String])] = [
            (
                "a text file dropped in", "content/movies/notes.txt",
                { try files.write("content/movies/notes.txt", "to do") }, [file]
            ),
            // A folder made before its index.md: ignored until the index comes, then a review.
            (
                "a folder without index.md", "content/movies/alien",
                {
                    try FileManager.default.createDirectory(
                        at: root.appendingPathComponent("content/movies/alien"), withIntermediateDirectories: true)
                }, [bundle]
            ),
            (
                "its index.md", "content/movies/alien/index.md",
                { try files.write("content/movies/alien/index.md", review) },
                []
            ),
            (
                "a file of the bundle", "content/movies/alien/still.txt",
                { try files.write("content/movies/alien/still.txt", "x") }, []
            ),
            (
                "the index deleted", "content/movies/alien/index.md",
                { try files.remove("content/movies/alien/index.md") },
                [bundle]
            ),
            ("the text file removed", "content/movies/notes.txt", { try files.remove("content/movies/notes.txt") }, []),
        ]
        for step in steps {
            try step.edit()
            site = try site.updating([step.path])
            #expect(site.lastReading.warnings.map(\.description) == step.expected, "\(step.name)")
            // Each warning is one a full build gives now.
            #expect(Set(step.expected).isSubset(of: Set(try fullBuildWarnings())), "\(step.name)")
        }
        // Shown once: the ledger does not print the text file's warning again for another edit.
        var ledger = WarningLedger()
        try files.write("content/movies/notes.txt", "to do")
        site = try site.updating(["content/movies/notes.txt"])
        #expect(ledger.record(site.lastReading).map(\.description) == [file])
        try files.write("content/movies/notes.txt", "to do, more")
        site = try site.updating(["content/movies/notes.txt"])
        #expect(ledger.record(site.lastReading).isEmpty)
    }

    @Test("the ledger gives the warnings not shown for their file before; one fixed and brought back is new again")
    func ledger() {
        let field = { (path: String, line: Int, note: String) in
            Diagnostic(
                "\"ratng\" is not a field sitegen knows\(note)",
                at: Mustache.SourceLocation(path: path, line: line, column: 1),
                severity: .warning, topic: .extraField("ratng"))
        }
        let uncached = { (path: String) in
            Diagnostic(
                "names TMDB movie 1 but the metadata cache has nothing for it: run sitegen fetch",
                at: Mustache.SourceLocation(path: path, line: 1, column: 1), severity: .warning,
                topic: .uncachedMetadata)
        }
        let a = "content/movies/a.md"
        let b = "content/movies/b.md"
        // The first build names an unknown field once, at its first file, saying how many have it.
        var ledger = WarningLedger([field(a, 3, " (2 files have it; this is the first)"), uncached(b)])
        let read = { (files: Set<String>?, warnings: [Diagnostic]) in LiveSite.Reading(files: files, warnings: warnings)
        }
        // a's own warning, read again: shown already.
        #expect(ledger.record(read([a], [field(a, 3, "")])).isEmpty)
        // b has the field too, never shown for b.
        #expect(ledger.record(read([b], [field(b, 4, ""), uncached(b)])) == [field(b, 4, "")])
        #expect(ledger.record(read([b], [field(b, 4, ""), uncached(b)])).isEmpty)
        // Fixed, then brought back.
        #expect(ledger.record(read([b], [])).isEmpty)
        #expect(ledger.record(read([b], [uncached(b)])) == [uncached(b)])
        // Another file's reading leaves b's alone.
        #expect(ledger.record(read([a], [])).isEmpty)
        #expect(ledger.record(read([b], [uncached(b)])).isEmpty)
        // A full build: its summaries are new once.
        let summary = Diagnostic("1 review is dated after today", severity: .warning)
        #expect(ledger.record(read(nil, [uncached(b), summary])) == [summary])
        #expect(ledger.record(read(nil, [uncached(b), summary])).isEmpty)
        #expect(ledger.record(read(nil, [field(a, 3, "")])) == [field(a, 3, "")])
    }
}
