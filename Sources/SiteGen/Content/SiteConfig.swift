import Foundation
import YAML

/// The settings in `site.yml`.
public struct SiteConfig: Sendable, Equatable {
    public var title: String
    public var baseURL: BaseURL
    public var language: SiteLanguage
    public var author: String
    public var description: String
    /// Reviews per page on a section's main index (large cards).
    public var pageSize: Int
    /// Reviews per page on the compact lists: the other orders of a section, tags and genres.
    public var listPageSize: Int = 60
    /// Whether raw HTML in Markdown reaches the pages (off by default).
    public var rawHTML: Bool
    /// The site's image for link previews (a file of `static/`, such as `images/card.png`),
    /// and where `site.yml` names it.
    public var image: String?
    var imagePosition = TextPosition(line: 1, column: 1)
    /// Where `sitegen fetch` gets metadata (`metadata:` in site.yml).
    public var metadata: MetadataSources = .defaults
    /// Front matter keys sitegen does not know that are meant (`extra_fields:`): kept for
    /// templates as `extra` without a warning.
    public var extraFields: Set<String> = []
    /// The theme's fixed words and phrases replaced by name (`labels:`), over the language's own.
    public var labels: [String: String] = [:]

    public static let fileName = "site.yml"
    static let keys: Set<String> = [
        "title", "base_url", "language", "author", "description", "page_size", "list_page_size", "raw_html",
        "metadata", "image", "extra_fields", "labels",
    ]

    /// Reads `site.yml`; every problem becomes a diagnostic.
    static func read(_ text: String, path: String) -> (SiteConfig?, [Diagnostic]) {
        let node: YAMLNode?
        do {
            node = try YAMLParser.parse(text.replacingUnshowableButNUL())?.replacingUnshowable()
        } catch {
            return (nil, [Diagnostic(error.message, path: path, position: error.position)])
        }
        var reader = FieldReader(node, path: path, firstLine: 1)
        reader.rejectUnknownKeys(keys, of: fileName)
        let title = reader.string("title", required: true)
        var baseURL: BaseURL?
        if let text = reader.string("base_url", required: true) {
            baseURL = BaseURL(text)
            if baseURL == nil {
                reader.report(
                    "\"base_url\" \(BaseURL.refusal(of: text, example: true))",
                    at: reader.node("base_url")?.position ?? reader.position(of: "base_url"))
            }
        }
        let language = reader.language("language")
        var config = SiteConfig(
            title: title ?? "", baseURL: baseURL ?? BaseURL("http://localhost/")!, language: language ?? .english,
            author: reader.string("author") ?? "", description: reader.string("description") ?? "",
            pageSize: reader.integer("page_size", in: 1...10_000) ?? 10, rawHTML: reader.bool("raw_html") ?? false)
        config.listPageSize = reader.integer("list_page_size", in: 1...10_000) ?? 60
        if let image = reader.string("image") {
            config.imagePosition = reader.node("image")?.position ?? reader.position(of: "image")
            let trimmed = image.removingPathPrefix("/").map(String.init) ?? image
            if trimmed.isEmpty || trimmed.pathSegments().contains(where: { $0 == ".." || $0 == "." }) {
                reader.report(
                    "\"image\" must be the path of a file in static/, like images/card.png", at: config.imagePosition)
            } else {
                config.image = trimmed
            }
        }
        if let node = reader.node("metadata") {
            var nested = FieldReader(node, path: path, firstLine: 1)
            nested.rejectUnknownKeys(Set(MetadataSources.settings.map(\.key)), of: "metadata")
            for setting in MetadataSources.settings {
                guard let text = nested.string(setting.key) else { continue }
                if let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil {
                    config.metadata[keyPath: setting.path] = url
                } else {
                    nested.report(
                        "\"\(setting.key)\" must be an http or https URL, not \"\(text)\"",
                        at: nested.position(of: setting.key))
                }
            }
            reader.absorb(nested.diagnostics)
        }
        config.extraFields = Set(reader.strings("extra_fields"))
        if let node = reader.node("labels") {
            var nested = FieldReader(node, path: path, firstLine: 1)
            config.labels = readLabels(&nested)
            reader.absorb(nested.diagnostics)
        }
        return (reader.diagnostics.isEmpty ? config : nil, reader.diagnostics)
    }

    /// `labels:`: each a fixed word or phrase of the theme by name, as text; a phrase may
    /// hold only its own placeholders.
    private static func readLabels(_ reader: inout FieldReader) -> [String: String] {
        let names = Labels.names.union(Phrases.names)
        reader.rejectUnknownKeys(names, of: nil, noun: "label", seeAlso: "the README lists them under Labels")
        var labels: [String: String] = [:]
        for name in names.sorted() {
            guard let text = reader.string(name) else { continue }
            // Near misses of a placeholder, which would be shown as written: `{{count}}` (as in
            // a Mustache template) and `{ count }`.
            if let miss = text.firstMatch(of: /\{\{\s*([A-Za-z]+)\s*\}\}|\{\s+([A-Za-z]+)\s*\}|\{([A-Za-z]+)\s+\}/) {
                let placeholder = miss.output.1 ?? miss.output.2 ?? miss.output.3 ?? ""
                reader.report(
                    "\"\(name)\" writes \"\(miss.output.0)\": a placeholder is its name in single braces, "
                        + "with no spaces: {\(placeholder)}",
                    at: reader.node(name)?.position ?? reader.position(of: name))
                continue
            }
            let unknown = Phrases.placeholders(in: text).subtracting(Phrases.placeholders[name] ?? [])
            guard unknown.isEmpty else {
                let own = (Phrases.placeholders[name] ?? []).sorted().map { "{\($0)}" }
                reader.report(
                    "\"\(name)\" has no placeholder {\(unknown.sorted()[0])}"
                        + (own.isEmpty ? "" : ": it takes \(own.joined(separator: ", "))"),
                    at: reader.node(name)?.position ?? reader.position(of: name))
                continue
            }
            labels[name] = text
        }
        return labels
    }
}

/// The site's public address: absolute (for the feed and sitemap) and as a root path for links.
public struct BaseURL: Sendable, Equatable {
    /// Such as `https://example.org/reviews/`, always ending in `/`.
    public let absolute: String
    /// Such as `/reviews/`.
    public let path: String

    /// Accepts absolute http(s) URLs whose path has no empty, `.` or `..` part (see
    /// ``refusal(of:example:)``); adds the final `/` when missing.
    public init?(_ text: String) {
        guard case .success(let parts) = Self.parse(text) else { return nil }
        absolute = parts.absolute
        path = parts.path
    }

    /// The ports a URL may name.
    static let ports = 1...65_535

    /// What is wrong with `text`, which ``init(_:)`` refused, completing a sentence that names
    /// the setting: `must be an absolute http or https URL…`, or why it cannot be used.
    public static func refusal(of text: String, example: Bool) -> String {
        guard case .failure(let problem) = parse(text) else { return "is \"\(text)\"" }
        switch problem {
        case .notAbsolute:
            return
                "must be an absolute http or https URL\(example ? " like https://example.org/" : ""), not \"\(text)\""
        case .port(let port):
            return "has the port \(port), but ports go from 1 to 65535"
        case .userInfo:
            return "cannot hold a user name or password (the part before @ in \"\(text)\"): "
                + "every feed and sitemap would publish it"
        case .percentInHost:
            return "cannot have a percent-encoded host, as \"\(text)\" has: browsers refuse such an address"
        case .backslash:
            return "cannot hold a backslash, as \"\(text)\" does: browsers read it as a slash, "
                + "which makes another host or path of it"
        case .strayParts:
            return "cannot have an empty, \".\" or \"..\" part in its path, as \"\(text)\" has: every link of the "
                + "site starts with that path, and //assets/ would be another host's, /../ another folder"
        }
    }

    /// Why a text cannot be the site's address.
    private enum Problem: Error {
        case notAbsolute
        case port(String)
        case userInfo, percentInHost, backslash, strayParts
    }

    /// The address `text` names, or why it cannot be the site's: each condition stated once,
    /// for ``init(_:)`` and ``refusal(of:example:)`` both.
    private static func parse(_ text: String) -> Result<(absolute: String, path: String), Problem> {
        // The host as feeds, sitemaps and links need it: an internationalized name in its ASCII
        // (punycode) form, which `host` would decode (`xn--tda.com` became `ü.com`).
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.encodedHost, !host.isEmpty,
            components.query == nil, components.fragment == nil
        else { return .failure(.notAbsolute) }
        // Browsers read a backslash as a slash: `https://example.org\@evil.com/` is example.org
        // to them, evil.com to Foundation.
        guard !text.contains("\\") else { return .failure(.backslash) }
        guard components.percentEncodedUser == nil && components.percentEncodedPassword == nil else {
            return .failure(.userInfo)
        }
        // A host with `%` (`example.org%40evil.com`, an IPv6 zone `%25eth0`) is no address a
        // browser opens: every link in feeds and the sitemap would be broken.
        guard !host.contains("%") else { return .failure(.percentInHost) }
        // The port as written: Foundation has none for one past Int's range.
        let written = portText(of: text)
        if let written, !written.isEmpty {
            guard let port = Int(written), ports.contains(port), components.port == port else {
                return .failure(.port(written))
            }
        }
        guard !hasStrayParts(components.percentEncodedPath) else { return .failure(.strayParts) }
        var path = components.percentEncodedPath
        if !path.endsWithSlash { path += "/" }
        if !path.hasPathPrefix("/") { path = "/" + path }
        // As browsers show it: the host in lower case (an internationalized one already is,
        // in its ASCII form) and the scheme's own port left out, so that feed ids and canonical
        // URLs are the address itself (`https://EXAMPLE.ORG:443/` is `https://example.org/`).
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        return .success(("\(scheme)://\(host.lowercased())\(port)\(path)", path))
    }

    /// The port written in `text`'s authority (after the host's last `:`, outside an IPv6
    /// address's brackets), nil when there is no `:`.
    private static func portText(of text: String) -> String? {
        guard let start = text.range(of: "://")?.upperBound else { return nil }
        let authority = text[start...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        let afterBrackets = host.lastIndex(of: "]").map { host[host.index(after: $0)...] } ?? host
        guard let colon = afterBrackets.lastIndex(of: ":") else { return nil }
        return String(afterBrackets[afterBrackets.index(after: colon)...])
    }

    /// Whether `path` (percent-encoded) has an empty part between slashes (`//`), or a `.` or
    /// `..` part (written as such or encoded), which browsers resolve away.
    static func hasStrayParts(_ path: String) -> Bool {
        var parts = path.pathSegments(omittingEmpty: false)[...]
        // The empty parts before a leading and after a trailing `/` are none.
        if parts.first?.isEmpty == true { parts.removeFirst() }
        if parts.last?.isEmpty == true { parts.removeLast() }
        return parts.contains { part in
            let decoded = part.removingPercentEncoding ?? String(part)
            return decoded.isEmpty || decoded == "." || decoded == ".."
        }
    }
}
