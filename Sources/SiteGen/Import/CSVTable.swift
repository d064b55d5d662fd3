import Foundation
import Mustache

/// A CSV file as RFC 4180 writes it: a header row naming the columns, then records with as
/// many fields each. Fields may be quoted (`"a, b"`, with `""` for a quote inside and line
/// breaks kept); lines end with CRLF or LF; a byte order mark at the start is skipped.
struct CSVTable: Sendable {
    /// The file, as messages name it.
    let path: String
    /// The column names, from the first row.
    let header: [String]
    /// Every record after the header, in file order.
    let rows: [CSVRow]

    /// Reads `data`; throws the first problem (invalid UTF-8, an unclosed quote, a stray quote,
    /// a row with the wrong number of fields, a repeated column name) at its line and column.
    init(_ data: Data, path: String) throws(Diagnostic) {
        guard let text = String(data: data, encoding: .utf8) else {
            throw Diagnostic.invalidUTF8(in: data, path: path)
        }
        var parser = CSVParser(text, path: path)
        guard let first = try parser.record() else {
            throw Diagnostic(
                "the file is empty: a CSV export starts with a row of column names",
                at: SourceLocation(path: path, line: 1, column: 1))
        }
        var columns: [String: Int] = [:]
        for (index, field) in first.fields.enumerated() {
            guard columns[field.text] == nil else {
                throw Diagnostic("the column \"\(field.text)\" appears twice in the header", at: field.location(path))
            }
            columns[field.text] = index
        }
        var rows: [CSVRow] = []
        while let record = try parser.record() {
            if record.fields.count != first.fields.count {
                let count = record.fields.count
                let message =
                    "this row has \(count) field\(count == 1 ? "" : "s"), but the header has \(first.fields.count)"
                if count > first.fields.count {
                    throw Diagnostic(
                        message + " (a comma too many, or a field holding a comma without quotes around it?)",
                        at: record.fields[first.fields.count].location(path))
                }
                throw Diagnostic(
                    message, at: SourceLocation(path: path, line: record.end.line, column: record.end.column))
            }
            rows.append(CSVRow(path: path, line: record.line, fields: record.fields, columns: columns))
        }
        self.path = path
        self.header = first.fields.map(\.text)
        self.rows = rows
    }

    /// Throws when any of `names` is not a column, naming the first missing one and the header.
    func require(_ names: [String]) throws(Diagnostic) {
        for name in names where !header.contains(name) {
            throw Diagnostic(
                "missing the column \"\(name)\" (the header has: \(header.joined(separator: ", ")))",
                at: SourceLocation(path: path, line: 1, column: 1))
        }
    }
}

/// One field of a CSV record: its text (quotes removed) and where it starts.
struct CSVField: Sendable, Equatable {
    let text: String
    let line: Int
    let column: Int

    func location(_ path: String) -> SourceLocation {
        SourceLocation(path: path, line: line, column: column)
    }
}
