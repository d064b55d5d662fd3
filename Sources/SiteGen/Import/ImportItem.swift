import Foundation
import YAML

/// One review an import would write, read from a row (or rows) of an export.
struct ImportItem: Sendable {
    /// What identifies the entry in the export and in the front matter (`letterboxd` or
    /// `goodreads`): a Letterboxd URI or a Goodreads book id. The import record's key.
    let key: String
    /// Where it was read, for messages: `diary.csv:12`.
    let origin: String
    /// The name messages use: `"Parasite" (2019)`.
    let label: String
    let title: String
    let year: Int?
    let date: Day
    /// The slug before any `-2`: `parasite-2019`.
    let slugBase: String
    /// The review's front matter, in the order written.
    private(set) var fields: [(key: String, value: YAMLEmitter.Value)]
    /// The review, Markdown.
    let body: String
    /// Why the review is a draft (`rated, never logged`), if it is one.
    let draftReason: String?
    /// For a film rated but never logged: the film (`Name|Year`), so that a later diary entry
    /// of it can take the draft's file over.
    let ratedFilm: String?
    /// An ISBN and author, for finding a review of the same book written by hand.
    var isbn: String? = nil
    var author: String? = nil

    /// The review file: front matter between `---` lines, then the Markdown.
    func fileText() throws(YAMLError) -> String {
        "---\n" + (try YAMLEmitter.document(.mapping(fields))) + "---\n" + body
    }
}

extension ImportItem {
    /// The item with each tag written as `spellings` has the tag of its slug, and `spellings`
    /// learning the tags it did not have: tags that would share a page are written one way.
    func unifyingTags(_ spellings: inout [String: String]) -> ImportItem {
        guard let index = fields.firstIndex(where: { $0.key == "tags" }), case .list(let tags) = fields[index].value
        else { return self }
        var item = self
        item.fields[index].value = .list(
            tags.map { value in
                guard case .text(let tag) = value else { return value }
                let slug = tag.slug
                if let spelling = spellings[slug] { return .text(spelling) }
                spellings[slug] = tag
                return value
            })
        return item
    }

    /// A rating as front matter writes it: `4`, `4.5`.
    static func ratingText(_ rating: Rating) -> String {
        rating.halves % 2 == 0 ? "\(rating.halves / 2)" : "\(rating.halves / 2).5"
    }

    /// Tags from a comma-separated list: trimmed, empty ones dropped, and the later of two
    /// that would share a page (`Sci-Fi`, `sci fi`) dropped; tags without a letter or digit, or
    /// too long for a URL, cannot be tags and are dropped too; so are those after the most a
    /// review may have (``Review/tagLimit``).
    static func tags(_ text: String, excluding: Set<String> = []) -> [String] {
        var seen: Set<String> = []
        var tags: [String] = []
        for part in text.split(separator: ",") where tags.count < Review.tagLimit {
            let tag = part.trimmingCharacters(in: .whitespacesAndNewlines)
            let slug = tag.slug
            guard !tag.isEmpty, !excluding.contains(tag), !slug.isEmpty, slug.utf8.count <= String.slugByteLimit,
                seen.insert(slug).inserted
            else { continue }
            tags.append(tag)
        }
        return tags
    }

    /// A slug from `text`: at most 180 bytes (room for `-2` and temporary names), cut at a
    /// character; `fallback` when `text` has no letters or digits.
    static func slugBase(_ text: String, fallback: String) -> String {
        var slug = text.slug
        if slug.isEmpty { slug = fallback }
        while slug.utf8.count > 180 { slug.removeLast() }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }
}
