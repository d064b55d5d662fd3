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

/// Splits CSV text into records, tracking lines and columns (columns count characters, as
/// Unicode scalars). Works on the UTF-8 bytes, which the table has checked: the syntax is ASCII.
private struct CSVParser {
    struct Record {
        let line: Int
        let fields: [CSVField]
        /// Where the record's last field ends.
        let end: (line: Int, column: Int)
    }

    let bytes: [UInt8]
    let path: String
    var index = 0
    var line = 1
    var column = 1

    init(_ text: String, path: String) {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        self.bytes = bytes
        self.path = path
    }

    /// The next record, skipping empty lines; nil at the end of the text.
    mutating func record() throws(Diagnostic) -> Record? {
        while index < bytes.count, isLineBreak(bytes[index]) { consumeLineBreak() }
        guard index < bytes.count else { return nil }
        let start = line
        var fields: [CSVField] = []
        while true {
            fields.append(try field())
            let end = (line, column)
            if index == bytes.count { return Record(line: start, fields: fields, end: end) }
            if bytes[index] == comma {
                advance()
                continue
            }
            consumeLineBreak()
            return Record(line: start, fields: fields, end: end)
        }
    }

    private let comma = UInt8(ascii: ",")
    private let quote = UInt8(ascii: "\"")

    private mutating func field() throws(Diagnostic) -> CSVField {
        let (startLine, startColumn) = (line, column)
        guard index < bytes.count, bytes[index] == quote else {
            let start = index
            while index < bytes.count, bytes[index] != comma, !isLineBreak(bytes[index]) {
                if bytes[index] == quote {
                    throw problem(
                        "a quote inside a field that does not start with one: put the whole field in quotes "
                            + "and write this quote twice (\"\")")
                }
                advance()
            }
            return CSVField(
                text: String(decoding: bytes[start..<index], as: UTF8.self), line: startLine, column: startColumn)
        }
        advance()
        var text: [UInt8] = []
        while true {
            guard index < bytes.count else {
                throw Diagnostic(
                    "the quoted field that starts here is never closed: a \" is missing",
                    at: SourceLocation(path: path, line: startLine, column: startColumn))
            }
            let byte = bytes[index]
            if byte == quote {
                if index + 1 < bytes.count, bytes[index + 1] == quote {
                    text.append(quote)
                    advance()
                    advance()
                    continue
                }
                advance()
                break
            }
            if isLineBreak(byte) {
                text.append(byte)
                if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { text.append(0x0A) }
                consumeLineBreak()
                continue
            }
            text.append(byte)
            advance()
        }
        if index < bytes.count, bytes[index] != comma, !isLineBreak(bytes[index]) {
            throw problem(
                "unexpected text after the closing quote of a field: a quote inside a quoted field is written twice (\"\")"
            )
        }
        return CSVField(text: String(decoding: text, as: UTF8.self), line: startLine, column: startColumn)
    }

    private func problem(_ message: String) -> Diagnostic {
        Diagnostic(message, at: SourceLocation(path: path, line: line, column: column))
    }

    private func isLineBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

    /// Steps over one byte; a character's first byte counts a column.
    private mutating func advance() {
        if bytes[index] & 0xC0 != 0x80 { column += 1 }
        index += 1
    }

    /// Steps over LF, CRLF or a lone CR.
    private mutating func consumeLineBreak() {
        if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
        index += 1
        line += 1
        column = 1
    }
}
