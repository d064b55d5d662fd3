import Foundation
import Testing

@testable import SiteGen

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Writing the metadata cache")
struct MetadataCacheWriteTests {
    private let lookup = Lookup.tmdb(19)

    private func entry(_ images: [CachedImage] = []) -> WorkMetadata {
        WorkMetadata(kind: "movie", source: "tmdb", id: "19", title: "Metropolis", year: 1927, images: images)
    }

    private func poster(_ seed: Int) -> (CachedImage, Data) {
        (
            CachedImage(size: "w342", file: "images/tmdb-19-w342.png", width: 2, height: 3),
            TestImage.png(width: 2, height: 3, seed: seed)
        )
    }

    private func failure(_ store: () throws -> Void) -> String {
        do {
            try store()
            return "stored"
        } catch {
            return "\(error)"
        }
    }

    @Test("a metadata folder that is a link out of the site is neither written nor read; nor is a folder in it")
    func linkedFolders() throws {
        let scratch = try ScratchFolder()
        try scratch.write("outside/keep.txt", "kept")
        try scratch.write("site/site.yml", "title: X\n")
        let outside = scratch.url.appendingPathComponent("outside")
        let metadata = scratch.url.appendingPathComponent("site/metadata")
        try FileManager.default.createSymbolicLink(at: metadata, withDestinationURL: outside)
        let cache = MetadataCache(folder: metadata)
        #expect(
            failure { try cache.store(entry(), images: [poster(1)], for: lookup, refreshing: true) }
                == "cannot store it: refused: it is a link to a place outside the site folder")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["keep.txt"])
        // Read by the build: one error at the folder.
        try scratch.write(
            "outside/movies/tmdb-19.json", #"{"kind":"movie","source":"tmdb","id":"19","title":"Elsewhere"}"#)
        #expect(throws: Diagnostic.self) { try cache.entry(for: lookup) }
        #expect(
            cache.placeProblem?.description == "metadata:1:1: refused: it is a link to a place outside the site folder")

        try FileManager.default.removeItem(at: metadata)
        try FileManager.default.createDirectory(at: metadata, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            at: metadata.appendingPathComponent("images"), withDestinationURL: outside)
        #expect(
            failure {
                try MetadataCache(folder: metadata).store(entry(), images: [poster(1)], for: lookup, refreshing: true)
            }
                == "cannot store it: metadata/images is a link to a place outside metadata/")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).sorted() == ["keep.txt", "movies"])
        // A folder of entries that is a link out: the error is the folder's, not each file's.
        try? FileManager.default.removeItem(at: metadata.appendingPathComponent("movies"))
        try FileManager.default.createSymbolicLink(
            at: metadata.appendingPathComponent("movies"), withDestinationURL: outside.appendingPathComponent("movies"))
        let error = #expect(throws: Diagnostic.self) { try MetadataCache(folder: metadata).entry(for: lookup) }
        #expect(error?.description == "metadata/movies:1:1: refused: it is a link to a place outside metadata/")
    }

    @Test("entries read through links inside metadata/ are read; an entry that is a link out, or a FIFO, is not")
    func linkedEntries() throws {
        let scratch = try ScratchFolder()
        let json = #"{"kind":"movie","source":"tmdb","id":"19","title":"Inside"}"#
        try scratch.write("site/metadata/kept/tmdb-19.json", json)
        try scratch.write("outside/tmdb-19.json", #"{"kind":"movie","source":"tmdb","id":"19","title":"Outside"}"#)
        let metadata = scratch.url.appendingPathComponent("site/metadata")
        let movies = metadata.appendingPathComponent("movies")
        // A folder of entries that is a link to another folder inside, then an entry that is a
        // link to a file inside.
        try FileManager.default.createSymbolicLink(
            at: movies, withDestinationURL: metadata.appendingPathComponent("kept"))
        #expect(try MetadataCache(folder: metadata).entry(for: lookup)?.title == "Inside")
        try FileManager.default.removeItem(at: movies)
        try FileManager.default.createDirectory(at: movies, withIntermediateDirectories: false)
        let entry = movies.appendingPathComponent("tmdb-19.json")
        try FileManager.default.createSymbolicLink(atPath: entry.path, withDestinationPath: "../kept/tmdb-19.json")
        #expect(try MetadataCache(folder: metadata).entry(for: lookup)?.title == "Inside")
        // A link to a file outside.
        try FileManager.default.removeItem(at: entry)
        try FileManager.default.createSymbolicLink(
            at: entry, withDestinationURL: scratch.url.appendingPathComponent("outside/tmdb-19.json"))
        let error = #expect(throws: Diagnostic.self) { try MetadataCache(folder: metadata).entry(for: lookup) }
        #expect(
            error?.description == "metadata/movies/tmdb-19.json:1:1: refused: it is a link to a place outside metadata/"
        )
        // A FIFO in an entry's place is not waited on.
        try FileManager.default.removeItem(at: entry)
        #expect(mkfifo(entry.path, 0o644) == 0)
        let fifo = #expect(throws: Diagnostic.self) { try MetadataCache(folder: metadata).entry(for: lookup) }
        #expect(fifo?.description == "metadata/movies/tmdb-19.json:1:1: cannot read: not a regular file")
        // No file at all: no entry.
        try FileManager.default.removeItem(at: entry)
        #expect(try MetadataCache(folder: metadata).entry(for: lookup) == nil)
    }

    @Test("a link planted where a temporary file used to go is never written through")
    func plantedLink() throws {
        let scratch = try ScratchFolder()
        try scratch.write("victim.txt", "precious")
        try scratch.write("metadata/movies/.keep", "")
        let victim = scratch.url.appendingPathComponent("victim.txt")
        for name in ["movies/.tmdb-19.json.sitegen-tmp", "movies/.tmdb-19.json.sitegen-tmp-0"] {
            try FileManager.default.createSymbolicLink(
                at: scratch.url.appendingPathComponent("metadata/" + name), withDestinationURL: victim)
        }
        let cache = MetadataCache(folder: scratch.url.appendingPathComponent("metadata"))
        #expect(failure { try cache.store(entry(), images: [], for: lookup, refreshing: true) } == "stored")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
        #expect(try cache.entry(for: lookup)?.title == "Metropolis")
    }

    @Test("two writers of one file at once never fail and never leave a temporary file")
    func concurrentWriters() async throws {
        let scratch = try ScratchFolder()
        try scratch.write("f/.keep", "")
        let file = scratch.url.appendingPathComponent("f/x.json")
        let failures = await withTaskGroup(of: Int.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    var failed = 0
                    for round in 0..<300 {
                        do { try AtomicFile.write(Data("\(writer) \(round)".utf8), to: file) } catch { failed += 1 }
                    }
                    return failed
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path).sorted() == [
                ".keep", "x.json",
            ])
    }

    @Test("new bytes for an image the old entry names go under a name of their own; the old file goes once replaced")
    func imagesNeverReplacedInPlace() throws {
        let scratch = try ScratchFolder()
        let cache = MetadataCache(folder: scratch.url)
        try cache.store(entry(), images: [poster(1)], for: lookup, refreshing: true)
        #expect(try cache.entry(for: lookup)?.images.map(\.file) == ["images/tmdb-19-w342.png"])
        // The same bytes again: the same name.
        try cache.store(entry(), images: [poster(1)], for: lookup, refreshing: true)
        #expect(try cache.entry(for: lookup)?.images.map(\.file) == ["images/tmdb-19-w342.png"])
        // Other bytes: another name, holding them; the old file is removed after the entry moved.
        try cache.store(entry(), images: [poster(2)], for: lookup, refreshing: true)
        let renamed = try #require(try cache.entry(for: lookup)?.images.first?.file)
        #expect(renamed.hasPrefix("images/tmdb-19-w342-") && renamed.hasSuffix(".png"))
        #expect(try cache.image(renamed) == poster(2).1)
        #expect(try scratch.entries() == ["images", renamed, "movies", "movies/tmdb-19.json"])
    }

    @Test("a store removes what a killed fetch left: temporary files over a minute old, not newer ones")
    func leftoversRemoved() throws {
        let scratch = try ScratchFolder()
        let old = ["images/.tmdb-5-w780.jpg.sitegen-tmp-2lf53wtxq2yzz", "movies/.tmdb-5.json.sitegen-tmp-abc123"]
        let kept = [
            "images/.tmdb-6-w780.jpg.sitegen-tmp-9zz", "images/tmdb-7-w342.jpg", "images/.notes.sitegen-tmp-",
            "images/.x.sitegen-tmp-ABC",
        ]
        for path in old + kept { try scratch.write(path, "bytes") }
        for path in old + kept.dropFirst() {
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(-120)],
                ofItemAtPath: scratch.url.appendingPathComponent(path).path)
        }
        try MetadataCache(folder: scratch.url).store(entry(), images: [poster(1)], for: lookup, refreshing: true)
        let files = Set(try scratch.entries())
        for path in old { #expect(!files.contains(path), "\(path)") }
        for path in kept { #expect(files.contains(path), "\(path)") }
    }

    @Test("an image another entry names (after an edit by hand) is never replaced by other bytes")
    func imagesOfOtherEntriesKept() throws {
        let scratch = try ScratchFolder()
        let cache = MetadataCache(folder: scratch.url)
        // Film 20's entry, edited by hand, names a file called as film 19's poster would be.
        try cache.store(
            WorkMetadata(kind: "movie", source: "tmdb", id: "20", title: "Other", images: []), images: [],
            for: .tmdb(20), refreshing: true)
        try FileManager.default.createDirectory(
            at: scratch.url.appendingPathComponent("images"), withIntermediateDirectories: true)
        let mine = TestImage.png(width: 2, height: 3, seed: 7)
        try mine.write(to: scratch.url.appendingPathComponent("images/tmdb-19-w342.png"))
        try scratch.write(
            "movies/tmdb-20.json",
            #"{"kind":"movie","source":"tmdb","id":"20","title":"Other","images":["#
                + #"{"size":"w342","file":"images/tmdb-19-w342.png","width":2,"height":3}]}"#)
        try cache.store(entry(), images: [poster(1)], for: lookup, refreshing: true)
        let file = try #require(try cache.entry(for: lookup)?.images.first?.file)
        #expect(file.hasPrefix("images/tmdb-19-w342-") && file.hasSuffix(".png"), "\(file)")
        #expect(try cache.image(file) == poster(1).1)
        #expect(try cache.image("images/tmdb-19-w342.png") == mine, "film 20's image is as it was")
        // The same bytes as the file there: shared, not written twice.
        try mine.write(to: scratch.url.appendingPathComponent("images/tmdb-19-w342.png"))
        try cache.store(entry(), images: [(poster(1).0, mine)], for: .tmdb(19), refreshing: true)
        #expect(try cache.entry(for: lookup)?.images.first?.file == "images/tmdb-19-w342.png")
        #expect(try cache.image("images/tmdb-19-w342.png") == mine)
    }

    @Test("an old entry naming a file outside images/ (its own JSON, edited by hand) never has it removed")
    func oldImagesOnlyFromImages() throws {
        let scratch = try ScratchFolder()
        let cache = MetadataCache(folder: scratch.url)
        try cache.store(entry(), images: [poster(1)], for: .tmdb(20), refreshing: true)
        try scratch.write(
            "movies/tmdb-19.json",
            #"{"kind":"movie","source":"tmdb","id":"19","title":"M","images":["#
                + #"{"size":"w342","file":"movies/tmdb-19.json","width":1,"height":1},"#
                + #"{"size":"w780","file":"movies/tmdb-20.json","width":1,"height":1}]}"#)
        try cache.store(entry(), images: [], for: lookup, refreshing: true)
        #expect(try cache.entry(for: lookup)?.title == "Metropolis")
        #expect(try cache.entry(for: .tmdb(20))?.title == "Metropolis")
    }

    @Test("an entry whose image is not a file right in images/ is an error at the entry that names the file")
    func imageFiles() throws {
        let scratch = try ScratchFolder()
        let cache = MetadataCache(folder: scratch.url)
        for file in [
            "../site.yml", "", "images/", "images/../movies/tmdb-19.json", "movies/tmdb-20.json", "images/a/b.jpg",
            "images/.x",
        ] {
            try scratch.write(
                "movies/tmdb-19.json",
                #"{"kind":"movie","source":"tmdb","id":"19","title":"M","images":[{"size":"w342","file":"\#(file)","width":1,"height":1}]}"#
            )
            let error = #expect(throws: Diagnostic.self) { try cache.entry(for: lookup) }
            #expect(
                error?.description
                    == "metadata/movies/tmdb-19.json:1:87: not a valid metadata file: the image \"\(file)\" must be a file in images/ (such as images/tmdb-496243-w342.jpg)"
            )
        }
    }

    @Test("searches of a book or a series never share an image name with a film's search")
    func imageKeys() {
        #expect(Lookup.movieSearch(title: "Dune", year: nil).imageKey == "search-dune")
        #expect(Lookup.bookSearch(title: "Dune", author: nil).imageKey == "book-search-dune")
        #expect(Lookup.movieSearch(title: "TV Junkie", year: 2006).imageKey == "search-tv-junkie-2006")
        #expect(Lookup.seriesSearch(title: "Junkie", year: 2006).imageKey == "series-search-tv-junkie-2006")
        #expect(Lookup.tmdb(19).imageKey == "tmdb-19")
    }
}

@Suite("Paths that answers give")
struct AnswerPathTests {
    private let sources = MetadataSources.defaults

    private func url(_ make: () throws -> URLRequest) -> String {
        do {
            return try make().url?.absoluteString ?? "no URL"
        } catch {
            return "\(error)"
        }
    }

    @Test(
        "an Open Library key or a TMDB poster path that would leave the provider's path, or change the query, is refused"
    )
    func answerPaths() {
        #expect(
            url { try OpenLibraryEndpoint.key("/works/OL45883W").request(sources) }
                == "https://openlibrary.org/works/OL45883W.json")
        #expect(
            url { try ImageEndpoint.tmdb(path: "/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg", size: "w342").request(sources) }
                == "https://image.tmdb.org/t/p/w342/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg")
        for key in ["/../../../x", "/works/OL1W?x=1#", "/works/./a", "/works//a", "/works/%2e%2e"] {
            #expect(
                url { try OpenLibraryEndpoint.key(key).request(sources) }
                    == "unexpected response: the answer names a path that is not one: \"\(key)\"")
        }
        #expect(
            url { try ImageEndpoint.tmdb(path: "/../../3/movie/1", size: "w342").request(sources) }
                == "unexpected response: the answer names a path that is not one: \"w342/../../3/movie/1\"")
    }
}
