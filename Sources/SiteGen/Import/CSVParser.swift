import Mustache

/// Splits CSV text into records, tracking lines and columns (columns count characters, as
/// Unicode scalars). Works on the UTF-8 bytes, which the table has checked: the syntax is ASCII.
struct CSVParser {
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
