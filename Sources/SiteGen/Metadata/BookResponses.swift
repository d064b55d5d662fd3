import Foundation

/// Naver's book search JSON: `pubdate` as YYYYMMDD, `isbn` holding two numbers,
/// markup inside text. Only the decoding layer sees these types.
struct NaverBookSearch: Decodable {
    let items: [Item]

    struct Item: Decodable {
        let title: String
        let image: String?
        let author: String?
        let publisher: String?
        let pubdate: String?
        let isbn: String?
        let description: String?
    }
}

extension NaverBookSearch.Item {
    var metadata: WorkMetadata {
        let isbns = (isbn ?? "").split(separator: " ").map(String.init)
        let isbn13 = isbns.first { $0.count == 13 } ?? isbns.first
        let date = pubdate.flatMap(Self.date(fromCompact:))
        return WorkMetadata(
            kind: "book", source: "naver", id: isbn13 ?? title.plainText, title: title.plainText,
            overview: description.map(\.plainText).flatMap { $0.isEmpty ? nil : $0 }, releaseDate: date,
            year: WorkMetadata.plausibleYear(date.flatMap(WorkMetadata.year(ofDate:))),
            authors: (author ?? "").split(separator: "^").map { String($0).plainText }.filter { !$0.isEmpty },
            publisher: publisher.map(\.plainText), isbn: isbn13)
    }

    /// `20070201` → `2007-02-01`; `200702` → `2007-02`; `2007` as it is; anything else (a
    /// day or month the calendar has not, another number of digits) → nil.
    static func date(fromCompact text: String) -> String? {
        let digits = text.utf8.filter { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        let dashed: [UInt8] =
            switch digits.count {
            case 8: digits[0..<4] + [UInt8(ascii: "-")] + digits[4..<6] + [UInt8(ascii: "-")] + digits[6..<8]
            case 6: digits[0..<4] + [UInt8(ascii: "-")] + digits[4..<6]
            case 4: digits
            default: []
            }
        return WorkMetadata.calendarDate(String(decoding: dashed, as: UTF8.self))
    }
}

/// Open Library's JSON: editions, works, authors and search results; `description`
/// is a string or an object with a `value`.
struct OpenLibraryEdition: Decodable {
    let title: String
    let publishers: [String]?
    let publishDate: String?
    let numberOfPages: Int?
    let covers: [Int]?
    let works: [KeyReference]?
    let authors: [KeyReference]?
    let description: OpenLibraryText?

    enum CodingKeys: String, CodingKey {
        case title, publishers, covers, works, authors, description
        case publishDate = "publish_date"
        case numberOfPages = "number_of_pages"
    }
}

struct KeyReference: Decodable {
    let key: String
}

struct OpenLibraryWork: Decodable {
    let title: String?
    let description: OpenLibraryText?
    let subjects: [String]?
    let covers: [Int]?
    /// A work lists its authors as `[{"author": {"key": …}}]`.
    let authors: [Role]?

    struct Role: Decodable {
        let author: KeyReference?
    }
}

struct OpenLibraryAuthor: Decodable {
    let name: String
}

struct OpenLibrarySearch: Decodable {
    let docs: [Doc]

    struct Doc: Decodable {
        let key: String
        let title: String
        let authorName: [String]?
        let firstPublishYear: Int?
        let isbn: [String]?
        let coverID: Int?
        let publisher: [String]?
        let pages: Int?

        enum CodingKeys: String, CodingKey {
            case key, title, isbn, publisher
            case authorName = "author_name"
            case firstPublishYear = "first_publish_year"
            case coverID = "cover_i"
            case pages = "number_of_pages_median"
        }
    }
}

/// A text that Open Library gives either as a string or as `{"type": …, "value": …}`.
struct OpenLibraryText: Decodable {
    let value: String

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            value = text
            return
        }
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        value = try container.decode(String.self, forKey: AnyCodingKey("value"))
    }
}

struct AnyCodingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension String {
    /// Text without HTML tags, with the common character references decoded and spaces collapsed.
    var plainText: String {
        var text = replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
        for (entity, character) in [
            ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&apos;", "'"),
            ("&nbsp;", " "), ("&amp;", "&"),
        ] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// A free-form Open Library date ("March 1, 2006", "1 March 2006", "Mar 2006", "2006-03-01",
/// "2006") as `YYYY-MM-DD`, `YYYY-MM` or `YYYY`, as precise as it says, when it is a real date
/// with a year of four digits; else the year a longer text holds (``yearIn(_:)``); nil when
/// it holds none.
func normalizedDate(_ text: String?) -> String? {
    guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
    if let date = WorkMetadata.calendarDate(text) { return date }
    let words = text.split { $0 == " " || $0 == "," }.map(String.init)
    let number = { (word: String, digits: ClosedRange<Int>) -> String? in
        digits.contains(word.utf8.count) && word.utf8.allSatisfy { (48...57).contains($0) } ? word : nil
    }
    let month = { (word: String) -> String? in
        let name = word.lowercased()
        let names = [
            "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
            "november", "december",
        ]
        guard let index = names.firstIndex(where: { $0 == name || (name.count == 3 && $0.hasPrefix(name)) })
        else { return nil }
        return index < 9 ? "0\(index + 1)" : "\(index + 1)"
    }
    let day = { (word: String) in number(word, 1...2).map { $0.count == 1 ? "0" + $0 : $0 } }
    var written: String?
    switch words.count {
    case 3:
        if let m = month(words[0]), let d = day(words[1]), let y = number(words[2], 4...4) {
            written = "\(y)-\(m)-\(d)"
        } else if let d = day(words[0]), let m = month(words[1]), let y = number(words[2], 4...4) {
            written = "\(y)-\(m)-\(d)"
        }
    case 2:
        if let m = month(words[0]), let y = number(words[1], 4...4) { written = "\(y)-\(m)" }
    default:
        break
    }
    if let written { return WorkMetadata.calendarDate(written) }
    return yearIn(text).map(String.init)
}

/// The year in a free-form date such as "2007", "March 2007" or "2007-02-01".
func yearIn(_ text: String?) -> Int? {
    guard let text, let range = text.range(of: #"\b(1[5-9]|20)\d\d\b"#, options: .regularExpression) else { return nil }
    return Int(text[range])
}
