extension RenderedMarkdown {
    /// Whether the document shows anything on a page: a word, a Chinese or Japanese character,
    /// or any element other than a paragraph (an image, a rule, raw HTML let through). Comments
    /// show nothing: those cmark leaves for raw HTML kept out (`<!-- raw HTML omitted -->`), and
    /// a writer's own (`<!-- to do -->`) when raw HTML is let through. `&nbsp;` alone shows
    /// nothing either.
    public var showsSomething: Bool {
        if wordCount > 0 || characterCount > 0 { return true }
        var html = html
        return html.withUTF8(Self.showsSomething)
    }

    /// ``showsSomething`` of HTML bytes, each read once: a tag is ASCII, and text between tags
    /// shows something unless it is white space (ASCII, or U+00A0 as cmark writes `&nbsp;`, or
    /// another Unicode space).
    private static func showsSomething(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var at = 0
        var textStart = 0
        func textShows(_ end: Int) -> Bool {
            guard textStart < end else { return false }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[textStart..<end]), as: UTF8.self)
            // Zero-width spaces, joiners and the byte order mark show nothing either.
            return text.unicodeScalars.contains {
                !$0.properties.isWhitespace && !(0x200B...0x200D).contains($0.value) && $0.value != 0x2060
                    && $0.value != 0xFEFF
            }
        }
        func starts(_ prefix: StaticString, at index: Int) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            return (0..<count).allSatisfy { bytes[index + $0] == prefix.utf8Start[$0] }
        }
        while at < bytes.count {
            guard bytes[at] == UInt8(ascii: "<") else {
                at += 1
                continue
            }
            if textShows(at) { return true }
            if starts("<!--", at: at) {
                var end = at + 4
                while end < bytes.count && !starts("-->", at: end) { end += 1 }
                guard end < bytes.count else { return false }
                at = end + 3
            } else if starts("<p>", at: at) {
                at += 3
            } else if starts("</p>", at: at) {
                at += 4
            } else {
                return true
            }
            textStart = at
        }
        return textShows(bytes.count)
    }
}
