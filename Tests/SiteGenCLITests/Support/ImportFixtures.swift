import Foundation
import Zip

/// Export files written for the import tests, in the real formats: Letterboxd's diary,
/// reviews and ratings (a byte order mark and CRLF in one, quotes, commas and line breaks in
/// fields, Korean titles), Goodreads' 24-column library, and the files an import makes of them.
enum ImportFixtures {
    /// A site with hand-written reviews an import must not collide with or duplicate.
    static let site: [String: String] = [
        "site.yml": "title: Ana's reviews\nbase_url: https://example.org/\n",
        // A review of Heat written by hand: the export's Heat is the same film.
        "content/movies/heat.md": "---\ntitle: Heat\ndate: 2023-01-01\nyear: 1995\n---\nWritten by hand.\n",
        // Files and slugs an imported film's slug would take.
        "content/movies/dune-part-two-2024.md":
            "---\ntitle: Waiting for Dune\ndate: 2024-01-01\n---\nNotes before seeing it.\n",
        "content/movies/wuxia.md":
            "---\ntitle: Wuxia\ndate: 2024-01-02\nslug: crouching-tiger-hidden-dragon-2000\n---\nA genre.\n",
        "content/books/stoner.md": "---\ntitle: Stoner\ndate: 2023-05-01\nauthor: John Williams\n---\nQuiet.\n",
    ]

    static let diaryHeader = "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date"
    static let diaryRows = [
        "2024-03-16,Parasite,2019,https://boxd.it/5TVeRd,4.5,,\"korea, class\",2024-03-15",
        "2024-05-02,Parasite,2019,https://boxd.it/6bWfSe,5,Yes,\"korea, class, Class\",2024-05-01",
        "2024-04-10,헤어질 결심,2022,https://boxd.it/5Mqk1B,4,,\"korea, 박찬욱\",2024-04-09",
        "2024-04-20,\"Dune: Part Two\",2024,https://boxd.it/6zYzUm,3.5,,\"sci-fi, \"\"epic\"\"\",2024-04-20",
        "2024-06-01,\"Crouching Tiger, Hidden Dragon\",2000,https://boxd.it/4hR2pQ,4,,,2024-05-30",
        "2024-07-04,- Yes -,2021,https://boxd.it/7aB3cD,,,#tag,",
    ]
    static let reviewsHeader = "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Review,Tags,Watched Date"
    static let reviewRows = [
        "2024-03-16,Parasite,2019,https://boxd.it/5TVeRd,4.5,,\"The <i>stairs</i> do the work.<br><br>Every \"\"floor\"\" is a class, and the rain &amp; the flood are the same water.\nA line of its own.\",korea,2024-03-15",
        "2024-04-10,헤어질 결심,2022,https://boxd.it/5Mqk1B,4,,\"<b>박찬욱</b>의 가장 <i>조용한</i> 영화.<blockquote>마침내.</blockquote>\",korea,2024-04-09",
        "2024-02-11,Heat,1995,https://boxd.it/3kLm9N,4.5,,\"See <a href=\"\"https://letterboxd.com/film/heat/\"\">the film</a>: 1995. A year.\",,",
    ]
    static let ratings = """
        Date,Name,Year,Letterboxd URI,Rating
        2024-05-02,Parasite,2019,https://boxd.it/hTha,5
        2024-04-10,헤어질 결심,2022,https://boxd.it/vBdA,4
        2023-11-20,The Thing,1982,https://boxd.it/1q4s,4.5

        """

    /// The export: diary.csv with a byte order mark and CRLF, the others with LF.
    static let letterboxd: [String: Data] = [
        "diary.csv": Data([0xEF, 0xBB, 0xBF]) + Data(([diaryHeader] + diaryRows).map { $0 + "\r\n" }.joined().utf8),
        "reviews.csv": Data(([reviewsHeader] + reviewRows).map { $0 + "\n" }.joined().utf8),
        "ratings.csv": Data(ratings.utf8),
        "watched.csv": Data("Date,Name,Year,Letterboxd URI\n".utf8),
        "profile.csv": Data("Date Joined,Username\n2020-01-01,ana\n".utf8),
    ]

    /// A later export: Dune rated 4, Parasite's review rewritten, Past Lives new, and The Thing
    /// logged at last.
    static var letterboxdLater: [String: Data] {
        var rows = diaryRows
        rows[3] = rows[3].replacingOccurrences(of: ",3.5,", with: ",4,")
        rows += [
            "2024-07-10,Past Lives,2023,https://boxd.it/8pL1vS,4.5,,\"korea, new york\",2024-07-09",
            "2024-07-12,The Thing,1982,https://boxd.it/9tH1nG,4.5,,,2024-07-11",
        ]
        var reviews = reviewRows
        reviews[0] = reviews[0].replacingOccurrences(of: "do the work", with: "do all the work")
        reviews.append("2024-07-12,The Thing,1982,https://boxd.it/9tH1nG,4.5,,<i>Trust</i> no one.,,2024-07-11")
        reviews.append("2024-07-10,Past Lives,2023,https://boxd.it/8pL1vS,4.5,,In-yun.,,2024-07-09")
        var files = letterboxd
        files["diary.csv"] = Data([0xEF, 0xBB, 0xBF]) + Data(([diaryHeader] + rows).map { $0 + "\r\n" }.joined().utf8)
        files["reviews.csv"] = Data(([reviewsHeader] + reviews).map { $0 + "\n" }.joined().utf8)
        return files
    }

    /// The files the first import writes into `content/movies/`.
    static let importedFilms: [String: String] = [
        "the-thing-1982.md": """
        ---
        title: The Thing
        date: 2023-11-20
        rating: 4.5
        draft: true
        year: 1982
        letterboxd: https://boxd.it/1q4s
        ---

        """,
        "parasite-2019.md": """
        ---
        title: Parasite
        date: 2024-03-15
        rating: 4.5
        tags: [korea, class]
        year: 2019
        letterboxd: https://boxd.it/5TVeRd
        ---
        The *stairs* do the work.

        Every "floor" is a class, and the rain & the flood are the same water.\\
        A line of its own.

        """,
        "parasite-2019-2.md": """
        ---
        title: Parasite
        date: 2024-05-01
        rating: 5
        tags: [korea, class]
        rewatch: true
        year: 2019
        letterboxd: https://boxd.it/6bWfSe
        ---

        """,
        "헤어질-결심-2022.md": """
        ---
        title: 헤어질 결심
        date: 2024-04-09
        rating: 4
        tags: [korea, 박찬욱]
        year: 2022
        letterboxd: https://boxd.it/5Mqk1B
        ---
        **박찬욱**의 가장 *조용한* 영화.

        > 마침내.

        """,
        "dune-part-two-2024-2.md": """
        ---
        title: 'Dune: Part Two'
        date: 2024-04-20
        rating: 3.5
        tags: [sci-fi, '"epic"']
        year: 2024
        letterboxd: https://boxd.it/6zYzUm
        ---

        """,
        "crouching-tiger-hidden-dragon-2000-2.md": """
        ---
        title: Crouching Tiger, Hidden Dragon
        date: 2024-05-30
        rating: 4
        year: 2000
        letterboxd: https://boxd.it/4hR2pQ
        ---

        """,
        "yes-2021.md": """
        ---
        title: '- Yes -'
        date: 2024-07-04
        tags: ['#tag']
        year: 2021
        letterboxd: https://boxd.it/7aB3cD
        ---

        """,
    ]

    static let goodreadsHeader =
        "Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,"
        + "Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,"
        + "Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies"
    static let goodreadsRows = [
        "30555488,The Underground Railroad,Colson Whitehead,\"Whitehead, Colson\",,\"=\"\"0385542364\"\"\",\"=\"\"9780385542364\"\"\",5,4.04,Doubleday,Hardcover,306,2016,2016,2024/03/15,2024/01/02,\"favorites, historical-fiction\",\"favorites (#3), historical-fiction (#12)\",read,\"Cora runs.<br/><br/>The railroad is <i>literal</i> &amp; it works.<br/>A line.\",,Borrowed from Sam -- private,1,0",
        "25489625,채식주의자,한강,\"한, 강\",,\"=\"\"\"\"\",\"=\"\"9788936433598\"\"\",4,3.58,창비,Paperback,247,2007,2007,2024/05/20,2024/05/01,korean-lit,korean-lit (#1),read,<b>몸</b>의 이야기.,,,1,1",
        "1371,The Iliad,Homer,\"Homer, \",\"Robert Fagles, Bernard Knox\",\"=\"\"0140275363\"\"\",\"=\"\"9780140275360\"\"\",0,3.89,Penguin Classics,Paperback,683,1998,-750,,2023/12/1,\"classics, to-reread: someday, Classics\",\"classics (#1), to-reread: someday (#1)\",read,,,,1,0",
        "2767052,\"The Hunger Games (The Hunger Games, #1)\",Suzanne Collins,\"Collins, Suzanne\",,\"=\"\"0439023483\"\"\",\"=\"\"9780439023481\"\"\",0,4.33,Scholastic Press,Hardcover,374,2008,2008,,2024/06/01,to-read,to-read (#4),to-read,,,,0,0",
        "4671,The Great Gatsby,F. Scott Fitzgerald,\"Fitzgerald, F. Scott\",,\"=\"\"0743273567\"\"\",\"=\"\"9780743273565\"\"\",0,3.93,Scribner,Paperback,180,2004,1925,,2024/06/20,currently-reading,currently-reading (#1),currently-reading,,,,0,1",
        "5107,Stoner,John Williams,\"Williams, John\",,\"=\"\"\"\"\",\"=\"\"\"\"\",4,4.29,NYRB Classics,Paperback,278,2006,1965,2023/05/01,2023/04/01,,,read,Quiet.,,,1,0",
    ]
    /// The library export, LF line ends, as Goodreads writes it.
    static let goodreads = ([goodreadsHeader] + goodreadsRows).map { $0 + "\n" }.joined()

    /// The files a Goodreads import of the read shelf writes into `content/books/`.
    static let importedBooks: [String: String] = [
        "the-underground-railroad.md": """
        ---
        title: The Underground Railroad
        date: 2024-03-15
        rating: 5
        tags: [favorites, historical-fiction]
        author: Colson Whitehead
        year: 2016
        isbn: '9780385542364'
        publisher: Doubleday
        goodreads: 30555488
        ---
        Cora runs.

        The railroad is *literal* & it works.\\
        A line.

        """,
        "채식주의자.md": """
        ---
        title: 채식주의자
        date: 2024-05-20
        rating: 4
        tags: [korean-lit]
        author: 한강
        year: 2007
        isbn: '9788936433598'
        publisher: 창비
        goodreads: 25489625
        ---
        **몸**의 이야기.

        """,
        "the-iliad.md": """
        ---
        title: The Iliad
        date: 2023-12-01
        tags: [classics, 'to-reread: someday']
        author: Homer
        isbn: '9780140275360'
        publisher: Penguin Classics
        goodreads: 1371
        ---

        """,
    ]

    /// Writes `entries` as files in `folder`.
    static func write(_ entries: [String: Data], into folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, data) in entries { try data.write(to: folder.appendingPathComponent(name)) }
    }

    /// Makes a zip of `entries` at `url` as Letterboxd does (the files at its top): with the
    /// `zip` command when Debian has it, else with libzip.
    static func zip(_ entries: [String: Data], to url: URL) throws {
        let zip = URL(fileURLWithPath: "/usr/bin/zip")
        guard FileManager.default.isExecutableFile(atPath: zip.path) else {
            try ZipArchive.create(at: url.path, entries: entries.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            return
        }
        let folder = url.deletingLastPathComponent().appendingPathComponent(".zip-\(UUID().uuidString)")
        try write(entries, into: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = zip
        process.arguments = ["-q", "-X", url.path] + entries.keys.sorted()
        process.currentDirectoryURL = folder
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
