import Testing

@testable import SiteGen

/// Whether a path can be a file beside a set of published files.
@Suite("Paths beside published files")
struct PublishedPathsTests {
    @Test("a file where a page needs a folder, and a page where a file needs one, clash")
    func clashes() {
        let paths = PublishedPaths(["movies", "assets/site.css", "films/2046/index.html/still.jpg", "robots.txt"])
        #expect(paths.clash(with: "movies/2046/index.html") == "movies")
        #expect(paths.clash(with: "films/2046/index.html") == "films/2046/index.html/still.jpg")
        #expect(paths.clash(with: "assets/site.css/x") == "assets/site.css")
        #expect(paths.clash(with: "assets") == "assets/site.css")
        #expect(paths.clash(with: "assets/other.css") == nil)
        #expect(paths.clash(with: "movie/2046/index.html") == nil)
        #expect(paths.clash(with: "robots.txt.bak") == nil)
        // The Kelvin sign is the same text as K to Swift, as everywhere else paths are compared.
        #expect(PublishedPaths(["K"]).clash(with: "\u{212A}/index.html") != nil)
        #expect(PublishedPaths(["\u{212A}"]).clash(with: "K/index.html") != nil)
    }

    /// A handful of first parts are compared as bytes, many are hashed: both say the same, for
    /// ASCII and other paths alike (accents composed or not, the Kelvin sign beside K).
    @Test("with few first parts or many, the same clashes are found")
    func fewOrMany() {
        var generator = SplitMix(seed: 41)
        let letters = ["a", "b", "K", "\u{212A}", "é", "e\u{301}", "index.html"]
        let path = { (generator: inout SplitMix) -> String in
            (0..<Int.random(in: 1...3, using: &generator)).map { _ in letters.randomElement(using: &generator)! }
                .joined(separator: "/")
        }
        for _ in 0..<300 {
            let files = (0..<Int.random(in: 1...6, using: &generator)).map { _ in path(&generator) }
            let few = PublishedPaths(files)
            // Seventeen more first parts that no page below starts with.
            let many = PublishedPaths(files + (0..<17).map { "zz\($0)/file" })
            for _ in 0..<40 {
                let page = path(&generator)
                #expect(few.clash(with: page) == many.clash(with: page), "\(files) beside \(page)")
            }
        }
    }
}
