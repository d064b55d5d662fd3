import Foundation
import Synchronization
import Testing

@testable import SiteGen

@Suite("Imports one at a time")
struct ImportLockTests {
    @Test("an import waits while another one runs in the site; none is kept apart where there is no site")
    func oneAtATime() async throws {
        let folder = try ScratchFolder()
        try folder.write("site.yml", "title: T\nbase_url: https://example.org/\n")
        let importer = Importer(
            options: .init(
                source: .letterboxd, export: folder.url.appendingPathComponent("export"), exportShown: "export",
                site: folder.url))
        // Another import (here, the test) holds the lock.
        try folder.write(".sitegen/import.lock", "")
        let lock = open(folder.url.appendingPathComponent(".sitegen/import.lock").path, O_RDONLY)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
        let waited = Mutex(0)
        let ran = Mutex(false)
        Thread.detachNewThread {
            try? importer.locked(waiting: { waited.withLock { $0 += 1 } }) { ran.withLock { $0 = true } }
        }
        try await eventually { waited.withLock { $0 } > 0 }
        #expect(waited.withLock { $0 } == 1)
        #expect(ran.withLock { $0 } == false)
        #expect(flock(lock, LOCK_UN) == 0)
        try await eventually { ran.withLock { $0 } }
        #expect(ran.withLock { $0 })

        // A plan made before another import wrote the record no longer holds.
        let header =
            "Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,"
            + "Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,"
            + "Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies\n"
        let row = { (id: Int, title: String) in
            "\(id),\(title),Ann Author,\"Author, Ann\",,,,4,4.0,P,Paperback,100,2001,2001,2024/01/02,2024/01/01,,,read,,,,1,0\n"
        }
        try folder.write("a.csv", header + row(1, "Alpha"))
        try folder.write("b.csv", header + row(2, "Beta"))
        let goodreads = { (name: String) in
            Importer(
                options: .init(
                    source: .goodreads, export: folder.url.appendingPathComponent(name), exportShown: name,
                    site: folder.url))
        }
        let first = try goodreads("a.csv").plan()
        #expect(goodreads("a.csv").isCurrent(first))
        try goodreads("b.csv").apply(try goodreads("b.csv").plan())
        #expect(!goodreads("a.csv").isCurrent(first))
        let again = try goodreads("a.csv").plan()
        #expect(goodreads("a.csv").isCurrent(again))
        #expect(again.state.records.count == 1)

        // A folder without site.yml gets no .sitegen from it.
        let elsewhere = try ScratchFolder()
        try elsewhere.write("notes.txt", "not a site")
        let stray = Importer(
            options: .init(source: .letterboxd, export: elsewhere.url, exportShown: "x", site: elsewhere.url))
        #expect(try stray.locked(waiting: {}, { 7 }) == 7)
        #expect(try elsewhere.entries() == ["notes.txt"])
    }
}
