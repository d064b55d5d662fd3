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
        let updated = reader.day("updated")
        if let updated, let date, updated < date {
            reader.report(
                "\"updated\" (\(updated)) is before the review's \"date\" (\(date))",
                at: reader.node("updated")?.position ?? reader.position(of: "updated"))
        }
        let rating = reader.rating("rating")
        let located = reader.locatedStrings("tags")
        let tags = located.map(\.text)
        let draft = reader.bool("draft") ?? false
        let summary = reader.string("summary")
        let language = reader.string("language")
        let slug = reader.slug(for: source)
        let image = reader.image(of: source)
        for tag in located {
            let bytes = tag.text.slug.utf8.count
            if bytes == 0 {
                reader.report("tag \"\(tag.text)\" has no letters or digits", at: tag.position)
            } else if bytes > String.slugByteLimit {
                reader.report(
                    "tag \"\(tag.text.prefix(40))…\" is too long: its URL segment would be \(bytes) bytes, "
                        + "and at most \(String.slugByteLimit) are allowed", at: tag.position)
            }
        }
        let work = readWork(kind, with: &reader)
        let extra = reader.unused
        guard reader.diagnostics.isEmpty, let title, let date else { return (nil, reader.diagnostics) }
        let review = Review(
            source: source, section: section, slug: slug, title: title, date: date, rating: rating, tags: tags,
            draft: draft, summary: summary, language: language, work: work, extra: extra,
            body: Markdown.render(front.body, allowRawHTML: allowRawHTML),
            tagLocations: located.map { reader.location($0.position) }, updated: updated, image: image)
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
