import Foundation
import Mustache
import YAML

/// A Goodreads library export (`goodreads_library_export.csv`) read into reviews: one per book
/// on the chosen exclusive shelves (`read` unless asked otherwise); books on other shelves are
/// skipped with their shelf as the reason, and books not on `read` become drafts.
enum GoodreadsLibrary {
    static let columns = [
        "Book Id", "Title", "Author", "Additional Authors", "ISBN", "ISBN13", "My Rating", "Publisher",
        "Year Published", "Original Publication Year", "Date Read", "Date Added", "Bookshelves", "Exclusive Shelf",
        "My Review",
    ]
    /// The shelves every Goodreads library has; the first is imported unless asked otherwise.
    static let standardShelves = ["read", "currently-reading", "to-read"]

    /// A row left out, and why.
    struct Skipped: Sendable, Equatable {
        let origin: String
        let label: String
        let shelf: String
    }

    /// Reads the library; throws every problem found, each at its line and column.
    static func items(_ table: CSVTable, shelves: Set<String>) throws(BuildError) -> (
        items: [ImportItem], skipped: [Skipped]
    ) {
        do {
            try table.require(columns)
        } catch {
            throw BuildError(step: "reading the export", diagnostics: [error])
        }
        var diagnostics: [Diagnostic] = []
        var items: [ImportItem] = []
        var skipped: [Skipped] = []
        for row in table.rows {
            let title = row.required("Title", &diagnostics)
            let key = row.integer("Book Id", in: 1...999_999_999_999, &diagnostics)
            if row.optional("Book Id") == nil { row.report("\"Book Id\" is empty", "Book Id", &diagnostics) }
            let shelf = row.optional("Exclusive Shelf") ?? "read"
            let rating = row.integer("My Rating", in: 0...5, &diagnostics)
            let read = row.day("Date Read", separator: "/", &diagnostics)
            let added = row.day("Date Added", separator: "/", &diagnostics)
            if row.optional("Date Read") == nil && row.optional("Date Added") == nil {
                row.report("\"Date Read\" and \"Date Added\" are both empty", "Date Added", &diagnostics)
            }
            let original = row.integer("Original Publication Year", in: -9999...9999, &diagnostics)
            let published = row.integer("Year Published", in: -9999...9999, &diagnostics)
            let isbn13 = isbn(row, "ISBN13", &diagnostics)
            let isbn10 = isbn(row, "ISBN", &diagnostics)
            guard let title, let key, let date = read ?? added else { continue }
            let label = "\"\(title)\""
            guard shelves.contains(shelf) else {
                skipped.append(Skipped(origin: row.origin, label: label, shelf: shelf))
                continue
            }
            // The year a work first appeared; a year before 1 (the Iliad's -750) has no place
            // in front matter, and the edition's year would misdate the work, so neither is kept.
            let year: Int? =
                original.map { (1...9999).contains($0) ? $0 : nil }
                ?? published.flatMap {
                    (1...9999).contains($0) ? $0 : nil
                }
            let author = row.optional("Author")
            let tags = ImportItem.tags(row.field("Bookshelves").text, excluding: Set(standardShelves + [shelf]))
            var fields: [(key: String, value: YAMLEmitter.Value)] = [
                ("title", .text(title)), ("date", .plain(date.description)),
            ]
            if let rating, rating > 0 { fields.append(("rating", .plain(String(rating)))) }
            if !tags.isEmpty { fields.append(("tags", .list(tags.map { .text($0) }))) }
            if shelf != "read" { fields.append(("draft", .plain("true"))) }
            if let author { fields.append(("author", .text(author))) }
            if let year { fields.append(("year", .plain(String(year)))) }
            if let isbn = isbn13 ?? isbn10 { fields.append(("isbn", .text(isbn))) }
            if let publisher = row.optional("Publisher") { fields.append(("publisher", .text(publisher))) }
            fields.append(("goodreads", .plain(String(key))))
            var item = ImportItem(
                key: String(key), origin: row.origin, label: label, title: title, year: year, date: date,
                slugBase: ImportItem.slugBase(slugTitle(title), fallback: "book"), fields: fields,
                body: HTMLToMarkdown.convert(row.field("My Review").text),
                draftReason: shelf == "read" ? nil : "on the \(shelf) shelf", ratedFilm: nil)
            item.isbn = isbn13 ?? isbn10
            item.author = author
            items.append(item)
        }
        guard diagnostics.isEmpty else { throw BuildError(step: "reading the export", diagnostics: diagnostics) }
        return (items, skipped)
    }

    /// The title a slug is made from: without a series note at the end, as in
    /// `The Hunger Games (The Hunger Games, #1)`.
    static func slugTitle(_ title: String) -> String {
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "(") else { return title }
        let note = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        guard !note.contains("("), let hash = note.lastIndex(of: "#") else { return title }
        let number = note[note.index(after: hash)...].trimmingCharacters(in: .whitespaces)
        guard let first = number.first, first.isASCII, first.isNumber,
            number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
        else { return title }
        let head = trimmed[..<open].trimmingCharacters(in: .whitespaces)
        return head.isEmpty ? title : head
    }

    /// An ISBN as Goodreads writes it, `="9780140449136"` (`=""` when there is none), or plain.
    private static func isbn(_ row: CSVRow, _ column: String, _ diagnostics: inout [Diagnostic]) -> String? {
        var text = row.text(column)
        if text.hasPrefix("=\"") && text.hasSuffix("\"") && text.count >= 3 {
            text = String(text.dropFirst(2).dropLast())
        }
        guard !text.isEmpty else { return nil }
        guard let isbn = Review.isbn(text) else {
            row.report(
                "\"\(column)\" must be an ISBN of 10 or 13 digits, not \"\(row.text(column))\"", column, &diagnostics)
            return nil
        }
        return isbn
    }
}
