import Foundation
import Testing

@testable import SiteGen

/// What a fetch says and stores of a server's text: control characters never reach a
/// terminal, a page or the cache.
@Suite("Cleaning what a fetch is given")
struct FetchCleaningTests {
    @Test("a path or key in an answer reaches an error with its control characters written as escapes")
    func controlCharactersInErrors() async throws {
        let fake = try FakeProviders()
        fake.route("/3/movie/7", .json(#"{"id": 7, "title": "Film", "poster_path": "/x\u001b]0;PWNED\u0007.png"}"#))
        fake.route(
            "/isbn/9780000000002.json",
            .json(#"{"title": "Book", "works": [{"key": "/works/OL1W\u001b]0;PWN\u0007"}]}"#))
        let cache = try ScratchFolder()
        let summary = try await FakeFetch.run(fake, cache: cache.url, [.tmdb(7), .isbn("9780000000002")])
        let messages = summary.failed.map(\.1.description)
        #expect(
            messages == [
                #"unexpected response: the answer names a path that is not one: "/works/OL1W\u{1B}]0;PWN\u{7}""#,
                #"unexpected response: the answer names a path that is not one: "w342/x\u{1B}]0;PWNED\u{7}.png""#,
            ])
        #expect(!messages.joined().utf8.contains { $0 < 0x20 || $0 == 0x7F })
        #expect(!FileManager.default.fileExists(atPath: cache.url.path))
    }
}
