import Foundation

/// Finds the links and element ids of an HTML page (or the links of a sitemap or Atom feed)
/// in one pass over its bytes: a tokenizer for tags and attributes, not a full HTML parser.
/// Comments (ended where browsers end them), `<script>`, `<style>`, `<textarea>` and
/// `<title>` contents are skipped; attribute values have their character references decoded.
enum HTMLScanner {
    /// Elements whose contents are text up to their end tag: raw text (scripts, styles) and
    /// escapable raw text (a title, a textarea's text), where `<a href>` is not a link.
    static func holdsNoTags(_ name: String) -> Bool {
        switch name {
        case "script", "style", "textarea", "title": true
        default: false
        }
    }

    /// What a page links to and which fragments it offers.
    struct Page: Sendable {
        var links: [FoundLink] = []
        /// Compared as bytes, as browsers compare a fragment with them.
        var ids: Set<ByteString> = []
    }

    /// Scans HTML bytes.
    static func scan(_ bytes: UnsafeRawBufferPointer) -> Page {
        var scanner = Scanner(bytes: bytes)
        var page = Page()
        scanner.run(into: &page)
        return page
    }

    /// Scans a sitemap or feed: `<loc>` texts, `<link href>`, and the escaped HTML of entries'
    /// `<content>` and `<summary>`.
    static func scanXML(_ bytes: UnsafeRawBufferPointer) -> Page {
        var scanner = Scanner(bytes: bytes)
        scanner.isXML = true
        var page = Page()
        scanner.run(into: &page)
        return page
    }
}

private struct Scanner {
    let bytes: UnsafeRawBufferPointer
    var index = 0
    var isXML = false

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    mutating func run(into page: inout HTMLScanner.Page) {
        let count = bytes.count
        while index < count {
            guard let open = find(0x3C, from: index) else { return }  // <
            index = open + 1
            guard index < count else { return }
            let next = bytes[index]
            if next == 0x21 {  // !
                if starts(with: "!--", at: index) {
                    index = isXML ? find("-->", from: index + 3).map { $0 + 3 } ?? count : commentEnd(from: index + 3)
                } else if starts(with: "![CDATA[", at: index) {
                    index = find("]]>", from: index + 8).map { $0 + 3 } ?? count
                } else {
                    index = find(0x3E, from: index).map { $0 + 1 } ?? count
                }
                continue
            }
            if next == 0x2F || next == 0x3F {  // </ or <?
                index = find(0x3E, from: index).map { $0 + 1 } ?? count
                continue
            }
            guard isLetter(next) else { continue }
            let (name, attributes, selfClosing) = tag()
            handle(name, attributes, into: &page)
            // Raw text (scripts, styles) and escapable raw text (a title, a textarea's text) hold no tags.
            if !isXML && !selfClosing && HTMLScanner.holdsNoTags(name) {
                index = findClosing(name) ?? count
            } else if isXML && (name == "loc" || ((name == "content" || name == "summary") && !selfClosing)) {
                let end = find(0x3C, from: index) ?? count
                let text = decoded(index, end).trimmingCharacters(in: .whitespacesAndNewlines)
                if name == "loc" {
                    if !text.isEmpty { page.links.append(FoundLink(url: text, kind: .link)) }
                } else if attributes.type == "html" {
                    var inner = text
                    let entry = inner.withUTF8 { HTMLScanner.scan(UnsafeRawBufferPointer($0)) }
                    page.links += entry.links.map {
                        FoundLink(url: $0.url, kind: $0.kind, inEntry: true, base: attributes.xmlBase)
                    }
                }
                index = end
            }
        }
    }

    /// Reads a start tag after its `<`: the lowercased name, the attributes kept (values
    /// decoded) and whether it ends with `/>`.
    mutating func tag() -> (String, TagAttributes, Bool) {
        let count = bytes.count
        let nameStart = index
        while index < count, !isSpace(bytes[index]), bytes[index] != 0x3E, bytes[index] != 0x2F { index += 1 }
        let name = lowercased(nameStart, index)
        var attributes = TagAttributes()
        var selfClosing = false
        while index < count {
            let byte = bytes[index]
            if isSpace(byte) {
                index += 1
                continue
            }
            if byte == 0x3E {
                index += 1
                return (name, attributes, selfClosing)
            }
            if byte == 0x2F {
                selfClosing = true
                index += 1
                continue
            }
            selfClosing = false
            let attributeStart = index
            while index < count, !isSpace(bytes[index]), bytes[index] != 0x3D, bytes[index] != 0x3E,
                bytes[index] != 0x2F || index == attributeStart
            {
                index += 1
            }
            let slot = index - attributeStart <= 8 ? TagAttributes.slot(lowercased(attributeStart, index)) : nil
            let kept = slot.map { attributes[keyPath: $0] == nil } ?? false
            while index < count, isSpace(bytes[index]) { index += 1 }
            guard index < count, bytes[index] == 0x3D else {
                if kept, let slot { attributes[keyPath: slot] = "" }
                continue
            }
            index += 1
            while index < count, isSpace(bytes[index]) { index += 1 }
            guard index < count else { break }
            let start: Int
            let end: Int
            if bytes[index] == 0x22 || bytes[index] == 0x27 {
                start = index + 1
                end = find(bytes[index], from: start) ?? count
                index = min(count, end + 1)
            } else {
                start = index
                while index < count, !isSpace(bytes[index]), bytes[index] != 0x3E { index += 1 }
                end = index
            }
            if kept, let slot { attributes[keyPath: slot] = decoded(start, end) }
        }
        return (name, attributes, selfClosing)
    }

    func handle(_ name: String, _ attributes: TagAttributes, into page: inout HTMLScanner.Page) {
        if let id = attributes.id, !id.isEmpty { page.ids.insert(ByteString(id)) }
        func add(_ url: String?, _ kind: FoundLink.Kind) {
            if let url { page.links.append(FoundLink(url: url, kind: kind)) }
        }
        switch name {
        case "a", "area":
            add(attributes.href, .link)
            if name == "a", let anchor = attributes.name, !anchor.isEmpty { page.ids.insert(ByteString(anchor)) }
        case "link":
            let rel = Set((attributes.rel ?? "").lowercased().split(separator: " ").map(String.init))
            guard rel.isDisjoint(with: ["preconnect", "dns-prefetch"]) else { return }
            if isXML {
                add(attributes.href, .link)
            } else if rel.contains("stylesheet") {
                add(attributes.href, .stylesheet)
            } else if rel.contains("icon") || rel.contains("apple-touch-icon") {
                add(attributes.href, .image)
            } else {
                add(attributes.href, .link)
            }
        case "img", "source":
            add(attributes.src, name == "img" ? .image : .resource)
            for url in Self.srcset(attributes.srcset ?? "") { add(url, .image) }
        case "script":
            add(attributes.src, .script)
        case "iframe", "embed", "audio", "track":
            add(attributes.src, .resource)
        case "video":
            add(attributes.src, .resource)
            add(attributes.poster, .image)
        case "object":
            add(attributes.data, .resource)
        case "meta":
            switch attributes.property ?? attributes.name {
            case "og:url": add(attributes.content, .link)
            case "og:image", "twitter:image": add(attributes.content, .image)
            default: break
            }
        default:
            break
        }
    }

    /// The URLs of a `srcset`: candidates split at commas, each a URL and its descriptors.
    static func srcset(_ text: String) -> [String] {
        var urls: [String] = []
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "," }
            guard !rest.isEmpty else { return urls }
            var url = rest.prefix { !$0.isWhitespace }
            rest = rest.dropFirst(url.count)
            if url.hasSuffix(",") {
                url = url.dropLast()
            } else {
                rest = rest.drop { $0 != "," }
            }
            if !url.isEmpty { urls.append(String(url)) }
        }
    }

    /// Where an HTML comment whose `<!--` ends at `start` ends: after the `>` the tokenizer's
    /// comment states end it at (`-->`, `--!>`, and `<!-->` or `<!--->` at once), or at the
    /// end of the page. (A `<!--` inside a comment changes nothing there: those states end it
    /// at the same `>`.)
    func commentEnd(from start: Int) -> Int {
        enum State { case start, startDash, text, endDash, end, endBang }
        var state = State.start
        var position = start
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            let dash = byte == 0x2D
            let close = byte == 0x3E
            switch state {
            case .start, .startDash:
                if close { return position }
                state = dash ? (state == .start ? .startDash : .end) : .text
            case .text:
                if dash { state = .endDash }
            case .endDash:
                state = dash ? .end : .text
            case .end:
                if close { return position }
                state = byte == 0x21 ? .endBang : dash ? .end : .text
            case .endBang:
                if close { return position }
                state = dash ? .endDash : .text
            }
        }
        return bytes.count
    }

    // MARK: Bytes

    func find(_ byte: UInt8, from start: Int) -> Int? {
        var position = start
        while position < bytes.count {
            if bytes[position] == byte { return position }
            position += 1
        }
        return nil
    }

    func find(_ text: StaticString, from start: Int) -> Int? {
        var position = start
        while let candidate = find(text.utf8Start.pointee, from: position) {
            if starts(with: text, at: candidate) { return candidate }
            position = candidate + 1
        }
        return nil
    }

    /// Whether `text` (ASCII) is at `position`, ignoring ASCII case.
    func starts(with text: StaticString, at position: Int) -> Bool {
        let length = text.utf8CodeUnitCount
        guard position + length <= bytes.count else { return false }
        for offset in 0..<length where lower(bytes[position + offset]) != lower(text.utf8Start[offset]) {
            return false
        }
        return true
    }

    /// The position of `</name` after the current one.
    func findClosing(_ name: String) -> Int? {
        var position = index
        let name = Array(name.utf8)
        while let open = find(0x3C, from: position) {
            if open + 1 < bytes.count, bytes[open + 1] == 0x2F, open + 2 + name.count <= bytes.count,
                (0..<name.count).allSatisfy({ lower(bytes[open + 2 + $0]) == name[$0] })
            {
                return open
            }
            position = open + 1
        }
        return nil
    }

    func lowercased(_ start: Int, _ end: Int) -> String {
        String(unsafeUninitializedCapacity: end - start) { buffer in
            for offset in 0..<(end - start) { buffer[offset] = lower(bytes[start + offset]) }
            return end - start
        }
    }

    /// The text between `start` and `end` with character references decoded.
    func decoded(_ start: Int, _ end: Int) -> String {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<max(start, end)])
        let text = String(decoding: slice, as: UTF8.self)
        return slice.contains(0x26) ? CharacterReferences.decode(text) : text
    }

    func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
    func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C }
}
