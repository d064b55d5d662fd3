import Foundation

/// A long date of one month as ICU writes it, with places for the day and the year: made
/// from ICU's text for the 22nd of that month in 2001. A ``Formatter`` uses one only where
/// probes of other days and years give exactly ICU's text, so that the many release dates
/// of a large site cost a few joins each rather than a call into ICU.
struct DateShape: Sendable, Equatable {
    private enum Part: Sendable, Equatable {
        case text(String)
        case day
        case year
    }

    private let parts: [Part]

    /// The date whose text a shape is made from.
    static let sample = (year: 2001, day: 22)
    /// The years a shape may write: four digits, long after the Gregorian reform (before it,
    /// Foundation's calendar counts days as the Julian one did).
    static let years = 1600...9999

    /// The shape of `text`, ICU's long date of the sample day; nil unless the day's and the
    /// year's digits each appear once in it.
    init?(_ text: String) {
        let day = String(Self.sample.day)
        let year = String(Self.sample.year)
        guard let dayRange = Self.only(day, in: text), let yearRange = Self.only(year, in: text),
            !dayRange.overlaps(yearRange)
        else { return nil }
        let (first, second) = dayRange.lowerBound < yearRange.lowerBound ? (dayRange, yearRange) : (yearRange, dayRange)
        let field = { (range: Range<String.Index>) -> Part in range == dayRange ? .day : .year }
        parts = [
            .text(String(text[..<first.lowerBound])), field(first),
            .text(String(text[first.upperBound..<second.lowerBound])), field(second),
            .text(String(text[second.upperBound...])),
        ]
    }

    /// The text of `day` in this shape (its month is the shape's).
    func text(_ day: Day) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .text(let piece): text += piece
            case .day: text += String(day.day)
            case .year: text += String(day.year)
            }
        }
        return text
    }

    /// Where `needle` is in `text`, when it is there exactly once.
    private static func only(_ needle: String, in text: String) -> Range<String.Index>? {
        guard let found = text.range(of: needle), text.range(of: needle, range: found.upperBound..<text.endIndex) == nil
        else { return nil }
        return found
    }
}
