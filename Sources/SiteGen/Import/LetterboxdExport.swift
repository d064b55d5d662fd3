import Foundation
import Mustache
import YAML

/// A Letterboxd export read into the reviews it holds: one per diary entry (a rewatch is
/// another entry), with the text of its review from `reviews.csv` (joined by the entry's
/// Letterboxd URI); one per review not in the diary; and one draft per film rated in
/// `ratings.csv` but never logged (matched by name and year, since there the URI is the film's).
enum LetterboxdExport {
    static let diaryColumns = ["Date", "Name", "Year", "Letterboxd URI", "Rating", "Rewatch", "Tags", "Watched Date"]
    static let reviewColumns = diaryColumns + ["Review"]
    static let ratingColumns = ["Date", "Name", "Year", "Letterboxd URI", "Rating"]

    /// Reads the export's CSV files; throws every problem found in them, each at its line and column.
    static func items(_ files: ExportFiles) throws(BuildError) -> [ImportItem] {
        let diary: CSVTable?
        let reviews: CSVTable?
        let ratings: CSVTable?
        do {
            diary = try files.table("diary.csv", columns: diaryColumns)
            reviews = try files.table("reviews.csv", columns: reviewColumns)
            ratings = try files.table("ratings.csv", columns: ratingColumns)
        } catch {
            throw BuildError(step: "reading the export", diagnostics: [error])
        }
        guard diary != nil || reviews != nil || ratings != nil else {
            throw BuildError(
                step: "reading the export",
                diagnostics: [
                    Diagnostic(
                        "no diary.csv, reviews.csv or ratings.csv: is this a Letterboxd export (its .zip, or the folder it unzips to)?",
                        file: files.shown)
                ])
        }
        var diagnostics: [Diagnostic] = []
        var viewings: [Viewing] = []
        var byKey: [String: Int] = [:]
        for row in diary?.rows ?? [] {
            guard let viewing = Viewing(row, &diagnostics) else { continue }
            if byKey[viewing.key] == nil { byKey[viewing.key] = viewings.count }
            viewings.append(viewing)
        }
        for row in reviews?.rows ?? [] {
            guard let viewing = Viewing(row, &diagnostics) else { continue }
            if let index = byKey[viewing.key], viewings[index].review == nil {
                viewings[index].review = viewing.review
                viewings[index].rating = viewings[index].rating ?? viewing.rating
                if viewings[index].tags.isEmpty { viewings[index].tags = viewing.tags }
            } else {
                if byKey[viewing.key] == nil { byKey[viewing.key] = viewings.count }
                viewings.append(viewing)
            }
        }
        let films = Set(viewings.map { film($0.name, $0.year) })
        var rated: [Viewing] = []
        for row in ratings?.rows ?? [] {
            guard let viewing = Viewing(row, &diagnostics), !films.contains(film(viewing.name, viewing.year)) else {
                continue
            }
            rated.append(viewing)
        }
        guard diagnostics.isEmpty else { throw BuildError(step: "reading the export", diagnostics: diagnostics) }
        return viewings.map { item($0, ratedOnly: false) } + rated.map { item($0, ratedOnly: true) }
    }

    /// A film as ratings and diary entries share it: its name (as a name key) and year.
    static func film(_ name: String, _ year: Int?) -> String {
        "\(name.nameKey)|\(year.map(String.init) ?? "")"
    }
}

private extension LetterboxdExport {
    /// A row of any of the three files: a logged viewing, a review, or a rating.
    struct Viewing {
        let key: String
        let origin: String
        let name: String
        let year: Int?
        let date: Day
        var rating: Rating?
        let rewatch: Bool
        var tags: [String]
        var review: String?

        init?(_ row: CSVRow, _ diagnostics: inout [Diagnostic]) {
            let has = { (column: String) in row.columns[column] != nil }
            let name = row.required("Name", &diagnostics)
            let key = row.required("Letterboxd URI", &diagnostics)
            let year = row.integer("Year", in: 1...9999, &diagnostics)
            let logged = row.day("Date", separator: "-", &diagnostics)
            let watched = has("Watched Date") ? row.day("Watched Date", separator: "-", &diagnostics) : nil
            var rating: Rating?
            if let text = row.optional("Rating") {
                // Digits with a decimal point at most: Double also reads 0x4, +4 and 4.4999999999999999999.
                let decimal =
                    text.utf8.allSatisfy { $0 == UInt8(ascii: ".") || (0x30...0x39).contains($0) }
                    && text.utf8.filter { $0 == UInt8(ascii: ".") }.count <= 1 && text.utf8.count <= 4
                rating = decimal ? Double(text).flatMap(Rating.init) : nil
                if rating == nil || rating?.halves == 0 {
                    row.report(
                        "\"Rating\" must be a number of stars from 0.5 to 5 in half steps, not \"\(text)\"", "Rating",
                        &diagnostics)
                }
            }
            var rewatch = false
            if has("Rewatch"), let text = row.optional("Rewatch") {
                switch text.lowercased() {
                case "yes": rewatch = true
                case "no": rewatch = false
                default: row.report("\"Rewatch\" must be Yes, No or empty, not \"\(text)\"", "Rewatch", &diagnostics)
                }
            }
            if row.optional("Date") == nil && (watched == nil) {
                row.report("\"Date\" is empty", "Date", &diagnostics)
            }
            guard let name, let key, let date = watched ?? logged else { return nil }
            self.key = key
            self.origin = row.origin
            self.name = name
            self.year = year
            self.date = date
            self.rating = rating
            self.rewatch = rewatch
            self.tags = has("Tags") ? ImportItem.tags(row.field("Tags").text) : []
            self.review = has("Review") ? row.field("Review").text : nil
        }
    }

    static func item(_ viewing: Viewing, ratedOnly: Bool) -> ImportItem {
        var fields: [(key: String, value: YAMLEmitter.Value)] = [
            ("title", .text(viewing.name)), ("date", .plain(viewing.date.description)),
        ]
        if let rating = viewing.rating { fields.append(("rating", .plain(ImportItem.ratingText(rating)))) }
        if !viewing.tags.isEmpty { fields.append(("tags", .list(viewing.tags.map { .text($0) }))) }
        if viewing.rewatch { fields.append(("rewatch", .plain("true"))) }
        if ratedOnly { fields.append(("draft", .plain("true"))) }
        if let year = viewing.year { fields.append(("year", .plain(String(year)))) }
        fields.append(("letterboxd", .text(viewing.key)))
        let label = "\"\(viewing.name)\"" + (viewing.year.map { " (\($0))" } ?? "")
        return ImportItem(
            key: viewing.key, origin: viewing.origin, label: label, title: viewing.name, year: viewing.year,
            date: viewing.date,
            slugBase: ImportItem.slugBase(viewing.name + (viewing.year.map { " \($0)" } ?? ""), fallback: "film"),
            fields: fields, body: HTMLToMarkdown.convert(viewing.review ?? ""),
            draftReason: ratedOnly ? "rated, never logged" : nil,
            ratedFilm: ratedOnly ? film(viewing.name, viewing.year) : nil)
    }
}
