import Foundation

/// A run of bytes of a text file sitegen writes for itself (the output folder's record, the
/// build manifest), valid only while the file's bytes are lent.
typealias RecordBytes = Slice<UnsafeBufferPointer<UInt8>>

/// Reads those files as UTF-8 bytes: line feeds and spaces are single bytes there, and a
/// rebuild with nothing changed reads one line per input and per output file (240,000 at
/// 100,000 reviews). Split as Swift `Character`s, grapheme by grapheme, they were a third of
/// such a rebuild.
enum RecordText {
    /// `lines`, each ended by a line feed, as one run of bytes made at its full size: joined
    /// as a string and then copied into `Data`, the 14 MB record of a 100,000-review site was
    /// made three times over in fresh memory at the end of the build.
    static func bytes(_ lines: [String]) -> Data {
        let count = lines.reduce(0) { $0 + $1.utf8.count + 1 }
        var data = Data(count: count)
        data.withUnsafeMutableBytes { out in
            var at = 0
            for var line in lines {
                line.withUTF8 { bytes in
                    UnsafeMutableRawBufferPointer(rebasing: out[at..<at + bytes.count]).copyMemory(
                        from: UnsafeRawBufferPointer(bytes))
                    at += bytes.count
                }
                out[at] = UInt8(ascii: "\n")
                at += 1
            }
        }
        return data
    }

    /// The lines of `text`, without their line feeds; a text ending in one ends in an empty line.
    static func lines(_ text: UnsafeBufferPointer<UInt8>) -> [RecordBytes] {
        fields(text[...], separator: UInt8(ascii: "\n"), maxSplits: .max)
    }

    /// `line` cut at each `separator` byte, at most `maxSplits` times (empty fields kept, as
    /// `split(separator:maxSplits:omittingEmptySubsequences: false)` keeps them).
    static func fields(_ line: RecordBytes, separator: UInt8 = UInt8(ascii: " "), maxSplits: Int) -> [RecordBytes] {
        var fields: [RecordBytes] = []
        var start = line.startIndex
        var index = start
        while index < line.endIndex {
            if line[index] == separator && fields.count < maxSplits {
                fields.append(line[start..<index])
                start = index + 1
            }
            index += 1
        }
        fields.append(line[start..<line.endIndex])
        return fields
    }
}

extension Slice where Base == UnsafeBufferPointer<UInt8> {
    /// The bytes as text (the whole file was checked to be UTF-8 before it was lent).
    var text: String { String(decoding: UnsafeBufferPointer(rebasing: self), as: UTF8.self) }

    /// Whether the bytes are those of `text`.
    func holds(_ text: String) -> Bool { elementsEqual(text.utf8) }

    /// A decimal number with an optional sign, as `Int(_:)` reads one; nil on anything else or on overflow.
    var int: Int? {
        var index = startIndex
        let negative = index < endIndex && self[index] == UInt8(ascii: "-")
        if index < endIndex && (negative || self[index] == UInt8(ascii: "+")) { index += 1 }
        guard index < endIndex else { return nil }
        var value = 0
        while index < endIndex {
            let digit = Int(self[index]) - 0x30
            guard digit >= 0 && digit <= 9 else { return nil }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowNext) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowTimes && !overflowNext else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// A decimal number without a sign below 2⁶⁴; nil on anything else.
    var unsigned: UInt64? {
        guard !isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in self {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowNext) = times.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflowTimes && !overflowNext else { return nil }
            value = next
        }
        return value
    }

    /// Up to 16 hexadecimal digits (either case) as a number; nil on anything else.
    var hexadecimal: UInt64? {
        guard !isEmpty && count <= 16 else { return nil }
        var value: UInt64 = 0
        for byte in self {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66: digit = byte - 0x61 + 10
            case 0x41...0x46: digit = byte - 0x41 + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
