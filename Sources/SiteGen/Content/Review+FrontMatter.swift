import CommonMark
import Mustache

extension Review {
    /// Reads a review file of a section of `kind`; returns the review or the problems found.
    static func read(
        _ text: String, source: String, section: String, kind: WorkKind, allowRawHTML: Bool
    ) -> (Review?, [Diagnostic]) {
        let front: FrontMatter
        var reader: FieldReader
        switch FrontMatter.read(text, path: source) {
        case .success(let parsed): (front, reader) = parsed
        case .failure(let problems): return (nil, problems.diagnostics)
        }
        let title = reader.string("title", required: true)
        let date = reader.day("date", required: true)
        let rating = reader.rating("rating")
        let tags = reader.strings("tags")
        let draft = reader.bool("draft") ?? false
        let summary = reader.string("summary")
        let language = reader.string("language")
        let slug = reader.slug(for: source)
        for tag in tags where tag.slug.isEmpty {
            reader.report("tag \"\(tag)\" has no letters or digits", at: reader.position(of: "tags"))
        }
        let work = readWork(kind, with: &reader)
        let extra = reader.unused
        guard reader.diagnostics.isEmpty, let title, let date else { return (nil, reader.diagnostics) }
        let review = Review(
            source: source, section: section, slug: slug, title: title, date: date, rating: rating, tags: tags,
            draft: draft, summary: summary, language: language, work: work, extra: extra,
            body: Markdown.render(front.body, allowRawHTML: allowRawHTML))
        return (review, [])
    }

    private static func readWork(_ kind: WorkKind, with reader: inout FieldReader) -> Work {
        let year = reader.integer("year", in: 1...9999)
        switch kind {
        case .movie:
            return Work(
                kind: .movie, year: year, originalTitle: reader.string("original_title"),
                creator: reader.string("director"), tmdbID: reader.integer("tmdb", in: 1...Int(Int32.max)))
        case .book:
            return Work(
                kind: .book, year: year, originalTitle: reader.string("original_title"),
                creator: reader.string("author"), isbn: reader.string("isbn").map(Self.normalizedISBN),
                publisher: reader.string("publisher"))
        }
    }

    /// An ISBN without spaces or hyphens.
    static func normalizedISBN(_ text: String) -> String {
        text.filter { $0.isNumber || $0 == "X" || $0 == "x" }.uppercased()
    }
}

extension String {
    /// One safe path segment: letters, digits, `-` and `_`, not starting with a dot.
    var isSafeSlug: Bool {
        !isEmpty && allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }
}
