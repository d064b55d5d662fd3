/// Reads RFC 8259 JSON into a ``Value`` without recursion: open arrays and objects wait
/// on an explicit stack, so no input can overflow the thread's stack.
struct JSONReader {
    /// How deep arrays and objects may nest (Foundation's JSON reader stops at the same depth).
    static let depthLimit = 512

    let path: String
    /// The text as UTF-8, without a byte order mark.
    private let bytes: [UInt8]
    private var position = 0

    init(_ data: [UInt8], path: String) throws(JSONError) {
        self.path = path
        self.bytes = try Self.utf8(data, path: path)
    }

    mutating func read() throws(JSONError) -> Value {
        var stack: [Container] = []
        while true {
            skipWhitespace()
            var value: Value
            switch peek {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                guard stack.count < Self.depthLimit else {
                    throw failure("arrays and objects nest more than \(Self.depthLimit) deep", at: position)
                }
                let isArray = peek == UInt8(ascii: "[")
                position += 1
                skipWhitespace()
                if isArray {
                    if peek == UInt8(ascii: "]") {
                        position += 1
                        value = .array([])
                    } else {
                        stack.append(.array([]))
                        continue
                    }
                } else {
                    if peek == UInt8(ascii: "}") {
                        position += 1
                        value = .object(Object(pairs: []))
                    } else {
                        var members = Members()
                        try readKey(into: &members)
                        stack.append(.object(members))
                        continue
                    }
                }
            default:
                value = try readScalar()
            }
            // A value is complete: hand it to the containers it closes, up to one that goes on.
            while true {
                guard let container = stack.popLast() else {
                    skipWhitespace()
                    guard position == bytes.count else {
                        throw failure("not valid JSON: unexpected \(found(at: position)) after the value", at: position)
                    }
                    return value
                }
                skipWhitespace()
                switch container {
                case .array(var items):
                    items.append(value)
                    if peek == UInt8(ascii: ",") {
                        try skipComma(before: UInt8(ascii: "]"))
                        stack.append(.array(items))
                    } else if peek == UInt8(ascii: "]") {
                        position += 1
                        value = .array(items)
                        continue
                    } else {
                        throw failure(
                            "not valid JSON: expected \",\" or \"]\" after an array item, found \(found(at: position))",
                            at: position)
                    }
                case .object(var members):
                    members.pairs.append((members.pendingKey, value))
                    if peek == UInt8(ascii: ",") {
                        try skipComma(before: UInt8(ascii: "}"))
                        try readKey(into: &members)
                        stack.append(.object(members))
                    } else if peek == UInt8(ascii: "}") {
                        position += 1
                        value = .object(Object(pairs: members.pairs))
                        continue
                    } else {
                        throw failure(
                            "not valid JSON: expected \",\" or \"}\" after an object member, found \(found(at: position))",
                            at: position)
                    }
                }
                break
            }
        }
    }
}

/// An array or object whose closing bracket has not come yet.
private enum Container {
    case array([Value])
    case object(Members)
}

/// An open object's members so far and the key whose value comes next.
private struct Members {
    var pairs: [(key: String, value: Value)] = []
    /// Each key's offset, to point at the first when one repeats.
    var offsets: [String: Int] = [:]
    var pendingKey = ""
}

private extension JSONReader {
    var peek: UInt8 { position < bytes.count ? bytes[position] : 0 }

    func failure(_ message: String, at offset: Int) -> JSONError {
        JSONError(message, at: location(at: offset))
    }

    func location(at offset: Int) -> SourceLocation {
        bytes.withUnsafeBufferPointer { SourceLocation(path: path, utf8: $0, offset: offset) }
    }

    /// How an error names what it found at `offset`: a character, a word, or the end of the file.
    func found(at offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the file" }
        var end = offset
        while end < bytes.count, end - offset < 20, bytes[end].isWordByte { end += 1 }
        if end > offset { return "\"\(String(decoding: bytes[offset..<end], as: UTF8.self))\"" }
        var scalarEnd = offset + 1
        while scalarEnd < bytes.count, bytes[scalarEnd] & 0xC0 == 0x80 { scalarEnd += 1 }
        let character = String(decoding: bytes[offset..<scalarEnd], as: UTF8.self)
        guard let scalar = character.unicodeScalars.first, scalar.value >= 0x20, scalar.value != 0x7F else {
            return "U+" + hex(character.unicodeScalars.first?.value ?? 0)
        }
        return "\"\(character)\""
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// Steps over a comma that must be followed by another item, not by `closing`.
    mutating func skipComma(before closing: UInt8) throws(JSONError) {
        let comma = position
        position += 1
        skipWhitespace()
        if peek == closing {
            throw failure("not valid JSON: trailing comma before \"\(Character(Unicode.Scalar(closing)))\"", at: comma)
        }
    }

    /// Reads `"key":` into `members.pendingKey`; a key the object already has is an error.
    mutating func readKey(into members: inout Members) throws(JSONError) {
        skipWhitespace()
        let start = position
        guard peek == UInt8(ascii: "\"") else {
            throw failure("not valid JSON: expected a string key, found \(found(at: position))", at: position)
        }
        let key = try readString()
        if let first = members.offsets[key] {
            throw failure(
                "duplicate key \"\(key)\" (first at \(location(at: first).lineAndColumn))", at: start)
        }
        members.offsets[key] = start
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else {
            throw failure("not valid JSON: expected \":\" after a key, found \(found(at: position))", at: position)
        }
        position += 1
        members.pendingKey = key
    }

    mutating func readScalar() throws(JSONError) -> Value {
        switch peek {
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try readNumber()
        case UInt8(ascii: "t") where word("true"):
            return .bool(true)
        case UInt8(ascii: "f") where word("false"):
            return .bool(false)
        case UInt8(ascii: "n") where word("null"):
            return .null
        default:
            throw failure("not valid JSON: expected a value, found \(found(at: position))", at: position)
        }
    }

    /// Steps over `literal` when it comes next as a whole word.
    mutating func word(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let matches = literal.withUTF8Buffer { $0.elementsEqual(bytes[position..<position + count]) }
        guard matches, position + count == bytes.count || !bytes[position + count].isWordByte else { return false }
        position += count
        return true
    }

    mutating func readString() throws(JSONError) -> String {
        let open = position
        position += 1
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            position += 1
        }
        if peek == UInt8(ascii: "\"") && position < bytes.count {
            position += 1
            return String(decoding: bytes[start..<position - 1], as: UTF8.self)
        }
        var text = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try readEscape(into: &text)
            case ..<0x20:
                throw failure(
                    "not valid JSON: control character U+\(hex(UInt32(byte))) must be escaped in a string", at: position
                )
            default:
                text.append(byte)
                position += 1
            }
        }
        throw failure(
            "not valid JSON: unclosed string (opened at \(location(at: open).lineAndColumn))", at: bytes.count)
    }

    mutating func readEscape(into text: inout [UInt8]) throws(JSONError) {
        let escape = position
        position += 1
        let simple: UInt8
        switch peek {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            position += 1
            var code = try readHex(escape)
            if (0xD800...0xDBFF).contains(code) {
                guard peek == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u")
                else { throw loneSurrogate(code, escape) }
                position += 2
                let low = try readHex(position - 2)
                guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(code, escape) }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(code) {
                throw loneSurrogate(code, escape)
            }
            text.append(contentsOf: String(Character(Unicode.Scalar(code)!)).utf8)
            return
        default:
            throw failure("not valid JSON: invalid escape \"\\\(found(at: position))\" in a string", at: escape)
        }
        text.append(simple)
        position += 1
    }

    func loneSurrogate(_ code: UInt32, _ escape: Int) -> JSONError {
        failure(
            "not valid JSON: \"\\u\(hex(code).lowercased())\" is half of a surrogate pair, without its other half",
            at: escape)
    }

    /// Four hexadecimal digits after `\u` (the escape starting at `escape`).
    mutating func readHex(_ escape: Int) throws(JSONError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = peek.hexValue else {
                throw failure("not valid JSON: \"\\u\" needs four hexadecimal digits", at: escape)
            }
            code = code << 4 | UInt32(digit)
            position += 1
        }
        return code
    }

    mutating func readNumber() throws(JSONError) -> Value {
        let start = position
        if peek == UInt8(ascii: "-") { position += 1 }
        guard peek.isDigit else {
            throw failure("not valid JSON: expected a digit after \"-\", found \(found(at: position))", at: position)
        }
        let integerPart = position
        if peek == UInt8(ascii: "0") {
            position += 1
            if peek.isDigit { throw failure("not valid JSON: a number cannot start with 0 and go on", at: start) }
        } else {
            skipDigits()
        }
        var digits = Array(bytes[integerPart..<position])
        var scale = 0
        if peek == UInt8(ascii: ".") {
            position += 1
            guard peek.isDigit else {
                throw failure(
                    "not valid JSON: expected a digit after \".\", found \(found(at: position))", at: position)
            }
            let fraction = position
            skipDigits()
            digits += bytes[fraction..<position]
            scale = fraction - position
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            position += 1
            let negative = peek == UInt8(ascii: "-")
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard peek.isDigit else {
                throw failure(
                    "not valid JSON: expected a digit in the exponent, found \(found(at: position))", at: position)
            }
            var exponent = 0
            while peek.isDigit {
                exponent = min(exponent * 10 + Int(peek - UInt8(ascii: "0")), 1 << 40)
                position += 1
            }
            scale += negative ? -exponent : exponent
        }
        if let whole = Self.wholeNumber(digits, scale: scale, negative: bytes[start] == UInt8(ascii: "-")) {
            return .int(whole)
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let number = Double(text), number.isFinite else {
            let shown = text.count > 24 ? text.prefix(24) + "…" : Substring(text)
            throw failure("number \(shown) is too large (beyond ±1.8e308)", at: start)
        }
        return Int(exactly: number).map(Value.int) ?? .double(number)
    }

    /// `digits × 10^scale` when that is a whole number that fits `Int`, computed exactly
    /// (`777777777777777777.0` is 777777777777777777, which a `Double` cannot hold).
    static func wholeNumber(_ digits: [UInt8], scale: Int, negative: Bool) -> Int? {
        var significant = digits.drop { $0 == UInt8(ascii: "0") }
        var scale = scale
        while scale < 0, significant.last == UInt8(ascii: "0") {
            significant.removeLast()
            scale += 1
        }
        if significant.isEmpty { return 0 }
        guard scale >= 0, significant.count + scale <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for digit in significant { magnitude = magnitude * 10 + UInt64(digit - UInt8(ascii: "0")) }
        for _ in 0..<scale { magnitude *= 10 }
        if negative { return magnitude <= UInt64(Int.max) + 1 ? Int(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil
    }

    mutating func skipDigits() {
        while peek.isDigit { position += 1 }
    }

    func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

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

private extension UInt8 {
    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }

    /// Letters, digits, `_`, `.`, `+` and `-`: what a mistyped word or number is made of.
    var isWordByte: Bool {
        isDigit || (self | 0x20 >= UInt8(ascii: "a") && self | 0x20 <= UInt8(ascii: "z")) || self == UInt8(ascii: "_")
            || self == UInt8(ascii: ".") || self == UInt8(ascii: "+") || self == UInt8(ascii: "-")
    }

    var hexValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
