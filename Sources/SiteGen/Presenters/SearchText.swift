import Foundation

/// How search reads text, the same way in the build (here) and in the browser (`search.js`):
/// words are runs of letters and digits; each becomes a key that is lowercase, compatibility
/// decomposed (NFKD: Hangul syllables become their jamo, so "기생" is a prefix of "기생충"'s key
/// and a lone ㄱ is the initial consonant ᄀ), without accents ("Élan" → "elan"), and at most
/// ``maxLength`` scalars long. Keys of a single scalar are indexed in names only (the "2" of
/// "Dekalog 2", the "X" of "Malcolm X"), not in text, where every review has an "a"; characters
/// outside the Basic Multilingual Plane are left out (so UTF-8 order is JavaScript's order).
enum SearchText {
    /// The longest key, in Unicode scalars: longer words are cut, so queries are cut the same way.
    static let maxLength = 24

    /// Hands each key of `text` to `keys`, those of a single scalar too when `singles` (names).
    /// ASCII and Hangul take a fast path; other letters go through Foundation's lowercasing and
    /// NFKD one at a time.
    static func keys<Sink: SearchKeySink>(_ text: String, singles: Bool = false, into keys: inout Sink) {
        var text = text
        text.withUTF8 { Self.keys(utf8: $0, html: false, singles: singles, into: &keys) }
    }

    /// The keys of the text of HTML that cmark wrote, read in one pass: a tag ends a word, a
    /// character reference counts as its character (what ``keys(_:into:)`` finds in the text
    /// left once tags become spaces and references their characters).
    static func keys<Sink: SearchKeySink>(html: String, into keys: inout Sink) {
        var html = html
        html.withUTF8 { Self.keys(utf8: $0, html: true, singles: false, into: &keys) }
    }

    /// ``keys(_:into:)`` over valid UTF-8, decoded here: most of it is ASCII.
    private static func keys<Sink: SearchKeySink>(
        utf8 bytes: UnsafeBufferPointer<UInt8>, html: Bool, singles: Bool, into keys: inout Sink
    ) {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: Word.bufferSize)
        defer { buffer.deallocate() }
        var word = Word(buffer: buffer, shortest: singles ? 1 : 2)
        var at = 0
        let end = bytes.count
        while at < end {
            let lead = bytes[at]
            if lead < 0x80 {
                if Self.isLetterOrDigit(lead) {
                    // A run of ASCII letters and digits, most of every review: read eight bytes
                    // at a time, with the word's counts held in registers (a branch on each
                    // byte mispredicted at the end of every word).
                    var (count, length) = (word.count, word.length)
                    let raw = UnsafeRawPointer(bytes.baseAddress!)
                    while at + 8 <= end {
                        let chunk = ByteChunk.load(raw, at: at)
                        let run = ByteChunk.letterOrDigitRun(chunk)
                        if length < maxLength {
                            // Lower case: setting bit 5 lowers A-Z and leaves a-z and 0-9 as they
                            // are. The bytes after the run go past the word's end, into room
                            // the buffer has for them.
                            UnsafeMutableRawPointer(word.buffer + count).storeBytes(
                                of: (chunk | 0x2020_2020_2020_2020).littleEndian, as: UInt64.self)
                            let taken = Swift.min(run, maxLength - length)
                            count += taken
                            length += taken
                        }
                        at += run
                        if run < 8 { break }
                    }
                    // The last bytes, fewer than eight (after a run cut short, this stops at once).
                    while at < end && Self.isLetterOrDigit(bytes[at]) {
                        if length < maxLength {
                            word.buffer[count] = bytes[at] | 0x20
                            count += 1
                            length += 1
                        }
                        at += 1
                    }
                    (word.count, word.length) = (count, length)
                    continue
                }
                at += 1
                switch lead {
                case UInt8(ascii: "<") where html:
                    while at < end && bytes[at] != UInt8(ascii: ">") { at += 1 }
                    at += 1
                    word.close(into: &keys)
                case UInt8(ascii: "&") where html:
                    if let (decoded, next) = HTMLText.entity(in: bytes, after: at) {
                        at = next
                        take(decoded.value, &word, &keys)
                    } else {
                        word.close(into: &keys)
                    }
                default: word.close(into: &keys)
                }
                continue
            }
            if lead < 0xE0 {
                take(UInt32(lead & 0x1F) << 6 | UInt32(bytes[at + 1] & 0x3F), &word, &keys)
                at += 2
            } else if lead < 0xF0 {
                let value = UInt32(lead & 0x0F) << 12 | UInt32(bytes[at + 1] & 0x3F) << 6 | UInt32(bytes[at + 2] & 0x3F)
                if value &- 0xAC00 < 11_172 {
                    // A Hangul syllable, the whole of a Korean review's words: read here, not
                    // through `take`, a call per syllable.
                    word.append(syllable: value &- 0xAC00)
                } else {
                    take(value, &word, &keys)
                }
                at += 3
            } else {
                // Outside the Basic Multilingual Plane: never part of a key.
                at += 4
                word.close(into: &keys)
            }
        }
        word.close(into: &keys)
    }

    /// Whether `byte` is an ASCII letter or digit.
    @inline(__always)
    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10 || (byte | 0x20) &- 0x61 < 26
    }

    /// Reads the scalar `value` into the word, or ends the word.
    @inline(__always)
    private static func take<Sink: SearchKeySink>(_ value: UInt32, _ word: inout Word, _ keys: inout Sink) {
        switch value {
        case 0x61...0x7A, 0x30...0x39:
            word.append(byte: UInt8(value))
        case 0x41...0x5A:
            word.append(byte: UInt8(value + 32))
        case 0..<0x80, 0x1_0000...:
            // Other ASCII, and characters outside the Basic Multilingual Plane.
            word.close(into: &keys)
        case 0xAC00...0xD7A3:
            word.append(syllable: value - 0xAC00)
        case 0x2000...0x206F:
            // General Punctuation (curly quotes, dashes, spaces, the ellipsis) holds no letter,
            // digit or mark: it ends a word, as the lookups below would find, without them.
            word.close(into: &keys)
        default:
            let scalar = Unicode.Scalar(value)!
            if scalar.isMark {
                return
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                for part in String(scalar).lowercased().decomposedStringWithCompatibilityMapping.unicodeScalars {
                    if let folded = folded[part] {
                        for piece in folded.unicodeScalars { word.append(piece) }
                    } else if !part.isMark && part.value <= 0xFFFF {
                        word.append(part)
                    }
                }
            } else {
                word.close(into: &keys)
            }
        }
    }

    /// The word being read: its UTF-8 bytes, in a buffer of the reading (``capacity`` bytes,
    /// a multiple of eight, and eight more that a run of ASCII is written over), and its
    /// length in scalars.
    private struct Word {
        let buffer: UnsafeMutablePointer<UInt8>
        /// The fewest scalars a key has (at least 1).
        let shortest: Int
        var count = 0
        var length = 0

        /// The most bytes a word can hold: ``maxLength`` scalars of the Basic Multilingual Plane.
        static let capacity = maxLength * 3
        /// The buffer's size: ``capacity``, and the eight bytes a run of ASCII stores at once
        /// past the word's end.
        static let bufferSize = capacity + 8

        @inline(__always)
        mutating func put(_ byte: UInt8) {
            buffer[count] = byte
            count += 1
        }

        mutating func append(byte: UInt8) {
            guard length < maxLength else { return }
            put(byte)
            length += 1
        }

        mutating func append(_ scalar: Unicode.Scalar) {
            let value = scalar.value
            guard length < maxLength, value <= 0xFFFF else { return }
            // UTF-8 written out (every Hangul syllable of a Korean text comes here as two or
            // three jamo).
            if value < 0x80 {
                put(UInt8(value))
            } else if value < 0x800 {
                put(UInt8(0xC0 | value >> 6))
                put(UInt8(0x80 | value & 0x3F))
            } else {
                put(UInt8(0xE0 | value >> 12))
                put(UInt8(0x80 | value >> 6 & 0x3F))
                put(UInt8(0x80 | value & 0x3F))
            }
            length += 1
        }

        /// Appends Hangul syllable number `index` (its scalar less U+AC00) as its initial, vowel
        /// and final jamo (what NFD gives), each of them U+1100 to U+11FF: three bytes, E1 84 80
        /// to E1 87 BF.
        @inline(__always)
        mutating func append(syllable index: UInt32) {
            appendJamo(0x1100 + index / 588)
            appendJamo(0x1161 + (index % 588) / 28)
            if index % 28 != 0 { appendJamo(0x11A7 + index % 28) }
        }

        @inline(__always)
        private mutating func appendJamo(_ value: UInt32) {
            guard length < maxLength else { return }
            buffer[count] = 0xE1
            buffer[count + 1] = UInt8(truncatingIfNeeded: 0x80 | value >> 6 & 0x3F)
            buffer[count + 2] = UInt8(truncatingIfNeeded: 0x80 | value & 0x3F)
            count += 3
            length += 1
        }

        /// Ends the word, handing it to `keys` unless it is shorter than ``shortest``.
        mutating func close<Sink: SearchKeySink>(into keys: inout Sink) {
            if length >= shortest { keys.add(UnsafeBufferPointer(start: buffer, count: count), hash: tableHash) }
            count = 0
            length = 0
        }

        /// A hash of the word's bytes for tables in memory (not ``SearchText/hash(_:)``, which
        /// the index's files depend on): eight bytes at a time, the first byte lowest and the
        /// bytes past the word masked, where a byte-by-byte hash waits on a multiplication for
        /// each byte of every word read.
        var tableHash: UInt64 {
            @inline(__always) get {
                let raw = UnsafeRawPointer(buffer)
                var hash = UInt64(count) &* 0x9E37_79B9_7F4A_7C15
                var at = 0
                while at < count {
                    hash = (hash ^ ByteChunk.load(raw, at: at, count: count)) &* 0xFF51_AFD7_ED55_8CCD
                    hash ^= hash >> 29
                    at += 8
                }
                return hash
            }
        }
    }

    /// A stable hash of a key (FNV-1a over its UTF-8, then mixed), the same on every run and machine.
    static func hash(_ key: SearchKey) -> UInt64 {
        hash(key.bytes)
    }

    static func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { hash($0) }
    }

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        mix(bytes.reduce(fnvStart, fnv))
    }

    static let fnvStart: UInt64 = 0xcbf2_9ce4_8422_2325

    /// One byte of FNV-1a.
    @inline(__always)
    static func fnv(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    /// The mixing that ends ``hash(_:)``: FNV's high bits spread over the low ones.
    @inline(__always)
    static func mix(_ fnv: UInt64) -> UInt64 {
        var hash = fnv
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return hash
    }

    /// Letters that do not decompose but that readers type without their stroke or ligature.
    private static let folded: [Unicode.Scalar: String] = [
        "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "đ": "d", "ł": "l", "ı": "i", "þ": "th", "ð": "d", "ħ": "h",
    ]
}

/// Where ``SearchText`` hands the keys it reads (generic, so that each kind of sink gets code
/// of its own rather than a closure call per word).
protocol SearchKeySink {
    /// Takes the key `bytes` (lent for the call: a sink that keeps them copies them) with a
    /// hash of them for a table in memory, the same for the same bytes in one run. The buffer
    /// may be read up to the next multiple of eight bytes (``TermTable`` compares keys eight
    /// bytes at a time).
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64)
}

extension Set: SearchKeySink where Element == SearchKey {
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) {
        insert(SearchKey(bytes: Array(bytes)))
    }
}

/// A search key, compared and hashed by its UTF-8 bytes (not by Unicode canonical equivalence,
/// which would normalize every Hangul key on every comparison), in UTF-8 order, which for keys
/// within the Basic Multilingual Plane is JavaScript's UTF-16 order.
struct SearchKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The key's UTF-8 bytes (at most 72 of them).
    let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    var description: String { text }

    static func < (lhs: SearchKey, rhs: SearchKey) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
