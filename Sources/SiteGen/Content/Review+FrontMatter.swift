import CommonMark
import Foundation
import Mustache
import YAML

extension Review {
    /// Reads a review file of a section of `kind`, its links rewritten by `links`; returns the
    /// review (when there is no error) and the problems found, errors and warnings.
    /// `extraFields` are keys sitegen does not know that `site.yml` says are meant.
    static func read(
        _ text: String, source: String, section: String, kind: WorkKind, allowRawHTML: Bool, links: MarkdownLinks,
        extraFields: Set<String> = []
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
        let located = readTags(with: &reader)
        let tagSlugs = located.map(\.text.slug)
        var tags = located.map(\.text)
        // One tag written twice (`Noir` and `noir`, or "é" composed and decomposed) is listed
        // once, as first written (two names of one page, `C++` and `c plus plus`, are the
        // site's cross-check to report). Only tags of one page are compared (`Café` and `cafe`
        // have two pages, and keep both), and only when two share one: the comparison key
        // costs a Foundation call.
        if tagSlugs.indices.contains(where: { tagSlugs[..<$0].contains(tagSlugs[$0]) }) {
            var names: Set<[String]> = []
            tags = zip(tags, tagSlugs).filter { names.insert([$1, $0.nameKey]).inserted }.map(\.0)
        }
        let draft = reader.bool("draft") ?? false
        let summary = reader.string("summary")
        let language = reader.language("language")?.rawValue
        let slug = reader.slug(for: source)
        let slugLocation = reader.slugLocation()
        let image = reader.image(of: source)
        for (tag, tagSlug) in zip(located, tagSlugs) {
            let bytes = tagSlug.utf8.count
            if bytes == 0 {
                reader.report("tag \"\(tag.text)\" has no letters or digits", at: tag.position)
            } else if bytes > String.slugByteLimit {
                reader.report(
                    "tag \"\(tag.text.prefix(40))…\" is too long: its URL segment would be \(bytes) bytes, "
                        + "and at most \(String.slugByteLimit) are allowed", at: tag.position)
            }
        }
        let work = readWork(kind, with: &reader)
        let extra = reader.extraFields(allowing: extraFields, template: "review.extra")
        guard !reader.diagnostics.contains(where: { $0.severity == .error }), let title, let date else {
            return (nil, reader.diagnostics)
        }
        let (body, sourceLinks) = links.render(front, source: source, allowRawHTML: allowRawHTML)
        var warnings = reader.diagnostics
        if !allowRawHTML,
            let omitted = Diagnostic.rawHTMLOmitted(
                in: body, body: front.body, path: source, firstLine: front.bodyFirstLine)
        {
            warnings.append(omitted)
        }
        let review = Review(
            source: source, section: section, slug: slug, title: title, date: date, rating: rating, tags: tags,
            draft: draft, summary: summary, language: language, work: work, extra: extra, body: body,
            tagLocations: located.map { reader.location($0.position) }, updated: updated,
            sourceLinks: sourceLinks, image: image, slugLocation: slugLocation)
        return (review, warnings)
    }

    /// How many tags a review may have.
    static let tagLimit = 100

    /// `tags`: a list, or a single tag. One text with commas in it is an error that shows the
    /// list it most likely means: a tag may hold a comma ("Love, Actually") only inside a
    /// list, so that sitegen never has to guess.
    private static func readTags(with reader: inout FieldReader) -> [(text: String, position: TextPosition)] {
        if case .scalar(let text, _, let position)? = reader.node("tags"), text.contains(",") {
            let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let list = items.filter { !$0.isEmpty }.map(flowItem).joined(separator: ", ")
            reader.report(
                "\"tags\" is one text with commas in it; write a list: tags: [\(list)]"
                    + " (a tag with a comma in it goes in quotes inside the list)", at: position)
            return []
        }
        let tags = reader.locatedStrings("tags")
        if tags.count > Review.tagLimit {
            reader.report(
                "a review has at most \(Review.tagLimit) tags, and this is tag \(Review.tagLimit + 1) (every tag's feed "
                    + "holds the review with all its tags, so the site would grow with the square of them)",
                at: tags[Review.tagLimit].position)
            return []
        }
        return tags
    }

    /// `text` as an item of a YAML flow list: as it is, or in double quotes when YAML would read it otherwise.
    private static func flowItem(_ text: String) -> String {
        let special = text.contains { ":#[]{}\"'&*!|>%@`".contains($0) } || text.first == "-" || text.first == "?"
        guard special else { return text }
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(escaped)\""
    }

    private static func readWork(_ kind: WorkKind, with reader: inout FieldReader) -> Work {
        switch kind {
        case .movie:
            return Work(
                kind: .movie, year: reader.integer("year", in: 1...9999),
                originalTitle: reader.string("original_title"),
                creator: reader.string("director"), tmdbID: reader.integer("tmdb", in: 1...Int(Int32.max)),
                letterboxd: reader.string("letterboxd"), rewatch: reader.bool("rewatch") ?? false)
        case .book:
            return Work(
                kind: .book, year: readBookYear(with: &reader), originalTitle: reader.string("original_title"),
                creator: reader.string("author"), isbn: readISBN(with: &reader),
                publisher: reader.string("publisher"), goodreads: reader.integer("goodreads", in: 1...999_999_999_999))
        case .tv:
            return Work(
                kind: .tv, year: reader.integer("year", in: 1...9999), originalTitle: reader.string("original_title"),
                creator: reader.string("creator"), tmdbID: reader.integer("tmdb", in: 1...Int(Int32.max)))
        }
    }

    /// A book's year, which may be before the common era: `year: -700` is 700 BCE (there is no year 0).
    private static func readBookYear(with reader: inout FieldReader) -> Int? {
        guard let value = reader.node("year") else { return nil }
        guard let text = value.scalarText, let year = Int(text), (-9999...9999).contains(year), year != 0 else {
            reader.report(
                "\"year\" must be a whole number from -9999 to 9999 other than 0 (-700 is 700 BCE), not "
                    + (value.scalarText.map { "\"\($0)\"" } ?? value.kindName), at: value.position)
            return nil
        }
        return year
    }

    /// A book's `isbn`, without its hyphens and spaces; anything that is not an ISBN is an error
    /// at the value (it would name no book to fetch, and reach the page's structured data).
    private static func readISBN(with reader: inout FieldReader) -> String? {
        guard let value = reader.node("isbn") else { return nil }
        guard let text = value.scalarText, let isbn = isbn(text) else {
            reader.report(
                "\"isbn\" must be an ISBN of 10 or 13 digits (hyphens or spaces may part them), not "
                    + (value.scalarText.map { "\"\($0)\"" } ?? value.kindName), at: value.position)
            return nil
        }
        return isbn
    }

    /// `text` as an ISBN without its hyphens and spaces: 10 or 13 ASCII digits, of which the
    /// last of 10 may be X (the check digit 10); nil when it is not one.
    public static func isbn(_ text: String) -> String? {
        var digits: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(byte)
            case UInt8(ascii: "X"), UInt8(ascii: "x"): digits.append(UInt8(ascii: "X"))
            case UInt8(ascii: "-"), UInt8(ascii: " "): continue
            default: return nil
            }
            guard digits.count <= 13 else { return nil }
        }
        let checkDigitX = digits.count == 10 ? 9 : digits.count
        guard digits.count == 10 || digits.count == 13,
            digits.indices.allSatisfy({ $0 == checkDigitX || digits[$0] != UInt8(ascii: "X") })
        else { return nil }
        return String(decoding: digits, as: UTF8.self)
    }
}

extension String {
    /// One safe path segment: letters, digits, `-` and `_`, not starting with a dot.
    var isSafeSlug: Bool {
        guard !isEmpty else { return false }
        // ASCII (nearly every file name) read as bytes: letters, digits, "-" and "_" are the
        // ASCII characters that pass the check below.
        if utf8.allSatisfy({ $0 < 0x80 }) {
            return utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        }
        return allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }
}
