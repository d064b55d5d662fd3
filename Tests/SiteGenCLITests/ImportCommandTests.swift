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
        #expect(
            build.err.split(separator: "\n").allSatisfy { $0.contains("with nothing in the metadata cache") },
            "\(build.err)")
        let page = try String(
            contentsOf: site.url.appendingPathComponent("public/movies/parasite-2019/index.html"), encoding: .utf8)
        #expect(page.contains("<p>The <em>stairs</em> do the work.</p>"))
        #expect(page.contains("the rain &amp; the flood are the same water.<br />\nA line of its own.</p>"))
        #expect(
            !FileManager.default.fileExists(
                atPath: site.url.appendingPathComponent("public/movies/the-thing-1982").path))

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
        try ImportFixtures.zip(
            ImportFixtures.letterboxdLater, to: site.url.appendingPathComponent("letterboxd-ana-2.zip"))
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
        #expect(
            movies["dune-part-two-2024-2.md"]
                == ImportFixtures.importedFilms["dune-part-two-2024-2.md"]!.replacingOccurrences(
                    of: "rating: 3.5", with: "rating: 4"))
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

    @Test("a damaged record of earlier imports stops the import: it is kept, and no deleted review comes back")
    func damagedRecord() async throws {
        let scratch = try TemporaryFolder(["victim.md": "mine\n"])
        let site = scratch.url.appendingPathComponent("site")
        for (path, data) in ImportFixtures.site {
            let url = site.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(data.utf8).write(to: url)
        }
        try ImportFixtures.zip(ImportFixtures.letterboxd, to: site.appendingPathComponent("export.zip"))
        #expect(await TestConsole().run(["import", "letterboxd", "export.zip"], in: site) == 0)
        // A review deleted since it was imported.
        try FileManager.default.removeItem(at: site.appendingPathComponent("content/movies/yes-2021.md"))
        let recordURL = site.appendingPathComponent(".sitegen/imports/letterboxd-movies.json")
        let record = try String(contentsOf: recordURL, encoding: .utf8)
        let advice =
            ": fix it, or remove it to import as if for the first time (files it lists then count as not imported "
            + "here, and reviews deleted since they were imported are made again)\n"
        let tampered = record.replacingOccurrences(of: "content/movies/parasite-2019.md", with: "../victim.md")
        #expect(tampered != record)
        for (damaged, message) in [
            (
                tampered,
                "the record of earlier imports names ../victim.md, which is not a file in content/"
            ),
            (String(record.prefix(100)), "the record of earlier imports cannot be read ("),
        ] {
            try damaged.write(to: recordURL, atomically: true, encoding: .utf8)
            for arguments in [
                ["import", "letterboxd", "export.zip"], ["import", "letterboxd", "export.zip", "--dry-run"],
            ] {
                let console = TestConsole()
                #expect(await console.run(arguments, in: site) == 1)
                #expect(
                    console.err.hasPrefix(".sitegen/imports/letterboxd-movies.json: " + message), "\(console.err)")
                #expect(console.err.contains(advice), "\(console.err)")
                #expect(!console.out.contains("victim"), "\(console.out)")
                #expect(try String(contentsOf: recordURL, encoding: .utf8) == damaged)
                #expect(
                    !FileManager.default.fileExists(
                        atPath: site.appendingPathComponent("content/movies/yes-2021.md").path))
            }
        }
        #expect(try String(contentsOf: scratch.url.appendingPathComponent("victim.md"), encoding: .utf8) == "mine\n")
        // With the record as it was, the deleted review stays deleted.
        try record.write(to: recordURL, atomically: true, encoding: .utf8)
        let console = TestConsole()
        #expect(await console.run(["import", "letterboxd", "export.zip"], in: site) == 0)
        #expect(console.out.contains("skipped content/movies/yes-2021.md"), "\(console.out)")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("content/movies/yes-2021.md").path))
    }

    @Test("a review moved into a page bundle is still the imported one; a deleted one's name is not given again")
    func bundlesAndDeletedNames() async throws {
        let site = try TemporaryFolder(ImportFixtures.site)
        try ImportFixtures.zip(ImportFixtures.letterboxd, to: site.url.appendingPathComponent("export.zip"))
        #expect(await TestConsole().run(["import", "letterboxd", "export.zip"], in: site.url) == 0)
        let movies = site.url.appendingPathComponent("content/movies")
        // Moved into a folder beside its poster, and the record lost (a fresh clone).
        try FileManager.default.createDirectory(
            at: movies.appendingPathComponent("yes-2021"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: movies.appendingPathComponent("yes-2021.md"), to: movies.appendingPathComponent("yes-2021/index.md"))
        try FileManager.default.removeItem(at: site.url.appendingPathComponent(".sitegen"))
        let again = TestConsole()
        #expect(await again.run(["import", "letterboxd", "export.zip"], in: site.url) == 0)
        #expect(!again.out.contains("created"), "\(again.out)")
        #expect(!FileManager.default.fileExists(atPath: movies.appendingPathComponent("yes-2021-2.md").path))
        #expect(again.out.contains("Created 0"), "\(again.out)")

        // A new entry of a film whose imported file was deleted takes another name: the record
        // keeps the deleted file's, and both entries sharing it would be told apart no more.
        try FileManager.default.removeItem(at: movies.appendingPathComponent("헤어질-결심-2022.md"))
        var later = ImportFixtures.letterboxd
        let rewatch = "2024-08-01,헤어질 결심,2022,https://boxd.it/9zZz9Z,5,Yes,,2024-07-31"
        later["diary.csv"] = Data(
            ([ImportFixtures.diaryHeader] + ImportFixtures.diaryRows + [rewatch]).map { $0 + "\n" }.joined().utf8)
        try ImportFixtures.zip(later, to: site.url.appendingPathComponent("later.zip"))
        let third = TestConsole()
        #expect(await third.run(["import", "letterboxd", "later.zip"], in: site.url) == 0)
        #expect(third.out.contains("skipped content/movies/헤어질-결심-2022.md"), "\(third.out)")
        #expect(third.out.contains("created content/movies/헤어질-결심-2022-2.md\n"), "\(third.out)")
        #expect(!FileManager.default.fileExists(atPath: movies.appendingPathComponent("헤어질-결심-2022.md").path))
    }

    @Test("a dry run of a first import writes nothing at all")
    func dryRunFirst() async throws {
        let site = try TemporaryFolder(ImportFixtures.site)
        try ImportFixtures.write(ImportFixtures.letterboxd, into: site.url.appendingPathComponent("export"))
        let before = try files(site.url)
        let console = TestConsole()
        #expect(await console.run(["import", "letterboxd", "export", "--dry-run"], in: site.url) == 0)
        #expect(console.out.contains("would create content/movies/parasite-2019.md\n"))
        #expect(
            console.out.hasSuffix(
                "Would create 7 (1 draft), update 0; 0 unchanged, 1 skipped (1 already reviewed). Nothing was written (--dry-run).\n"
            ))
        #expect(try files(site.url) == before)
    }

    @Test(
        "the unzipped folder, --section and --source: the same files; a fresh clone without the record keeps what differs"
    )
    func folderAndSection() async throws {
        var fixture = ImportFixtures.site
        fixture = fixture.filter { !$0.key.hasPrefix("content/movies/") }
        fixture["content/cinema/_index.md"] = "---\ntitle: Cinema\nkind: movie\n---\n"
        let site = try TemporaryFolder(fixture)
        let work = try TemporaryFolder()
        try ImportFixtures.write(
            ImportFixtures.letterboxd, into: work.url.appendingPathComponent("letterboxd-ana-2024-07-05-utc"))
        let console = TestConsole()
        #expect(
            await console.run(
                ["import", "letterboxd", "letterboxd-ana-2024-07-05-utc", "--source", site.url.path], in: work.url)
                == 0,
            "\(console.err)")
        // The site's only film section is the default.
        #expect(console.out.hasPrefix("Importing letterboxd-ana-2024-07-05-utc into content/cinema/.\n"))
        let cinema = try files(site.url.appendingPathComponent("content/cinema"))
        #expect(
            cinema["heat-1995.md"]?.hasPrefix("---\ntitle: Heat\ndate: 2024-02-11\nrating: 4.5\nyear: 1995\n") == true)
        #expect(cinema["parasite-2019.md"] == ImportFixtures.importedFilms["parasite-2019.md"])
        #expect(cinema["dune-part-two-2024.md"] == ImportFixtures.importedFilms["dune-part-two-2024-2.md"])

        // Without the record (it is not in git), an identical file is unchanged and a
        // differing one is left alone.
        try FileManager.default.removeItem(at: site.url.appendingPathComponent(".sitegen"))
        try site.write("content/cinema/heat-1995.md", cinema["heat-1995.md"]! + "Edited.\n")
        let clone = TestConsole()
        #expect(
            await clone.run(
                [
                    "import", "letterboxd", "letterboxd-ana-2024-07-05-utc", "--source", site.url.path, "--section",
                    "cinema",
                ],
                in: work.url) == 0)
        #expect(
            clone.out == """
                Importing letterboxd-ana-2024-07-05-utc into content/cinema/.
                skipped content/cinema/heat-1995.md: differs from the export, and this site has no record of importing it (an edit, or an import on another machine)
                Created 0, updated 0, unchanged 7, skipped 1 (1 not imported here).

                """)
    }

    @Test("a zip that nests the export in one folder (zipped again on a Mac) is read too")
    func nestedZip() async throws {
        let site = try TemporaryFolder(ImportFixtures.site)
        // As a Mac zips a folder: the folder's entry, its files, and resource forks in __MACOSX.
        let entries =
            [(name: "letterboxd-ana/", bytes: Data())]
            + ImportFixtures.letterboxd.sorted { $0.key < $1.key }.map {
                (name: "letterboxd-ana/\($0.key)", bytes: $0.value)
            }
            + [
                (name: "__MACOSX/letterboxd-ana/._diary.csv", bytes: Data([0, 5, 22, 7])),
                (name: ".DS_Store", bytes: Data()),
            ]
        try ZipArchive.create(at: site.url.appendingPathComponent("nested.zip").path, entries: entries)
        let console = TestConsole()
        #expect(await console.run(["import", "letterboxd", "nested.zip"], in: site.url) == 0, "\(console.err)")
        #expect(console.out.contains("nested.zip/letterboxd-ana/reviews.csv:5: already reviewed"))
        #expect(
            try files(site.url.appendingPathComponent("content/movies"))["parasite-2019.md"]
                == ImportFixtures.importedFilms["parasite-2019.md"])
    }
}

extension ImportLetterboxdTests {
    @Test(
        "a tag written another way than the site or an earlier entry writes it (C++, c plus plus) is written their way")
    func tagSpellings() async throws {
        let rows = [
            "2024-03-11,Ran,1985,https://boxd.it/h,4,,\"C++, crime\",2024-03-11",
            "2024-03-12,Alien,1979,https://boxd.it/a,4,,\"c plus plus, R&B, space\",2024-03-12",
            "2024-03-13,Tron,1982,https://boxd.it/t,4,,\"r and b, Space\",2024-03-13",
        ]
        let site = try site(
            diary: rows,
            with: [
                "content/books/notes.md": "---\ntitle: Notes\ndate: 2024-01-01\ntags: [Crime, sci-fi]\n---\nNotes.\n"
            ])
        let console = TestConsole()
        #expect(await console.run(["import", "letterboxd", "export"], in: site.url) == 0, "\(console.err)")
        let movies = try files(site.url.appendingPathComponent("content/movies"))
        #expect(movies["ran-1985.md"]?.contains("tags: [C++, Crime]\n") == true, "\(movies["ran-1985.md"] ?? "")")
        #expect(movies["alien-1979.md"]?.contains("tags: [C++, R&B, space]\n") == true)
        #expect(movies["tron-1982.md"]?.contains("tags: [R&B, space]\n") == true)
        let build = TestConsole()
        #expect(await build.run(["build"], in: site.url) == 0, "\(build.err)")
        // Importing again changes nothing.
        let again = TestConsole()
        #expect(await again.run(["import", "letterboxd", "export"], in: site.url) == 0)
        #expect(again.out.contains("Created 0, updated 0, unchanged 3"), "\(again.out)")
    }

    @Test("entries of one title get -2, -3… in date order, past numbers other files take")
    func oneTitleManyTimes() async throws {
        let rows = (1...6).map { "2024-03-1\($0),Alien,1979,https://boxd.it/a\($0),4,,,2024-03-1\($0)" }
        let site = try site(
            diary: rows,
            with: [
                "content/movies/notes.md": "---\ntitle: Notes\ndate: 2024-01-01\nslug: alien-1979-3\n---\nNotes.\n",
                "content/movies/alien-1979-5.md": "---\ntitle: Aliens\ndate: 2024-01-02\n---\nA sequel.\n",
            ])
        let console = TestConsole()
        #expect(await console.run(["import", "letterboxd", "export"], in: site.url) == 0)
        #expect(
            console.out == """
                Importing export into content/movies/.
                created content/movies/alien-1979.md
                created content/movies/alien-1979-2.md
                created content/movies/alien-1979-4.md
                created content/movies/alien-1979-6.md
                created content/movies/alien-1979-7.md
                created content/movies/alien-1979-8.md
                Created 6, updated 0, unchanged 0, skipped 0.

                """)
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
    }

    @Test("an entry listed twice is imported once; a title with no letters (or only emoji) still gets a file")
    func listedTwice() async throws {
        let rows = [
            "2024-03-16,Parasite,2019,https://boxd.it/5TVeRd,4.5,,,2024-03-15",
            "2024-03-16,Parasite,2019,https://boxd.it/5TVeRd,4.5,,,2024-03-15",
            "2024-03-17,?!,,https://boxd.it/q,3,,,",
            "2024-03-18,🎬🍿,,https://boxd.it/r,3,,,",
        ]
        let site = try site(diary: rows)
        let console = TestConsole()
        #expect(await console.run(["import", "letterboxd", "export"], in: site.url) == 0)
        #expect(
            console.out == """
                Importing export into content/movies/.
                created content/movies/parasite-2019.md
                skipped "Parasite" (2019), export/diary.csv:3: listed twice in the export (first at export/diary.csv:2)
                created content/movies/film.md
                created content/movies/film-2.md
                Created 3, updated 0, unchanged 0, skipped 1 (1 listed twice).

                """)
        let written = try files(site.url.appendingPathComponent("content/movies"))
        #expect(written["film.md"]?.hasPrefix("---\ntitle: ?!\n") == true)
        // Emoji are written as themselves, not as libyaml's \U escapes.
        #expect(written["film-2.md"]?.hasPrefix("---\ntitle: 🎬🍿\n") == true, "\(written["film-2.md"] ?? "")")
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
    }
}

/// The fixture site with `export/diary.csv` holding `rows` under the diary's header, and `files`.
func site(diary rows: [String], with files: [String: String] = [:]) throws -> TemporaryFolder {
    try TemporaryFolder(
        ImportFixtures.site.merging(
            files.merging(["export/diary.csv": ([ImportFixtures.diaryHeader] + rows).map { $0 + "\n" }.joined()]) {
                $1
            }
        ) { $1 })
}

/// Files below `folder` (hidden ones too), by relative path, as text.
func files(_ folder: URL) throws -> [String: String] {
    var result: [String: String] = [:]
    guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
    else {
        return result
    }
    let base = folder.standardizedFileURL.path + "/"
    for case let url as URL in walker where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
        let path = String(url.standardizedFileURL.path.dropFirst(base.count))
        result[path] = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }
    return result
}

/// `sitegen import goodreads` end to end: the library export's quirks (`="…"` ISBNs, `0` for
/// unrated, `<br/>`, shelves), the read shelf by default and others on request.
@Suite("sitegen import goodreads")
struct ImportGoodreadsTests {
    @Test("books read become reviews; other shelves are skipped and counted; private notes stay out")
    func readShelf() async throws {
        let site = try TemporaryFolder(
            ImportFixtures.site.merging(["goodreads_library_export.csv": ImportFixtures.goodreads]) { $1 })
        let console = TestConsole()
        #expect(await console.run(["import", "goodreads", "goodreads_library_export.csv"], in: site.url) == 0)
        #expect(console.err == "")
        #expect(
            console.out == """
                Importing goodreads_library_export.csv into content/books/.
                skipped "Stoner", goodreads_library_export.csv:7: already reviewed in content/books/stoner.md, which has no import id
                created content/books/the-iliad.md
                created content/books/the-underground-railroad.md
                created content/books/채식주의자.md
                skipped 1 book on the to-read shelf (--shelf to-read imports it as a draft)
                skipped 1 book on the currently-reading shelf (--shelf currently-reading imports it as a draft)
                Created 3, updated 0, unchanged 0, skipped 3 (1 already reviewed, 1 on the to-read shelf, 1 on the currently-reading shelf).

                """)
        let books = try files(site.url.appendingPathComponent("content/books"))
        #expect(books.keys.sorted() == (ImportFixtures.importedBooks.keys + ["stoner.md"]).sorted())
        for (name, text) in ImportFixtures.importedBooks { #expect(books[name] == text, "\(name)") }
        #expect(!books.values.contains { $0.contains("Borrowed from Sam") })
        let build = TestConsole()
        #expect(await build.run(["build"], in: site.url) == 0, "\(build.err)")
        let page = try String(
            contentsOf: site.url.appendingPathComponent("public/books/채식주의자/index.html"), encoding: .utf8)
        #expect(page.contains("<p><strong>몸</strong>의 이야기.</p>"))

        // Asking for the to-read shelf too adds that book as a draft and leaves the rest.
        let more = TestConsole()
        #expect(
            await more.run(
                ["import", "goodreads", "goodreads_library_export.csv", "--shelf", "read", "--shelf", "to-read"],
                in: site.url) == 0)
        #expect(
            more.out == """
                Importing goodreads_library_export.csv into content/books/.
                skipped "Stoner", goodreads_library_export.csv:7: already reviewed in content/books/stoner.md, which has no import id
                created content/books/the-hunger-games.md (draft: on the to-read shelf)
                skipped 1 book on the currently-reading shelf (--shelf currently-reading imports it as a draft)
                Created 1 (1 draft), updated 0, unchanged 3, skipped 2 (1 already reviewed, 1 on the currently-reading shelf).

                """)
        #expect(
            try String(
                contentsOf: site.url.appendingPathComponent("content/books/the-hunger-games.md"), encoding: .utf8)
                    == """
                    ---
                    title: 'The Hunger Games (The Hunger Games, #1)'
                    date: 2024-06-01
                    draft: true
                    author: Suzanne Collins
                    year: 2008
                    isbn: '9780439023481'
                    publisher: Scholastic Press
                    goodreads: 2767052
                    ---

                    """)
        #expect(await TestConsole().run(["build", "--drafts"], in: site.url) == 0)
    }
}

extension ImportGoodreadsTests {
    @Test("books skipped on the read shelf are named with the option that publishes them, not as drafts")
    func readShelfHint() async throws {
        let site = try TemporaryFolder(ImportFixtures.site.merging(["library.csv": ImportFixtures.goodreads]) { $1 })
        let console = TestConsole()
        #expect(await console.run(["import", "goodreads", "library.csv", "--shelf", "to-read"], in: site.url) == 0)
        #expect(
            console.out == """
                Importing library.csv into content/books/.
                created content/books/the-hunger-games.md (draft: on the to-read shelf)
                skipped 4 books on the read shelf (--shelf read imports them)
                skipped 1 book on the currently-reading shelf (--shelf currently-reading imports it as a draft)
                Created 1 (1 draft), updated 0, unchanged 0, skipped 5 (4 on the read shelf, 1 on the currently-reading shelf).

                """)
    }

    @Test("a review that cannot be written stops the import: it is named, and only the files written are listed")
    func writeFails() async throws {
        let site = try TemporaryFolder(ImportFixtures.site.merging(["library.csv": ImportFixtures.goodreads]) { $1 })
        // A folder where the import writes the second new file before moving it into place.
        let blocker = site.url.appendingPathComponent("content/books/.the-underground-railroad.md.sitegen-import")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        let console = TestConsole()
        #expect(await console.run(["import", "goodreads", "library.csv"], in: site.url) == 1)
        #expect(
            console.out == """
                Importing library.csv into content/books/.
                skipped "Stoner", library.csv:7: already reviewed in content/books/stoner.md, which has no import id
                created content/books/the-iliad.md
                Stopped by the error below. Created 1, updated 0, unchanged 0, skipped 1 (1 already reviewed).

                """)
        #expect(
            console.err.hasPrefix("content/books/the-underground-railroad.md: cannot write the review: "),
            "\(console.err)")
        let books = try files(site.url.appendingPathComponent("content/books"))
        #expect(books.keys.sorted() == ["stoner.md", "the-iliad.md"])
        // With the folder gone, importing again carries on: the file written before is recorded.
        try FileManager.default.removeItem(at: blocker)
        let again = TestConsole()
        #expect(await again.run(["import", "goodreads", "library.csv"], in: site.url) == 0)
        #expect(again.out.contains("\nCreated 2, updated 0, unchanged 1, skipped 3 ("), "\(again.out)")
    }

    @Test("a record of imports behind a link out of the site is refused before anything is written")
    func recordBehindLink() async throws {
        let outside = try TemporaryFolder()
        let site = try TemporaryFolder(ImportFixtures.site.merging(["library.csv": ImportFixtures.goodreads]) { $1 })
        try FileManager.default.createDirectory(
            at: site.url.appendingPathComponent(".sitegen"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: site.url.appendingPathComponent(".sitegen/imports"), withDestinationURL: outside.url)
        let before = try files(site.url)
        let console = TestConsole()
        #expect(await console.run(["import", "goodreads", "library.csv"], in: site.url) == 1)
        #expect(
            console.err == """
                .sitegen/imports/goodreads-books.json: refused: a link on the way leads out of the site folder (or nowhere), and sitegen writes its record of imports here; make .sitegen and its folders plain folders
                finding the record of earlier imports failed: 1 error

                """)
        #expect(try files(site.url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.url.path).isEmpty)
    }

    @Test("a book reviewed by hand under its other ISBN (10 digits or 13, with hyphens or not) is already reviewed")
    func otherISBN() async throws {
        let rows = ImportFixtures.goodreadsRows
        // The Iliad's row with its ISBN-10 only.
        let iliad = rows[2].replacingOccurrences(of: #""=""9780140275360""""#, with: #""=""""""#)
        #expect(iliad != rows[2])
        let site = try TemporaryFolder(
            ImportFixtures.site.merging([
                "library.csv": ([ImportFixtures.goodreadsHeader, rows[0], iliad].map { $0 + "\n" }).joined(),
                // Other titles: only the ISBN tells they are the same books.
                "content/books/railroad.md": "---\ntitle: Railroad\ndate: 2024-01-01\nisbn: 0-385-54236-4\n---\n",
                "content/books/iliad.md": "---\ntitle: Iliad\ndate: 2024-01-01\nisbn: 978-0-14-027536-0\n---\n",
            ]) { $1 })
        let before = try files(site.url)
        let console = TestConsole()
        #expect(await console.run(["import", "goodreads", "library.csv"], in: site.url) == 0)
        #expect(
            console.out == """
                Importing library.csv into content/books/.
                skipped "The Iliad", library.csv:3: already reviewed in content/books/iliad.md, which has no import id
                skipped "The Underground Railroad", library.csv:2: already reviewed in content/books/railroad.md, which has no import id
                Created 0, updated 0, unchanged 0, skipped 2 (2 already reviewed).

                """)
        #expect(try files(site.url).filter { !$0.key.hasPrefix(".sitegen/") } == before)
    }
}

/// Bad exports and bad command lines: `file:line:column: message`, exit 1 (64 for the command
/// line), and nothing written.
@Suite("sitegen import errors")
struct ImportErrorTests {
    /// Runs an import in a fresh site holding `export` files; checks the exit code, that the
    /// site is as it was, and returns standard error.
    func failure(
        _ arguments: [String], export: [String: Data], status: Int32 = 1,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let site = try TemporaryFolder(ImportFixtures.site)
        for (path, data) in export {
            let url = site.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        let before = try files(site.url)
        let console = TestConsole()
        #expect(await console.run(arguments, in: site.url) == status, "\(console.err)", sourceLocation: sourceLocation)
        #expect(try files(site.url) == before, "the site changed", sourceLocation: sourceLocation)
        #expect(console.out == "", sourceLocation: sourceLocation)
        return console.err
    }

    func letterboxd(_ diary: String) -> [String: Data] {
        ["export/diary.csv": Data(diary.utf8), "export/ratings.csv": Data(ImportFixtures.ratings.utf8)]
    }

    @Test("a malformed Letterboxd CSV: an unclosed quote, a stray quote, a short row, a missing column, not UTF-8")
    func malformedCSV() async throws {
        let header = ImportFixtures.diaryHeader + "\r\n"
        #expect(
            try await failure(
                ["import", "letterboxd", "export"],
                export: letterboxd(header + "2024-03-16,\"Parasite,2019,https://boxd.it/5TVeRd,4.5,,,2024-03-15\r\n"))
                    == """
                    export/diary.csv:2:12: the quoted field that starts here is never closed: a " is missing
                    reading the export failed: 1 error

                    """)
        #expect(
            try await failure(
                ["import", "letterboxd", "export"],
                export: letterboxd(header + "2024-03-16,The \"Thing\",1982,https://boxd.it/1,4,,,\r\n"))
                    == """
                    export/diary.csv:2:16: a quote inside a field that does not start with one: put the whole field in quotes and write this quote twice ("")
                    reading the export failed: 1 error

                    """)
        #expect(
            try await failure(
                ["import", "letterboxd", "export"],
                export: letterboxd(header + "2024-03-16,기생충,2019,https://boxd.it/5TVeRd,4.5\r\n"))
                    == """
                    export/diary.csv:2:47: this row has 5 fields, but the header has 8
                    reading the export failed: 1 error

                    """)
        #expect(
            try await failure(
                ["import", "letterboxd", "export"], export: letterboxd("Date,Name,Year,Letterboxd URI,Rating\n"))
                    == """
                    export/diary.csv:1:1: missing the column "Rewatch" (the header has: Date, Name, Year, Letterboxd URI, Rating)
                    reading the export failed: 1 error

                    """)
        var latin1 = Data(header.utf8) + Data("2024-03-16,Am".utf8)
        latin1.append(0xE9)
        latin1 += Data("lie,2001,https://boxd.it/2,4,,,\r\n".utf8)
        #expect(
            try await failure(
                ["import", "letterboxd", "export"],
                export: ["export/diary.csv": latin1])
                    == """
                    export/diary.csv:2:14: not valid UTF-8 text (byte 0xE9): save the file as UTF-8
                    reading the export failed: 1 error

                    """)
    }

    @Test("every bad value of an export is reported, each at its field")
    func badValues() async throws {
        let rows = [
            "2024-03-16,Parasite,2019,https://boxd.it/5TVeRd,4.3,,,2024-03-15",
            "2024-03-16,Heat,MCMXCV,https://boxd.it/3kLm9N,4,Maybe,,15/03/2024",
            "2024-03-16,,2019,,4,,,",
            // Empty once written: YAML leaves out control characters; the build trims a zero-width space.
            "2024-03-17,\u{01},2019,https://boxd.it/a,4,,,",
            "2024-03-18,\u{200B},2019,https://boxd.it/b,4,,,",
            "2024-03-19,\u{FFFE} \u{7F},2019,https://boxd.it/c,4,,,",
            "2024-03-20,Alien,1979,https://boxd.it/d,0x4,,,",
            "2024-03-21,Alien,1979,https://boxd.it/e,+4,,,",
            "2024-03-22,Alien,1979,https://boxd.it/f,4.4999999999999999999,,,",
        ]
        let diary = ([ImportFixtures.diaryHeader] + rows).map { $0 + "\n" }.joined()
        #expect(
            try await failure(["import", "letterboxd", "export"], export: letterboxd(diary)) == """
                export/diary.csv:2:49: "Rating" must be a number of stars from 0.5 to 5 in half steps, not "4.3"
                export/diary.csv:3:17: "Year" must be a whole number from 1 to 9999, not "MCMXCV"
                export/diary.csv:3:49: "Rewatch" must be Yes, No or empty, not "Maybe"
                export/diary.csv:3:56: "Watched Date" must be a date written YYYY-MM-DD, not "15/03/2024"
                export/diary.csv:4:12: "Name" is empty
                export/diary.csv:4:18: "Letterboxd URI" is empty
                export/diary.csv:5:12: "Name" is empty
                export/diary.csv:6:12: "Name" is empty
                export/diary.csv:7:12: "Name" is empty
                export/diary.csv:8:41: "Rating" must be a number of stars from 0.5 to 5 in half steps, not "0x4"
                export/diary.csv:9:41: "Rating" must be a number of stars from 0.5 to 5 in half steps, not "+4"
                export/diary.csv:10:41: "Rating" must be a number of stars from 0.5 to 5 in half steps, not "4.4999999999999999999"
                reading the export failed: 12 errors

                """)
        let book = ImportFixtures.goodreadsRows[0]
        let badDate = book.replacingOccurrences(of: "2024/03/15", with: "2024-03-15")
        let badRating = ImportFixtures.goodreadsRows[1].replacingOccurrences(of: ",4,3.58,", with: ",7,3.58,")
        let library = ([ImportFixtures.goodreadsHeader, badDate, badRating]).map { $0 + "\n" }.joined()
        let dateColumn = try #require(badDate.range(of: "2024-03-15")).lowerBound.utf16Offset(in: badDate) + 1
        let ratingColumn = badRating.prefix(upTo: try #require(badRating.range(of: ",7,3.58")).lowerBound).count + 2
        #expect(
            try await failure(["import", "goodreads", "library.csv"], export: ["library.csv": Data(library.utf8)])
                == """
                library.csv:2:\(dateColumn): "Date Read" must be a date written YYYY/MM/DD, not "2024-03-15"
                library.csv:3:\(ratingColumn): "My Rating" must be a whole number from 0 to 5, not "7"
                reading the export failed: 2 errors

                """)
    }

    @Test("a review whose file would be over 64 MiB once escaped is an error at its row, and nothing is written")
    func reviewTooLarge() async throws {
        // 34 MB of asterisks, each escaped as \* in Markdown: 68 MB.
        let review = String(repeating: "*", count: 34_000_000)
        let reviews =
            ImportFixtures.reviewsHeader + "\n2024-03-16,Parasite,2019,https://boxd.it/5TVeRd,4.5,,"
            + review + ",,2024-03-15\n"
        #expect(
            try await failure(
                ["import", "letterboxd", "export"],
                export: [
                    "export/reviews.csv": Data(reviews.utf8), "export/diary.csv": Data(ImportFixtures.diaryHeader.utf8),
                ])
                    == """
                    export/reviews.csv:2: "Parasite" (2019) would make a review file of 68000100 bytes; the build reads files of at most 64 MiB
                    reading the export failed: 1 error

                    """)
    }

    @Test("zips: a path out of the folder, an entry too large, not a zip, no export inside; a missing export")
    func badZips() async throws {
        let folder = try TemporaryFolder()
        let evil = folder.url.appendingPathComponent("evil.zip")
        try ZipArchive.create(
            at: evil.path,
            entries: [("diary.csv", Data(ImportFixtures.diaryHeader.utf8)), ("../../.bashrc", Data("x".utf8))])
        #expect(
            try await failure(["import", "letterboxd", "evil.zip"], export: ["evil.zip": try Data(contentsOf: evil)])
                == """
                evil.zip: the entry "../../.bashrc" has a path that leads out of the folder it would be unpacked into: refused
                reading the export failed: 1 error

                """)
        let big = folder.url.appendingPathComponent("big.zip")
        try ZipArchive.create(
            at: big.path, entries: [("diary.csv", Data(ImportFixtures.diaryHeader.utf8) + Data(count: 64 << 20))])
        #expect(
            try await failure(["import", "letterboxd", "big.zip"], export: ["big.zip": try Data(contentsOf: big)])
                == """
                big.zip: "diary.csv" unpacks to more than 64 MiB: refused
                reading the export failed: 1 error

                """)
        #expect(
            try await failure(["import", "letterboxd", "export.pdf"], export: ["export.pdf": Data("%PDF-1.7\n".utf8)])
                == """
                export.pdf: not a zip file
                reading the export failed: 1 error

                """)
        let other = folder.url.appendingPathComponent("other.zip")
        try ZipArchive.create(at: other.path, entries: [("notes.txt", Data("hello".utf8))])
        #expect(
            try await failure(
                ["import", "letterboxd", "other.zip"], export: ["other.zip": try Data(contentsOf: other)]) == """
                    other.zip: no diary.csv, reviews.csv or ratings.csv: is this a Letterboxd export (its .zip, or the folder it unzips to)?
                    reading the export failed: 1 error

                    """)
        #expect(
            try await failure(["import", "letterboxd", "nope.zip"], export: [:]) == """
                nope.zip: no such file or folder
                reading the export failed: 1 error

                """)
        #expect(
            try await failure(["import", "goodreads", "nope.csv"], export: [:]) == """
                nope.csv: No such file or directory
                reading the export failed: 1 error

                """)
    }

    @Test("a section of the wrong kind, or none, and a folder that is not a site")
    func sections() async throws {
        let export = letterboxd(ImportFixtures.diaryHeader + "\n")
        #expect(
            try await failure(["import", "letterboxd", "export", "--section", "books"], export: export) == """
                content/books: a book section: films go in a film section (choose one with --section)
                choosing the section failed: 1 error

                """)
        var series = export
        series["content/tv/_index.md"] = Data("---\nkind: tv\n---\n".utf8)
        #expect(
            try await failure(["import", "letterboxd", "export", "--section", "tv"], export: series) == """
                content/tv: a series section: films go in a film section (choose one with --section)
                choosing the section failed: 1 error

                """)
        #expect(
            try await failure(["import", "letterboxd", "export", "--section", "cinema"], export: export) == """
                content/cinema: no such section: make the folder with an _index.md saying "kind: movie", or use --section movies
                choosing the section failed: 1 error

                """)
        #expect(
            try await failure(["import", "letterboxd", "export", "--section", "../etc"], export: export) == """
                content/../etc: "../etc" cannot be a section folder (letters, digits, - and _ only, and not a name sitegen uses)
                choosing the section failed: 1 error

                """)
        let empty = try TemporaryFolder(["export/diary.csv": ImportFixtures.diaryHeader + "\n"])
        let console = TestConsole()
        #expect(await console.run(["import", "letterboxd", "export"], in: empty.url) == 1)
        #expect(
            console.err.hasSuffix(
                ": no site.yml here: run sitegen import in the site folder, or name it with --source\nfinding the site failed: 1 error\n"
            ))
        #expect(try files(empty.url).keys.sorted() == ["export/diary.csv"])
    }

    @Test("the command line: --help, and usage errors exit 64")
    func usage() async throws {
        let help = TestConsole()
        let folder = try TemporaryFolder()
        #expect(await help.run(["import", "--help"], in: folder.url) == 0)
        #expect(
            help.out.hasPrefix("Usage: sitegen import letterboxd EXPORT [--source DIR] [--section NAME] [--dry-run]\n"))
        #expect(help.out.contains("--shelf NAME"))
        let named = TestConsole()
        #expect(await named.run(["help", "import"], in: folder.url) == 0)
        #expect(named.out == help.out)
        let listed = TestConsole()
        #expect(await listed.run(["--help"], in: folder.url) == 0)
        #expect(listed.out.contains("  import    Import reviews from a Letterboxd or Goodreads export\n"))
        for (arguments, message) in [
            (["import"], "sitegen import: missing argument"),
            (["import", "letterboxd"], "sitegen import: missing argument"),
            (
                ["import", "netflix", "x.csv"],
                "sitegen import: cannot import from \"netflix\": say letterboxd or goodreads"
            ),
            (
                ["import", "letterboxd", "x.zip", "--shelf", "read"],
                "sitegen import: --shelf is for Goodreads exports; Letterboxd has no shelves"
            ),
            (
                ["import", "goodreads", "x.csv", "--shelf", " "],
                "sitegen import: --shelf needs a shelf name, not \" \""
            ),
            (["import", "goodreads", "x.csv", "--force"], "sitegen import: unknown option --force"),
        ] {
            let console = TestConsole()
            #expect(await console.run(arguments, in: folder.url) == 64, "\(arguments)")
            #expect(console.err.hasPrefix(message + "\nUsage: sitegen import letterboxd"), "\(console.err)")
        }
    }
}
