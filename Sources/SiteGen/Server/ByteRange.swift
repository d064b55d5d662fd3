/// The `Range` request header (RFC 9110, section 14.2) for one range of bytes, which is what
/// browsers send to play audio or video and to resume a download.
enum ByteRange: Equatable {
    /// Send these bytes of the file with `206 Partial Content`.
    case part(Range<Int>)
    /// No byte of the file is asked for: `416 Range Not Satisfiable`.
    case unsatisfiable
    /// Send the whole file with `200`: the header is not one range of bytes this server reads
    /// (several ranges, another unit, a syntax error), which a server may ignore.
    case whole

    /// What to send of a file of `length` bytes for the header `header`.
    static func of(_ header: String, length: Int) -> ByteRange {
        var text = header.utf8[...]
        trim(&text)
        guard text.count > 6, text.prefix(6).map(lowercased).elementsEqual("bytes=".utf8) else { return .whole }
        text = text.dropFirst(6)
        trim(&text)
        // An empty file has no byte to send a part of, and several ranges are sent whole.
        guard length > 0, !text.contains(.comma), let dash = text.firstIndex(of: .dash) else { return .whole }
        var first = text[..<dash]
        var last = text[text.index(after: dash)...]
        trim(&first)
        trim(&last)
        if first.isEmpty {
            // `-500`: the last 500 bytes.
            guard let suffix = number(last) else { return .whole }
            guard suffix != 0 else { return .unsatisfiable }
            return .part(max(0, length - (suffix ?? length))..<length)
        }
        // A number too large for an `Int` is past the end of any file.
        guard let start = number(first).map({ $0 ?? Int.max }) else { return .whole }
        var end = Int.max
        if !last.isEmpty {
            guard let given = number(last) else { return .whole }
            end = given ?? Int.max
            // `bytes=5-3` is not a range at all.
            guard start <= end else { return .whole }
        }
        guard start < length else { return .unsatisfiable }
        return .part(start..<(min(end, length - 1) + 1))
    }

    /// Digits as a number: nil when `text` is not only digits, `.some(nil)` when they are more
    /// than an `Int` holds (always past the end of the file).
    private static func number(_ text: Substring.UTF8View) -> Int?? {
        guard !text.isEmpty else { return nil }
        var value = 0
        var overflow = false
        for byte in text {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            if overflow { continue }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            overflow = o1 || o2
            value = plus
        }
        return .some(overflow ? nil : value)
    }

    private static func trim(_ text: inout Substring.UTF8View) {
        while let byte = text.first, byte == .space || byte == .tab { text.removeFirst() }
        while let byte = text.last, byte == .space || byte == .tab { text.removeLast() }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}

private extension UInt8 {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let comma = UInt8(ascii: ",")
    static let dash = UInt8(ascii: "-")
}
