/// Telling which Unicode encoding a JSON file uses, and converting it to UTF-8.
extension JSONReader {
    /// The text of `data` as UTF-8: UTF-8 loses its byte order mark; UTF-16 and UTF-32
    /// (by byte order mark, or by the zero bytes around an ASCII first character) are
    /// converted. Bytes that are not text in the encoding are an error at their place.
    static func utf8(_ data: [UInt8], path: String) throws(JSONError) -> [UInt8] {
        if data.starts(with: [0, 0, 0xFE, 0xFF]) { return try utf32(data.dropFirst(4), bigEndian: true, path) }
        if data.starts(with: [0xFF, 0xFE, 0, 0]) { return try utf32(data.dropFirst(4), bigEndian: false, path) }
        if data.starts(with: [0xFE, 0xFF]) { return try utf16(data.dropFirst(2), bigEndian: true, path) }
        if data.starts(with: [0xFF, 0xFE]) { return try utf16(data.dropFirst(2), bigEndian: false, path) }
        let zero = data.prefix(4).map { $0 == 0 }
        if zero.count == 4 {
            switch (zero[0], zero[1], zero[2], zero[3]) {
            case (true, true, true, _): return try utf32(data[...], bigEndian: true, path)
            case (_, true, true, true): return try utf32(data[...], bigEndian: false, path)
            case (true, _, true, _): return try utf16(data[...], bigEndian: true, path)
            case (_, true, _, true): return try utf16(data[...], bigEndian: false, path)
            default: break
            }
        } else if zero.count >= 2 {
            if zero[0] { return try utf16(data[...], bigEndian: true, path) }
            if zero[1] { return try utf16(data[...], bigEndian: false, path) }
        }
        let body = UTF8Text.withoutByteOrderMark(data)
        if case .failure(let invalid) = UTF8Text.decode(body) {
            let location = body.withUnsafeBufferPointer { SourceLocation(path: path, utf8: $0, offset: invalid.offset) }
            throw JSONError(UTF8Text.message(invalidByte: invalid.byte), at: location)
        }
        return Array(body)
    }

    private static func utf16(_ data: ArraySlice<UInt8>, bigEndian: Bool, _ path: String) throws(JSONError) -> [UInt8] {
        var units: [UInt16] = []
        units.reserveCapacity(data.count / 2)
        var index = data.startIndex
        while index + 1 < data.endIndex {
            let (first, second) = (UInt16(data[index]), UInt16(data[index + 1]))
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        return try transcode(units, as: UTF16.self, complete: index == data.endIndex, name: "UTF-16", path)
    }

    private static func utf32(_ data: ArraySlice<UInt8>, bigEndian: Bool, _ path: String) throws(JSONError) -> [UInt8] {
        var units: [UInt32] = []
        units.reserveCapacity(data.count / 4)
        var index = data.startIndex
        while index + 3 < data.endIndex {
            let quad = data[index..<index + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            units.append(bigEndian ? quad : quad.byteSwapped)
            index += 4
        }
        return try transcode(units, as: UTF32.self, complete: index == data.endIndex, name: "UTF-32", path)
    }

    private static func transcode<Encoding: UnicodeCodec>(
        _ units: [Encoding.CodeUnit], as encoding: Encoding.Type, complete: Bool, name: String, _ path: String
    ) throws(JSONError) -> [UInt8] {
        var output: [UInt8] = []
        var decoder = Encoding()
        var iterator = units.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                output.append(contentsOf: String(Character(scalar)).utf8)
            case .emptyInput:
                guard complete else {
                    throw invalid(name, after: output, path)
                }
                return output
            case .error:
                throw invalid(name, after: output, path)
            }
        }
    }

    private static func invalid(_ name: String, after text: [UInt8], _ path: String) -> JSONError {
        let location = text.withUnsafeBufferPointer { SourceLocation(path: path, utf8: $0, offset: $0.count) }
        return JSONError("not valid \(name): a code unit that is not text", at: location)
    }
}
