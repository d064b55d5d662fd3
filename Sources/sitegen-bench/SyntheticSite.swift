import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A generated review site: half films, half books, a fifth of them Korean, each with a
/// metadata cache entry (as after `sitegen fetch`), a section index per section, an about
/// page, a static file and `site.yml`. The same recipe always gives the same bytes.
struct SyntheticSite {
    var reviews = 1000
    /// Words of running text per review.
    var words = 500...700
    var pageSize = 6
    var seed: UInt64 = 42
    /// How many different tags the reviews draw their three from: nil for the 12 of
    /// ``Vocabulary/tags``, as on a reviewer's site; thousands for a site that tags freely.
    var tags: Int?

    /// The tags reviews draw from: ``Vocabulary/tags``, or `tags` names made of a title
    /// adjective and noun (`quiet harbour`), numbered past the 675 pairs (`quiet harbour 2`).
    var tagPool: [String] {
        guard let tags else { return Vocabulary.tags }
        let adjectives = Vocabulary.titleAdjectives
        let nouns = Vocabulary.titleNouns
        let pairs = adjectives.count * nouns.count
        return (0..<tags).map { index in
            let pair = index % pairs
            let name = "\(adjectives[pair % adjectives.count]) \(nouns[pair / adjectives.count])".lowercased()
            return index < pairs ? name : "\(name) \(index / pairs + 1)"
        }
    }

    /// What was written.
    struct Summary {
        var reviews: [SyntheticReview] = []
        var markdownBytes = 0
        var metadataBytes = 0
    }

    /// Writes the site into `folder` (created if needed).
    func write(to folder: URL) throws -> Summary {
        let manager = FileManager.default
        for path in ["content/movies", "content/books", "metadata/movies", "metadata/books", "static"] {
            try manager.createDirectory(at: folder.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        let fixed = [
            "site.yml": """
            title: Synthetic Reviews
            base_url: https://bench.example/reviews/
            language: en
            author: Bench Writer
            description: Generated reviews of films and books, for benchmarks.
            page_size: \(pageSize)

            """,
            "content/movies/_index.md": """
            ---
            title: Films
            kind: movie
            weight: 1
            ---
            Films old and new, newest reviews first. Korean films keep their Korean titles.

            """,
            "content/books/_index.md": """
            ---
            title: Books
            kind: book
            weight: 2
            ---
            Novels, essays and the occasional memoir, newest reviews first.

            """,
            "content/about.md": """
            ---
            title: About
            ---
            A generated site for *sitegen-bench*: every review, name and rating here is made up.

            """,
            "static/robots.txt": "User-agent: *\nAllow: /\n",
        ]
        for (path, text) in fixed { try Data(text.utf8).writePlain(to: folder.appendingPathComponent(path)) }
        var summary = Summary()
        var taken: [String: Set<String>] = [:]
        let tagPool = tagPool
        for index in 0..<reviews {
            let section = index % 2 == 0 ? "movies" : "books"
            let review = SyntheticReview(
                index: index, seed: seed, words: words, tagPool: tagPool, taken: &taken[section, default: []])
            let text = Data(review.text.utf8)
            let metadata = review.metadataJSON
            try text.writePlain(to: folder.appendingPathComponent(review.source))
            try metadata.writePlain(to: folder.appendingPathComponent(review.metadataPath))
            summary.markdownBytes += text.count
            summary.metadataBytes += metadata.count
            summary.reviews.append(review)
        }
        return summary
    }
}

extension Data {
    /// Writes the bytes with plain `open`/`write` (Foundation's `write(to:)` syncs each file
    /// to disk on Linux, which makes generating 100,000 files take minutes).
    func writePlain(to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw BenchError("cannot write \(url.path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        try withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    throw BenchError("cannot write \(url.path): \(String(cString: strerror(errno)))")
                }
                offset += count
            }
        }
    }
}
