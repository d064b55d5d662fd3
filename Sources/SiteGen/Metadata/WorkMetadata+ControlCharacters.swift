import Foundation

/// Control characters a provider (or a hand) put in a cache entry's text, which pages, feeds
/// and terminals must not be given: removed when an answer is stored and when an entry is read.
extension WorkMetadata {
    /// Whether the entry's JSON may hold one, written as an escape (`\u001b`, `\b`, `\f`) or
    /// as it is: a C0 control byte but JSON's whitespace (a JSON reader refuses them in a
    /// string, but the check costs nothing), DEL, or the UTF-8 of a C1 control (`C2 80` to
    /// `C2 9F`). Entries without one, nearly all, are left as they are. It runs for every
    /// review on every build, so it passes over eight bytes at a time where they are plain
    /// ASCII, and looks each other byte up in a table; only the bytes that may start one (`\`,
    /// `C2` and the control bytes) are looked at further.
    static func mayHoldControlCharacters(_ json: Data) -> Bool {
        json.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            return mayStartControl.withUnsafeBufferPointer { table in
                let count = bytes.count
                guard let base = raw.baseAddress else { return false }
                var at = 0
                while at < count {
                    // Printable ASCII without a backslash, most of an entry, eight bytes at a time.
                    if at + 8 <= count {
                        let chunk = ByteChunk.load(base, at: at)
                        if ByteChunk.isPrintableASCII(chunk) && !ByteChunk.contains(UInt8(ascii: "\\"), chunk) {
                            at += 8
                            continue
                        }
                    }
                    let byte = bytes[at]
                    guard table[Int(byte)] else {
                        at += 1
                        continue
                    }
                    let next = at + 1 < count ? bytes[at + 1] : 0
                    switch byte {
                    case UInt8(ascii: "\\"):
                        if next == UInt8(ascii: "u") || next == UInt8(ascii: "b") || next == UInt8(ascii: "f") {
                            return true
                        }
                        // The escaped character is skipped: `\\u` is a backslash and a letter.
                        at += 2
                    case 0xC2:
                        if (0x80...0x9F).contains(next) { return true }
                        at += 1
                    default:
                        return true
                    }
                }
                return false
            }
        }
    }

    /// For each byte, whether ``mayHoldControlCharacters(_:)`` must look at it.
    private static let mayStartControl: [Bool] = (0...255).map { byte in
        switch byte {
        case 0x09, 0x0A, 0x0D, 0x20: false
        case 0..<0x20, 0x7F, 0xC2, 0x5C: true
        default: false
        }
    }

    /// The entry with control characters (but tab and line breaks) removed from every text it
    /// holds: names and overview, and dates, ids and image sizes, which pages and feeds show
    /// too.
    func removingControlCharacters() -> WorkMetadata {
        let clean = { (text: String) -> String in
            guard text.unicodeScalars.contains(where: Self.isControl) else { return text }
            var kept = String.UnicodeScalarView()
            kept.append(contentsOf: text.unicodeScalars.lazy.filter { !Self.isControl($0) })
            return String(kept)
        }
        var entry = self
        entry.kind = clean(kind)
        entry.source = clean(source)
        entry.id = clean(id)
        entry.title = clean(title)
        entry.originalTitle = originalTitle.map(clean)
        entry.overview = overview.map(clean)
        entry.releaseDate = releaseDate.map(clean)
        entry.genres = genres.map(clean)
        entry.directors = directors.map(clean)
        entry.authors = authors.map(clean)
        entry.cast = cast.map { CastMember(name: clean($0.name), character: $0.character.map(clean)) }
        entry.publisher = publisher.map(clean)
        entry.isbn = isbn.map(clean)
        entry.images = images.map {
            CachedImage(size: clean($0.size), file: $0.file, width: $0.width, height: $0.height)
        }
        entry.series?.creators = series?.creators.map(clean) ?? []
        entry.series?.networks = series?.networks.map(clean) ?? []
        entry.series?.lastAirDate = series?.lastAirDate.map(clean)
        return entry
    }

    /// Whether `scalar` is a control character but tab and the line breaks: C0, DEL or C1.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0..<0x20, 0x7F...0x9F: true
        default: false
        }
    }
}
