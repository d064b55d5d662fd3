/// Reading strings, numbers and the words `true`, `false` and `null`.
extension JSONReader {
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
        // Every whole number that fits `Int` was found above: this one is not whole, or too
        // large, however the `Double` rounds it (-9223372036854775809 rounds to Int.min).
        return .double(number)
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

extension UInt8 {
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
