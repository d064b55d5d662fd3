import Foundation

/// Reading a cache entry without `JSONDecoder`, which was half of the time a build spends
/// on the metadata cache (every review's entry is read on every full build).
extension WorkMetadata {
    /// The entry in `bytes` when they are UTF-8 JSON of the shape the cache writes: one object
    /// of the entry's own keys, each once and with its own type, numbers written as whole
    /// numbers that fit `Int`, keys without escapes. Nil for anything else (another key, another
    /// encoding, a byte order mark, a fraction or an exponent, a repeated key, text that is not
    /// JSON), which the cache then decodes with `JSONDecoder`, so that what it accepts and the
    /// errors it reports stay `JSONDecoder`'s. A test holds that whatever this reads,
    /// `JSONDecoder` reads the same.
    init?(cachedJSON bytes: [UInt8]) {
        var reader = EntryReader(bytes: bytes)
        do throws(EntryReader.Stop) {
            self = try reader.entry()
            try reader.end()
        } catch {
            return nil
        }
    }
}

/// A reader of exactly the JSON an entry needs, which stops at anything else.
private struct EntryReader {
    struct Stop: Error {}

    let bytes: [UInt8]
    var at = 0

    mutating func entry() throws(Stop) -> WorkMetadata {
        var entry = WorkMetadata(kind: "", source: "", id: "", title: "")
        let found = try members(WorkMetadata.CodingKeys.self) { reader, key throws(Stop) in
            switch key {
            case .kind: entry.kind = try reader.string()
            case .source: entry.source = try reader.string()
            case .id: entry.id = try reader.string()
            case .title: entry.title = try reader.string()
            case .originalTitle: entry.originalTitle = try reader.optionalString()
            case .overview: entry.overview = try reader.optionalString()
            case .releaseDate: entry.releaseDate = try reader.optionalString()
            case .year: entry.year = try reader.optionalInt()
            case .genres: entry.genres = try reader.strings()
            case .directors: entry.directors = try reader.strings()
            case .authors: entry.authors = try reader.strings()
            case .cast: entry.cast = try reader.list { r throws(Stop) in try r.castMember() }
            case .runtime: entry.runtime = try reader.optionalInt()
            case .pages: entry.pages = try reader.optionalInt()
            case .publisher: entry.publisher = try reader.optionalString()
            case .isbn: entry.isbn = try reader.optionalString()
            case .images: entry.images = try reader.list { r throws(Stop) in try r.image() }
            case .series: entry.series = reader.null() ? nil : try reader.series()
            }
        }
        guard found.contains(WorkMetadata.CodingKeys.required) else { throw Stop() }
        return entry
    }

    mutating func castMember() throws(Stop) -> CastMember {
        var member = CastMember(name: "")
        let found = try members(CastKey.self) { reader, key throws(Stop) in
            switch key {
            case .name: member.name = try reader.string()
            case .character: member.character = try reader.optionalString()
            }
        }
        guard found.contains(CastKey.required) else { throw Stop() }
        return member
    }

    mutating func image() throws(Stop) -> CachedImage {
        var image = CachedImage(size: "", file: "", width: 0, height: 0)
        let found = try members(ImageKey.self) { reader, key throws(Stop) in
            switch key {
            case .size: image.size = try reader.string()
            case .file: image.file = try reader.string()
            case .width: image.width = try reader.int()
            case .height: image.height = try reader.int()
            }
        }
        guard found.contains(ImageKey.required) else { throw Stop() }
        return image
    }

    mutating func series() throws(Stop) -> SeriesFacts {
        var series = SeriesFacts()
        _ = try members(SeriesFacts.CodingKeys.self) { reader, key throws(Stop) in
            switch key {
            case .creators: series.creators = try reader.strings()
            case .networks: series.networks = try reader.strings()
            case .seasons: series.seasons = try reader.optionalInt()
            case .episodes: series.episodes = try reader.optionalInt()
            case .lastAirDate: series.lastAirDate = try reader.optionalString()
            }
        }
        return series
    }

    /// An object's members, each handed to `member` with its key, which must be one of `Key`'s
    /// and written without escapes; a key met twice stops. Returns the keys met.
    mutating func members<Key: EntryKey>(
        _: Key.Type, _ member: (inout EntryReader, Key) throws(Stop) -> Void
    ) throws(Stop) -> KeysMet<Key> {
        try expect(UInt8(ascii: "{"))
        var met = KeysMet<Key>()
        if next == UInt8(ascii: "}") {
            at += 1
            return met
        }
        while true {
            guard let key = met.meet(bytes[try plainKey()]) else { throw Stop() }
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            if next == UInt8(ascii: ",") {
                at += 1
                continue
            }
            try expect(UInt8(ascii: "}"))
            return met
        }
    }

    /// A list, or an empty one for `null`, as `decodeIfPresent(...) ?? []` reads it.
    mutating func list<Element>(_ element: (inout EntryReader) throws(Stop) -> Element) throws(Stop) -> [Element] {
        if null() { return [] }
        try expect(UInt8(ascii: "["))
        var items: [Element] = []
        if next == UInt8(ascii: "]") {
            at += 1
            return items
        }
        while true {
            items.append(try element(&self))
            if next == UInt8(ascii: ",") {
                at += 1
                continue
            }
            try expect(UInt8(ascii: "]"))
            return items
        }
    }

    mutating func strings() throws(Stop) -> [String] {
        try list { reader throws(Stop) in try reader.string() }
    }

    /// A string, or nil for `null`, as `decodeIfPresent` reads it.
    mutating func optionalString() throws(Stop) -> String? {
        null() ? nil : try string()
    }

    /// A whole number, or nil for `null`, as `decodeIfPresent` reads it.
    mutating func optionalInt() throws(Stop) -> Int? {
        null() ? nil : try int()
    }

    /// Whether a `null` comes next (then read).
    mutating func null() -> Bool {
        guard next == UInt8(ascii: "n"), bytes[at...].starts(with: "null".utf8) else { return false }
        at += 4
        return true
    }

    /// A whole number written as digits that fits `Int` (a fraction or an exponent after
    /// them stops at the next `expect`, as nothing but a comma or a bracket may follow).
    mutating func int() throws(Stop) -> Int {
        let negative = next == UInt8(ascii: "-")
        if negative { at += 1 }
        guard at < bytes.count, bytes[at].isDigit, !(bytes[at] == UInt8(ascii: "0") && isDigit(at + 1)) else {
            throw Stop()
        }
        var number = 0
        while at < bytes.count, bytes[at].isDigit {
            let digit = Int(bytes[at] &- UInt8(ascii: "0"))
            let (times, overflow) = number.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflow, !overflowAgain else { throw Stop() }
            number = sum
            at += 1
        }
        return number
    }

    /// A string: valid UTF-8 without control characters, with JSON's escapes (a `\u` escape of
    /// half a surrogate pair stops).
    mutating func string() throws(Stop) -> String {
        try expect(UInt8(ascii: "\""))
        let start = at
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                at += 1
                return try Self.text(bytes[start..<at - 1])
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw Stop() }
            at += 1
        }
        var text = Array(bytes[start..<at])
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try Self.text(text[...])
            case UInt8(ascii: "\\"):
                try escape(into: &text)
            case ..<0x20:
                throw Stop()
            default:
                text.append(byte)
            }
        }
        throw Stop()
    }

    /// Where a key's text is: a string without escapes or control characters.
    mutating func plainKey() throws(Stop) -> Range<Int> {
        try expect(UInt8(ascii: "\""))
        let start = at
        while at < bytes.count, bytes[at] != UInt8(ascii: "\"") {
            guard bytes[at] != UInt8(ascii: "\\"), bytes[at] >= 0x20 else { throw Stop() }
            at += 1
        }
        guard at < bytes.count else { throw Stop() }
        at += 1
        return start..<at - 1
    }

    mutating func escape(into text: inout [UInt8]) throws(Stop) {
        guard at < bytes.count else { throw Stop() }
        let letter = bytes[at]
        at += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(letter)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var code = try hex()
            if (0xD800..<0xDC00).contains(code) {
                guard bytes[at...].starts(with: "\\u".utf8) else { throw Stop() }
                at += 2
                let low = try hex()
                guard (0xDC00..<0xE000).contains(low) else { throw Stop() }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw Stop() }
            UTF8.encode(scalar) { text.append($0) }
        default:
            throw Stop()
        }
    }

    /// Four hexadecimal digits.
    mutating func hex() throws(Stop) -> UInt32 {
        guard at + 4 <= bytes.count else { throw Stop() }
        var code: UInt32 = 0
        for byte in bytes[at..<at + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Stop()
            }
            code = code << 4 | UInt32(digit)
        }
        at += 4
        return code
    }

    static func text(_ bytes: ArraySlice<UInt8>) throws(Stop) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Stop() }
        return text
    }

    /// The byte after any whitespace, which is skipped (0 at the end).
    var next: UInt8 {
        mutating get {
            while at < bytes.count {
                switch bytes[at] {
                case 0x20, 0x0A, 0x0D, 0x09: at += 1
                case let byte: return byte
                }
            }
            return 0
        }
    }

    mutating func expect(_ byte: UInt8) throws(Stop) {
        guard next == byte, at < bytes.count else { throw Stop() }
        at += 1
    }

    mutating func end() throws(Stop) {
        guard next == 0, at == bytes.count else { throw Stop() }
    }

    func isDigit(_ index: Int) -> Bool { index < bytes.count && bytes[index].isDigit }
}

/// A type of an entry's keys, with their spellings made once (reading them from each key of
/// every member of every entry was a tenth of the reading).
private protocol EntryKey: CodingKey, CaseIterable {
    static var spellings: KeySpellings<Self> { get }
}

/// A key type's cases and how each is written, as UTF-8.
private struct KeySpellings<Key: CodingKey & CaseIterable>: Sendable where Key: Sendable {
    let keys: [Key]
    let names: [[UInt8]]

    init() {
        keys = Array(Key.allCases)
        names = keys.map { Array($0.stringValue.utf8) }
        // An entry's types have at most 18 keys, within the 64 bits of ``KeysMet``.
        precondition(keys.count <= 64)
    }

    /// The place in `keys` of the key written `name`.
    func index(of name: ArraySlice<UInt8>) -> Int? {
        names.firstIndex { $0.count == name.count && $0.elementsEqual(name) }
    }

    /// One bit for each of `wanted`, by its place in `keys`.
    func mask(_ wanted: [Key]) -> UInt64 {
        wanted.reduce(0) { mask, key in
            mask | keys.firstIndex { $0.stringValue == key.stringValue }.map { UInt64(1) << $0 }!
        }
    }
}

extension WorkMetadata.CodingKeys: EntryKey {
    fileprivate static let spellings = KeySpellings<Self>()
    /// The keys an entry must have.
    fileprivate static let required = spellings.mask([.kind, .source, .id, .title])
}

extension SeriesFacts.CodingKeys: EntryKey {
    fileprivate static let spellings = KeySpellings<Self>()
}

/// Which of an object's keys were met, one bit each by its place in `Key.allCases`.
private struct KeysMet<Key: EntryKey> {
    private var bits: UInt64 = 0

    /// The key written `name`, now met; nil when no key is written so or it was met already.
    mutating func meet(_ name: ArraySlice<UInt8>) -> Key? {
        let spellings = Key.spellings
        guard let index = spellings.index(of: name), bits & UInt64(1) << index == 0 else { return nil }
        bits |= UInt64(1) << index
        return spellings.keys[index]
    }

    /// Whether every key of `mask` (``KeySpellings/mask(_:)``) was met.
    func contains(_ mask: UInt64) -> Bool {
        bits & mask == mask
    }
}

/// The keys of a cast member and of an image, as their synthesized `Decodable` reads them.
private enum CastKey: String, CodingKey, CaseIterable, EntryKey {
    case name, character
    static let spellings = KeySpellings<Self>()
    static let required = spellings.mask([.name])
}

private enum ImageKey: String, CodingKey, CaseIterable, EntryKey {
    case size, file, width, height
    static let spellings = KeySpellings<Self>()
    static let required = spellings.mask([.size, .file, .width, .height])
}

private extension UInt8 {
    var isDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
}
