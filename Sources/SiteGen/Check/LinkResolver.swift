import Foundation

/// Resolves URLs found in the pages of a built site to a ``LinkTarget``: what is fixed for the
/// whole site (its origin, base path and files) worked out once.
struct LinkResolver: Sendable {
    let base: BaseURL
    /// Relative paths of the output folder's files, as bytes: a server finds a file by the
    /// bytes of its name, where Swift's `==` takes "é" and "e" with a combining accent for
    /// the same text (a link to the one does not reach the other).
    let files: Set<[UInt8]>
    /// `https://example.org`: the base URL without its path, lowercased, without a default port.
    let origin: String
    /// The base path with percent escapes undone.
    let basePath: String

    init(base: BaseURL, files: some Sequence<String>) {
        self.base = base
        self.files = Set(files.lazy.map { Array($0.utf8) })
        // In bytes: `absolute` ends in the bytes of `path`, not always in its Characters.
        let start = String(decoding: base.absolute.utf8.dropLast(base.path.utf8.count), as: UTF8.self)
        origin = Self.split(start + "/").map { $0.origin } ?? start.lowercased()
        basePath = Self.percentDecoded(base.path)
    }

    /// Resolves `url`, found on a page whose relative URLs are appended to `directory` (a
    /// path under the base path, percent-encoded: the page's folder ending in `/`, or for an
    /// empty URL, a query or a fragment, the page's own address; see ``LinkKey``).
    func resolve(_ url: String, from directory: String) -> LinkTarget {
        var url = Self.trimmed(url)
        if url.hasPathPrefix("//") { url = String(base.absolute.prefix { $0 != ":" }) + ":" + url }
        var path: Substring
        if let scheme = Self.scheme(of: url)?.lowercased() {
            guard scheme == "http" || scheme == "https" else { return .ignored }
            guard let (origin, rest) = Self.split(url), origin == self.origin else {
                return .external(String(url.prefix { $0 != "#" }))
            }
            // `https://example.org?q` is the path `/` of that site.
            path = rest.hasPathPrefix("/") ? rest : "/" + rest
        } else if url.hasPathPrefix("/") {
            path = Substring(url)
        } else {
            path = Substring(directory + url)
        }
        var fragment: String?
        // Found as bytes: as Characters, a `#` or `?` followed by a combining mark is another one.
        if let hash = path.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(path[path.utf8.index(after: hash)...])
            path = path[..<hash]
        }
        if let question = path.utf8.firstIndex(of: UInt8(ascii: "?")) { path = path[..<question] }
        // Compared and cut as bytes: as Characters, a name starting with a combining mark
        // (`/%CC%81x`) joins the slash before it, and the link looked outside the site.
        var decoded = LinkTarget.normalized(Self.percentDecoded(path))
        // The site's own folder without its final slash (`/reviews`): servers redirect to it.
        if basePath.utf8.count > 1, decoded.utf8.elementsEqual(basePath.utf8.dropLast()) { decoded = basePath }
        guard decoded.utf8.starts(with: basePath.utf8) else { return .outside }
        let relative = String(decoding: decoded.utf8.dropFirst(basePath.utf8.count), as: UTF8.self)
        let file = relative.isEmpty || relative.endsWithSlash ? relative + "index.html" : relative
        if files.contains(Array(file.utf8)) { return .file(file, fragment: fragment) }
        // A folder without its final slash: servers answer with a redirect to the slash.
        if files.contains(Array((relative + "/index.html").utf8)) {
            return .file(relative + "/index.html", fragment: fragment)
        }
        return .missing(relative)
    }

    /// `url` without the white space around it, which browsers ignore.
    static func trimmed(_ url: String) -> String {
        guard url.first?.isWhitespace == true || url.last?.isWhitespace == true else { return url }
        return url.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// An http(s) URL's origin, as `scheme://host[:port]` lowercased and without the scheme's
    /// default port (`https://Example.org:443/a` and `https://example.org/a` are one site), and
    /// what follows it; nil when `url` has no `//` authority.
    static func split(_ url: String) -> (origin: String, rest: Substring)? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon].lowercased()
        let afterColon = url[url.index(after: colon)...]
        guard afterColon.hasPathPrefix("//") else { return nil }
        // Bytes: as Characters, a `/` and a combining mark after it are one, and the host ran on.
        let authorityStart = afterColon.utf8.index(afterColon.startIndex, offsetBy: 2)
        let authorityEnd =
            afterColon.utf8[authorityStart...].firstIndex {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            } ?? afterColon.endIndex
        var authority = afterColon[authorityStart..<authorityEnd].lowercased()
        let defaultPort = scheme == "https" ? ":443" : scheme == "http" ? ":80" : nil
        if let defaultPort, authority.hasSuffix(defaultPort) {
            authority.removeLast(defaultPort.count)
        } else if authority.hasSuffix(":") {
            authority.removeLast()
        }
        return ("\(scheme)://\(authority)", afterColon[authorityEnd...])
    }

    /// `text` with `%XX` escapes undone (as UTF-8; bytes that are not UTF-8 become U+FFFD);
    /// a `%` not followed by two hex digits stays.
    static func percentDecoded(_ text: some StringProtocol) -> String {
        guard text.utf8.contains(0x25) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        var pending: [UInt8] = []
        while let byte = pending.isEmpty ? iterator.next() : pending.removeFirst() {
            guard byte == 0x25 else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next() else {
                bytes.append(byte)
                break
            }
            guard let low = iterator.next() else {
                bytes += [byte, high]
                break
            }
            if let h = hexValue(high), let l = hexValue(low) {
                bytes.append(h << 4 | l)
            } else {
                bytes.append(byte)
                pending = [high, low]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x37
        case 0x61...0x66: byte - 0x57
        default: nil
        }
    }

    /// The scheme `url` starts with (`https`, `mailto`), if any: an ASCII letter, then letters,
    /// digits, `+`, `-` or `.`, then `:`, as the WHATWG URL parser reads one. A URL with a `:`
    /// only after a `/`, `?` or `#` has none: `../files/12:30.txt`, `?t=12:30` and `#fn:1` are
    /// relative.
    static func scheme(of url: String) -> Substring? {
        let bytes = url.utf8
        guard let first = bytes.first, first.isASCIILetter else { return nil }
        for index in bytes.indices.dropFirst() {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { return url[..<index] }
            guard byte.isASCIIAlphanumeric || byte == 0x2B || byte == 0x2D || byte == 0x2E else { return nil }
        }
        return nil
    }
}
