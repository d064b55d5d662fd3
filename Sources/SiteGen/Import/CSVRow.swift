import Foundation
import Mustache
import YAML

/// One record of a ``CSVTable``, read by column name into typed values; a value that cannot
/// be read is a diagnostic at its field's line and column, collected so that every bad field
/// of an export is reported at once.
struct CSVRow: Sendable {
    let path: String
    /// The line the record starts on.
    let line: Int
    let fields: [CSVField]
    let columns: [String: Int]

    /// `diary.csv:12`, for messages about the whole row.
    var origin: String { "\(path):\(line)" }

    /// The field under `column` (which the table has checked exists).
    func field(_ column: String) -> CSVField {
        fields[columns[column]!]
    }

    /// The text under `column`, without surrounding spaces.
    func text(_ column: String) -> String {
        let text = field(column).text
        // Most fields have nothing to trim; Foundation's trimming is slow on Linux.
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
            Self.isBlank(first) || Self.isBlank(last)
        else { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// A character trimming removes (the build's blank check reads the same set).
    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || CharacterSet.whitespaces.contains(scalar)
    }

    /// The text under `column`, or nil when empty.
    func optional(_ column: String) -> String? {
        let text = text(column)
        return text.isEmpty ? nil : text
    }

    /// The non-empty text under `column`; reports an empty one, and one that would be empty
    /// once written as YAML (which leaves out control characters) and read back by the build
    /// (which counts the blanks Foundation's trimming removes, a zero-width space among them).
    func required(_ column: String, _ diagnostics: inout [Diagnostic]) -> String? {
        guard let text = optional(column),
            !text.unicodeScalars.allSatisfy({ Self.isBlank($0) || !YAMLPrintable.allows($0) })
        else {
            diagnostics.append(Diagnostic("\"\(column)\" is empty", at: field(column).location(path)))
            return nil
        }
        return text
    }

    /// A date written `YYYY-MM-DD` (`separator` "-") or `YYYY/MM/DD` (months and days may have
    /// one digit), or nil when empty; reports anything else.
    func day(_ column: String, separator: Character, _ diagnostics: inout [Diagnostic]) -> Day? {
        guard let text = optional(column) else { return nil }
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let day = Day(year: Int(parts[0])!, month: Int(parts[1])!, day: Int(parts[2])!)
        {
            return day
        }
        let form = separator == "-" ? "YYYY-MM-DD" : "YYYY/MM/DD"
        report("\"\(column)\" must be a date written \(form), not \"\(text)\"", column, &diagnostics)
        return nil
    }

    /// A whole number within `range`, or nil when empty; reports anything else.
    func integer(_ column: String, in range: ClosedRange<Int>, _ diagnostics: inout [Diagnostic]) -> Int? {
        guard let text = optional(column) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            report(
                "\"\(column)\" must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"",
                column, &diagnostics)
            return nil
        }
        return number
    }

    func report(_ message: String, _ column: String, _ diagnostics: inout [Diagnostic]) {
        diagnostics.append(Diagnostic(message, at: field(column).location(path)))
    }
}
