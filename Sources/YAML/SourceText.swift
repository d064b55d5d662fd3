/// UTF-8 text seen as libyaml sees it: lines end at LF, CR, CRLF, NEL, LS or PS; columns
/// count characters; a byte order mark at the start takes no column. Used only when
/// describing an error, so it walks the bytes each time it is asked.
struct SourceText {
    let bytes: UnsafeRawBufferPointer

    /// The line and column of the character starting at byte `offset`.
    func position(ofByte offset: Int) -> TextPosition {
        var line = 1
        var column = 1
        var index = start
        let end = min(offset, bytes.count)
        while index < end {
            let length = breakLength(at: index)
            if length > 0 {
                line += 1
                column = 1
                index += length
                continue
            }
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return TextPosition(line: line, column: column)
    }

    /// The characters of line `number` (from 1), without its line break; empty past the end.
    func line(_ number: Int) -> [Unicode.Scalar] {
        var line = 1
        var index = start
        var lineStart = start
        while index < bytes.count {
            let length = breakLength(at: index)
            if length == 0 {
                index += 1
                continue
            }
            if line == number { break }
            line += 1
            index += length
            lineStart = index
        }
        guard line == number else { return [] }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<index]), as: UTF8.self)
        return Array(text.unicodeScalars)
    }
}

extension SourceText {
    /// The byte offset of a position, or nil past the end.
    func offset(of position: TextPosition) -> Int? {
        var line = 1
        var column = 1
        var index = start
        while index < bytes.count {
            if line == position.line && column == position.column { return index }
            let length = breakLength(at: index)
            if length > 0 {
                line += 1
                column = 1
                index += length
                continue
            }
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            column += 1
        }
        return nil
    }

    /// Whether a `[` or `{` is at `position` and its matching closing bracket somewhere after it
    /// (counting brackets only: a bracket inside a quoted value counts too).
    func hasClosedBracket(at position: TextPosition) -> Bool {
        guard let offset = offset(of: position), bytes[offset] == 0x5B || bytes[offset] == 0x7B else { return false }
        var depth = 0
        for index in offset..<bytes.count {
            switch bytes[index] {
            case 0x5B, 0x7B: depth += 1
            case 0x5D, 0x7D: depth -= 1
            default: continue
            }
            if depth == 0 { return true }
        }
        return false
    }

    /// The start of the UTF-8 sequence a byte at `offset` continues: the nearest lead byte
    /// (`11xxxxxx`) at most three bytes before it, else `offset`.
    func characterStart(before offset: Int) -> Int {
        for back in 1...3 where offset - back >= 0 && bytes[offset - back] & 0xC0 == 0xC0 {
            return offset - back
        }
        return offset
    }
}

private extension SourceText {
    /// Past a byte order mark.
    var start: Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// The length in bytes of the line break at `index`, or 0.
    func breakLength(at index: Int) -> Int {
        let next = { (offset: Int) -> UInt8 in index + offset < bytes.count ? bytes[index + offset] : 0 }
        switch bytes[index] {
        case 0x0A: return 1
        case 0x0D: return next(1) == 0x0A ? 2 : 1
        case 0xC2: return next(1) == 0x85 ? 2 : 0
        case 0xE2: return next(1) == 0x80 && (next(2) == 0xA8 || next(2) == 0xA9) ? 3 : 0
        default: return 0
        }
    }
}
