import Foundation

/// Control characters a provider (or a hand) put in a cache entry's text, which pages, feeds
/// and terminals must not be given: removed when an answer is stored and when an entry is read.
extension WorkMetadata {
    /// Whether the entry's JSON may hold one: JSON writes them only as escapes (`\u001b`,
    /// `\b`, `\f`), so entries without such an escape are left as they are.
    static func mayHoldControlCharacters(_ json: Data) -> Bool {
        json.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            guard var position = buffer.baseAddress else { return false }
            let end = position + buffer.count
            // Backslashes are rare in an entry: jump from one to the next.
            while position < end, let found = memchr(position, Int32(UInt8(ascii: "\\")), end - position) {
                let next = UnsafeRawPointer(found) + 1
                guard next < end else { return false }
                let byte = next.load(as: UInt8.self)
                if byte == UInt8(ascii: "u") || byte == UInt8(ascii: "b") || byte == UInt8(ascii: "f") { return true }
                position = next + 1
            }
            return false
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
        entry.images = images.map { CachedImage(size: clean($0.size), file: $0.file, width: $0.width, height: $0.height) }
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
