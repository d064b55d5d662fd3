import YAML

extension String {
    /// The text without the characters no page or feed may hold: control characters but tab,
    /// line feed and carriage return (what HTML calls forbidden code points, and XML 1.0 does
    /// not allow), DEL and the C1 controls, and the Unicode noncharacters (U+FDD0 to U+FDEF,
    /// U+FFFE and U+FFFF of every plane). The breaks a word processor pastes (vertical tab,
    /// form feed, U+0085 NEL) become spaces; the others U+FFFD, as feeds show them. Read as
    /// UTF-8 bytes, and returned as it is (not copied) when it has none, as nearly all text.
    func replacingUnshowable() -> String {
        withUnshowableReplaced ?? self
    }

    /// ``replacingUnshowable()`` but for NUL, left for the YAML reader to refuse at its place: a
    /// NUL in a text file is a damaged or binary file, not a character pasted from elsewhere.
    func replacingUnshowableButNUL() -> String {
        guard utf8.contains(0) else { return replacingUnshowable() }
        return split(separator: "\0", omittingEmptySubsequences: false).map { String($0).replacingUnshowable() }
            .joined(separator: "\0")
    }

    /// ``replacingUnshowable()`` when it changes anything, else nil.
    var withUnshowableReplaced: String? {
        var text = self
        guard text.withUTF8({ Self.firstUnshowable(in: $0) }) != nil else { return nil }
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch Self.kind(of: scalar.value) {
            case .shown: result.append(scalar)
            case .space: result.append(" ")
            case .replaced: result.append("\u{FFFD}")
            }
        }
        return String(result)
    }

    private enum Kind {
        case shown, space, replaced
    }

    private static func kind(of value: UInt32) -> Kind {
        switch value {
        case 0x09, 0x0A, 0x0D: .shown
        case 0x0B, 0x0C, 0x85: .space
        case 0..<0x20, 0x7F...0x9F, 0xFDD0...0xFDEF: .replaced
        case _ where value & 0xFFFE == 0xFFFE: .replaced
        default: .shown
        }
    }

    /// Where the first such character starts in valid UTF-8, or nil. Eight bytes at a time
    /// when none of them may start one (a control character, C2, EF, F0 to F4), as nearly all
    /// of a review's bytes, English or Korean; otherwise each byte is looked up in a table of
    /// those, and only those are read further.
    private static func firstUnshowable(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        return mayStart.withUnsafeBufferPointer { table in
            var at = 0
            while at < count {
                if at + 8 <= count, ByteChunk.holdsNoControlOrNoncharacterStart(ByteChunk.load(raw, at: at)) {
                    at += 8
                    continue
                }
                let end = Swift.min(at + 8, count)
                while at < end {
                    if table[Int(bytes[at])] != 0, let found = firstUnshowable(in: bytes, from: at, to: at + 1) {
                        return found
                    }
                    at += 1
                }
            }
            return nil
        }
    }

    /// 1 for each byte that may start a character ``firstUnshowable(in:)`` looks for.
    private static let mayStart: [UInt8] = (0...255).map { byte in
        switch byte {
        case 0x09, 0x0A, 0x0D: 0
        case 0..<0x20, 0x7F, 0xC2, 0xEF, 0xF0...0xF4: 1
        default: 0
        }
    }

    /// ``firstUnshowable(in:)`` for the characters starting in `start..<end`.
    private static func firstUnshowable(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        let count = bytes.count
        var at = start
        while at < end {
            let byte = bytes[at]
            switch byte {
            case 0x09, 0x0A, 0x0D, 0x20..<0x7F:
                break
            case 0..<0x20, 0x7F:
                return at
            case 0xC2:
                // U+0080 to U+009F: C2 80 to C2 9F.
                if at + 1 < count, bytes[at + 1] < 0xA0 { return at }
            case 0xEF:
                // U+FDD0 to U+FDEF (EF B7 90 to EF B7 AF), U+FFFE and U+FFFF (EF BF BE, EF BF BF).
                if at + 2 < count {
                    let second = bytes[at + 1]
                    let third = bytes[at + 2]
                    if (second == 0xB7 && (0x90...0xAF).contains(third)) || (second == 0xBF && third >= 0xBE) {
                        return at
                    }
                }
            case 0xF0...0xF4:
                // U+1FFFE, U+1FFFF… U+10FFFF: the last four bits of the plane set, then BF BE or BF BF.
                if at + 3 < count, bytes[at + 1] & 0x0F == 0x0F, bytes[at + 2] == 0xBF, bytes[at + 3] >= 0xBE {
                    return at
                }
            default:
                break
            }
            at += 1
        }
        return nil
    }
}

extension YAMLNode {
    /// The node with ``Swift/String/replacingUnshowable()`` applied to every scalar (keys too),
    /// positions kept: what front matter and `site.yml` say reaches pages and feeds.
    func replacingUnshowable() -> YAMLNode {
        withUnshowableReplaced ?? self
    }

    /// ``replacingUnshowable()`` when it changes anything, else nil (nothing copied).
    private var withUnshowableReplaced: YAMLNode? {
        switch self {
        case .scalar(let text, let plain, let position):
            return text.withUnshowableReplaced.map { .scalar($0, plain: plain, at: position) }
        case .sequence(let items, let position):
            var changed: [YAMLNode]?
            for (index, item) in items.enumerated() {
                guard let clean = item.withUnshowableReplaced else { continue }
                if changed == nil { changed = items }
                changed?[index] = clean
            }
            return changed.map { .sequence($0, at: position) }
        case .mapping(let pairs, let position):
            var changed: [YAMLPair]?
            for (index, pair) in pairs.enumerated() {
                let key = pair.key.withUnshowableReplaced
                let value = pair.value.withUnshowableReplaced
                guard key != nil || value != nil else { continue }
                if changed == nil { changed = pairs }
                changed?[index] = YAMLPair(key: key ?? pair.key, value: value ?? pair.value)
            }
            return changed.map { .mapping($0, at: position) }
        }
    }
}
