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

    /// `20070201` → `2007-02-01`; `200702` → `2007-02`; anything else → nil.
    static func date(fromCompact text: String) -> String? {
        let digits = text.filter(\.isNumber)
        switch digits.count {
        case 8: return "\(digits.prefix(4))-\(digits.dropFirst(4).prefix(2))-\(digits.suffix(2))"
        case 6: return "\(digits.prefix(4))-\(digits.suffix(2))"
        case 4: return digits
        default: return nil
        }
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

/// A free-form Open Library date ("March 1, 2006", "Mar 2006", "2006") as `YYYY-MM-DD`,
/// `YYYY-MM` or `YYYY`, as precise as it says; nil when it holds no year.
func normalizedDate(_ text: String?) -> String? {
    guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    for (format, output) in [
        ("yyyy-MM-dd", "yyyy-MM-dd"), ("MMMM d, yyyy", "yyyy-MM-dd"), ("MMM d, yyyy", "yyyy-MM-dd"),
        ("d MMMM yyyy", "yyyy-MM-dd"), ("MMMM yyyy", "yyyy-MM"), ("MMM yyyy", "yyyy-MM"),
    ] {
        formatter.dateFormat = format
        if let date = formatter.date(from: text) {
            formatter.dateFormat = output
            return formatter.string(from: date)
        }
    }
    return yearIn(text).map(String.init)
}

/// The year in a free-form date such as "2007", "March 2007" or "2007-02-01".
func yearIn(_ text: String?) -> Int? {
    guard let text, let range = text.range(of: #"\b(1[5-9]|20)\d\d\b"#, options: .regularExpression) else { return nil }
    return Int(text[range])
}
