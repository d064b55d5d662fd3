import Foundation
import Synchronization
import Testing

@testable import SiteGen

@Suite("Reviews already in a section, as an import sees them")
struct ExistingReviewsTests {
    @Test("ISBN-10s in their 13-digit form, the check digit worked out (X included)")
    func isbn13() {
        #expect(ExistingReviews.isbn13("0140449132") == "9780140449136")
        #expect(ExistingReviews.isbn13("0385542364") == "9780385542364")
        #expect(ExistingReviews.isbn13("080442957X") == "9780804429573")
        #expect(ExistingReviews.isbn13("0306406152") == "9780306406157")
        #expect(ExistingReviews.isbn13("9791032305690") == "9791032305690")
    }
}

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
        let deadline = ContinuousClock.now + .seconds(60)
        while waited.withLock({ $0 }) == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(waited.withLock { $0 } == 1)
        #expect(ran.withLock { $0 } == false)
        #expect(flock(lock, LOCK_UN) == 0)
        while !ran.withLock({ $0 }) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(ran.withLock { $0 })

        // A folder without site.yml gets no .sitegen from it.
        let elsewhere = try ScratchFolder()
        try elsewhere.write("notes.txt", "not a site")
        let stray = Importer(
            options: .init(source: .letterboxd, export: elsewhere.url, exportShown: "x", site: elsewhere.url))
        #expect(try stray.locked(waiting: {}) { 7 } == 7)
        #expect(try elsewhere.entries() == ["notes.txt"])
    }
}
