import Foundation
import SiteGenCLI
import Testing
import Zip

/// `sitegen import letterboxd` end to end: a real export zip made in the test, the files
/// written byte for byte, the summary, importing again after edits, and the site building.
@Suite("sitegen import letterboxd")
struct ImportLetterboxdTests {
    @Test("a Letterboxd zip becomes review files; importing again keeps edits, adds, updates and takes over drafts")
    func importAndReimport() async throws {
        let site = try TemporaryFolder(ImportFixtures.site)
        try ImportFixtures.zip(ImportFixtures.letterboxd, to: site.url.appendingPathComponent("letterboxd-ana.zip"))
        let console = TestConsole()
        #expect(await console.run(["import", "letterboxd", "letterboxd-ana.zip"], in: site.url) == 0)
        #expect(console.err == "")
        #expect(
            console.out == """
                Importing letterboxd-ana.zip into content/movies/.
                created content/movies/the-thing-1982.md (draft: rated, never logged)
                skipped "Heat" (1995), letterboxd-ana.zip/reviews.csv:5: already reviewed in content/movies/heat.md, which has no import id
                created content/movies/parasite-2019.md
                created content/movies/헤어질-결심-2022.md
                created content/movies/dune-part-two-2024-2.md
                created content/movies/parasite-2019-2.md
                created content/movies/crouching-tiger-hidden-dragon-2000-2.md
                created content/movies/yes-2021.md
                Created 7 (1 draft), updated 0, unchanged 0, skipped 1 (1 already reviewed).

                """)
        let content = try files(site.url.appendingPathComponent("content"))
        var expected = ImportFixtures.site.filter { $0.key.hasPrefix("content/") }
            .reduce(into: [:]) { $0[String($1.key.dropFirst("content/".count))] = $1.value }
        for (name, text) in ImportFixtures.importedFilms { expected["movies/\(name)"] = text }
        #expect(content.keys.sorted() == expected.keys.sorted())
        for (path, text) in expected { #expect(content[path] == text, "\(path)") }

        let build = TestConsole()
        #expect(await build.run(["build"], in: site.url) == 0, "\(build.err)")
        #expect(build.err.split(separator: "\n").allSatisfy { $0.contains("but the metadata cache has nothing for it") }, "\(build.err)")
        let page = try String(contentsOf: site.url.appendingPathComponent("public/movies/parasite-2019/index.html"), encoding: .utf8)
        #expect(page.contains("<p>The <em>stairs</em> do the work.</p>"))
        #expect(page.contains("the rain &amp; the flood are the same water.<br />\nA line of its own.</p>"))
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public/movies/the-thing-1982").path))

        // The same export again: nothing to do.
        let again = TestConsole()
        #expect(await again.run(["import", "letterboxd", "letterboxd-ana.zip"], in: site.url) == 0)
        #expect(
            again.out == """
                Importing letterboxd-ana.zip into content/movies/.
                skipped "Heat" (1995), letterboxd-ana.zip/reviews.csv:5: already reviewed in content/movies/heat.md, which has no import id
                Created 0, updated 0, unchanged 7, skipped 1 (1 already reviewed).

                """)

        // The user edits one review and deletes another; a later export has a new film, a
        // changed rating, changed review text, and a diary entry for the film rated only.
        let edited = ImportFixtures.importedFilms["parasite-2019.md"]! + "\nMy own note, added later.\n"
        try site.write("content/movies/parasite-2019.md", edited)
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/movies/yes-2021.md"))
        try ImportFixtures.zip(ImportFixtures.letterboxdLater, to: site.url.appendingPathComponent("letterboxd-ana-2.zip"))
        let later = TestConsole()
        #expect(await later.run(["import", "letterboxd", "letterboxd-ana-2.zip"], in: site.url) == 0)
        #expect(later.err == "")
        #expect(
            later.out == """
                Importing letterboxd-ana-2.zip into content/movies/.
                skipped "Heat" (1995), letterboxd-ana-2.zip/reviews.csv:5: already reviewed in content/movies/heat.md, which has no import id
                skipped content/movies/parasite-2019.md: edited since it was imported
                updated content/movies/dune-part-two-2024-2.md
                skipped content/movies/yes-2021.md: deleted since it was imported
                created content/movies/past-lives-2023.md
                updated content/movies/the-thing-1982.md
                Created 1, updated 2, unchanged 3, skipped 3 (1 already reviewed, 1 edited since import, 1 deleted since import).

                """)
        let movies = try files(site.url.appendingPathComponent("content/movies"))
        #expect(movies["parasite-2019.md"] == edited)
        #expect(movies["yes-2021.md"] == nil)
        #expect(movies["dune-part-two-2024-2.md"] == ImportFixtures.importedFilms["dune-part-two-2024-2.md"]!.replacingOccurrences(of: "rating: 3.5", with: "rating: 4"))
        #expect(
            movies["past-lives-2023.md"] == """
                ---
                title: Past Lives
                date: 2024-07-09
                rating: 4.5
                tags: [korea, new york]
                year: 2023
                letterboxd: https://boxd.it/8pL1vS
                ---
                In-yun.

                """)
        #expect(
            movies["the-thing-1982.md"] == """
                ---
                title: The Thing
                date: 2024-07-11
                rating: 4.5
                year: 1982
                letterboxd: https://boxd.it/9tH1nG
                ---
                *Trust* no one.

                """)
        let record = try JSONSerialization.jsonObject(
            with: Data(contentsOf: site.url.appendingPathComponent(".sitegen/imports/letterboxd-movies.json")))
        let records = try #require((record as? [String: Any])?["records"] as? [String: Any])
        #expect(
            records.keys.sorted() == [
                "https://boxd.it/4hR2pQ", "https://boxd.it/5Mqk1B", "https://boxd.it/5TVeRd", "https://boxd.it/6bWfSe",
                "https://boxd.it/6zYzUm", "https://boxd.it/7aB3cD", "https://boxd.it/8pL1vS", "https://boxd.it/9tH1nG",
            ])

        // A dry run shows the same decisions and changes nothing.
        let before = try files(site.url)
        let dry = TestConsole()
        #expect(await dry.run(["import", "letterboxd", "letterboxd-ana-2.zip", "--dry-run"], in: site.url) == 0)
        #expect(
            dry.out == """
                Importing letterboxd-ana-2.zip into content/movies/ (dry run: nothing is written).
                would skip "Heat" (1995), letterboxd-ana-2.zip/reviews.csv:5: already reviewed in content/movies/heat.md, which has no import id
                would skip content/movies/parasite-2019.md: edited since it was imported
                would skip content/movies/yes-2021.md: deleted since it was imported
                Would create 0, update 0; 6 unchanged, 3 skipped (1 already reviewed, 1 edited since import, 1 deleted since import). Nothing was written (--dry-run).

                """)
        #expect(try files(site.url) == before)
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
    }

    @Test("a dry run of a first import writes nothing at all")
    func dryRunFirst() async throws {
        let site = try TemporaryFolder(ImportFixtures.site)
        try ImportFixtures.write(ImportFixtures.letterboxd, into: site.url.appendingPathComponent("export"))
        let before = try files(site.url)
        let console = TestConsole()
        #expect(await console.run(["import", "letterboxd", "export", "--dry-run"], in: site.url) == 0)
        #expect(console.out.contains("would create content/movies/parasite-2019.md\n"))
        #expect(console.out.hasSuffix("Would create 7 (1 draft), update 0; 0 unchanged, 1 skipped (1 already reviewed). Nothing was written (--dry-run).\n"))
        #expect(try files(site.url) == before)
    }

    @Test("the unzipped folder, --section and --source: the same files; a fresh clone without the record keeps what differs")
    func folderAndSection() async throws {
        var fixture = ImportFixtures.site
        fixture = fixture.filter { !$0.key.hasPrefix("content/movies/") }
        fixture["content/cinema/_index.md"] = "---\ntitle: Cinema\nkind: movie\n---\n"
        let site = try TemporaryFolder(fixture)
        let work = try TemporaryFolder()
        try ImportFixtures.write(ImportFixtures.letterboxd, into: work.url.appendingPathComponent("letterboxd-ana-2024-07-05-utc"))
        let console = TestConsole()
        #expect(
            await console.run(
                ["import", "letterboxd", "letterboxd-ana-2024-07-05-utc", "--source", site.url.path], in: work.url) == 0,
            "\(console.err)")
        // The site's only film section is the default.
        #expect(console.out.hasPrefix("Importing letterboxd-ana-2024-07-05-utc into content/cinema/.\n"))
        let cinema = try files(site.url.appendingPathComponent("content/cinema"))
        #expect(cinema["heat-1995.md"]?.hasPrefix("---\ntitle: Heat\ndate: 2024-02-11\nrating: 4.5\nyear: 1995\n") == true)
        #expect(cinema["parasite-2019.md"] == ImportFixtures.importedFilms["parasite-2019.md"])
        #expect(cinema["dune-part-two-2024.md"] == ImportFixtures.importedFilms["dune-part-two-2024-2.md"])

        // Without the record (it is not in git), an identical file is unchanged and a
        // differing one is left alone.
        try FileManager.default.removeItem(at: site.url.appendingPathComponent(".sitegen"))
        try site.write("content/cinema/heat-1995.md", cinema["heat-1995.md"]! + "Edited.\n")
        let clone = TestConsole()
        #expect(
            await clone.run(
                ["import", "letterboxd", "letterboxd-ana-2024-07-05-utc", "--source", site.url.path, "--section", "cinema"],
                in: work.url) == 0)
        #expect(
            clone.out == """
                Importing letterboxd-ana-2024-07-05-utc into content/cinema/.
                skipped content/cinema/heat-1995.md: differs from the export, and this site has no record of importing it (an edit, or an import on another machine)
                Created 0, updated 0, unchanged 7, skipped 1 (1 not imported here).

                """)
    }

    @Test("a zip that nests the export in one folder is read too")
    func nestedZip() async throws {
        let site = try TemporaryFolder(ImportFixtures.site)
        let entries = ImportFixtures.letterboxd.map { (name: "letterboxd-ana/\($0.key)", bytes: $0.value) }
        try ZipArchive.create(at: site.url.appendingPathComponent("nested.zip").path, entries: entries)
        let console = TestConsole()
        #expect(await console.run(["import", "letterboxd", "nested.zip"], in: site.url) == 0, "\(console.err)")
        #expect(console.out.contains("nested.zip/letterboxd-ana/reviews.csv:5: already reviewed"))
        #expect(try files(site.url.appendingPathComponent("content/movies"))["parasite-2019.md"] == ImportFixtures.importedFilms["parasite-2019.md"])
    }
}

/// Files below `folder` (hidden ones too), by relative path, as text.
func files(_ folder: URL) throws -> [String: String] {
    var result: [String: String] = [:]
    guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
        return result
    }
    let base = folder.standardizedFileURL.path + "/"
    for case let url as URL in walker where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
        let path = String(url.standardizedFileURL.path.dropFirst(base.count))
        result[path] = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }
    return result
}
