import Foundation
import Mustache
import YAML

/// Reads typed fields from a YAML mapping, collecting one diagnostic per bad field
/// so that a build reports every problem in a file at once.
struct FieldReader {
    let path: String
    let firstLine: Int
    private let pairs: [YAMLPair]
    private let start: TextPosition
    private(set) var diagnostics: [Diagnostic] = []
    /// The keys asked for, in the order asked (a few dozen short ones: a set hashed each of
    /// them and grew several times for every review).
    private var used: [String] = []
    /// Room for the keys a review's reading asks for (its fields and the site's extra fields).
    private static let usualKeyCount = 48

    /// `node` is the parsed YAML (nil for an empty document), which started on `firstLine` of `path`.
    init(_ node: YAMLNode?, path: String, firstLine: Int) {
        self.path = path
        self.firstLine = firstLine
        used.reserveCapacity(Self.usualKeyCount)
        switch node {
        case .mapping(let pairs, let position)?:
            self.pairs = pairs
            self.start = position
        case nil:
            self.pairs = []
            self.start = TextPosition(line: 1, column: 1)
        case let other?:
            self.pairs = []
            self.start = other.position
            report("expected keys and values (like \"title: …\"), found \(other.kindName)", at: other.position)
        }
    }

    /// The node under `key`, marking the key as known.
    mutating func node(_ key: String) -> YAMLNode? {
        used.append(key)
        guard let value = pairs.first(where: { $0.key.scalarText == key })?.value, !value.isNull else { return nil }
        return value
    }

    /// Where `key` was written, or the start of the mapping.
    func position(of key: String) -> TextPosition {
        pairs.first { $0.key.scalarText == key }?.key.position ?? start
    }

    func location(_ position: TextPosition) -> SourceLocation {
        SourceLocation(path: path, line: firstLine - 1 + position.line, column: position.column)
    }

    mutating func report(_ message: String, at position: TextPosition, severity: Diagnostic.Severity = .error) {
        diagnostics.append(Diagnostic(message, at: location(position), severity: severity))
    }

    /// A required `key` that is not there, or holds nothing (`title:`, `title: ~`): at its
    /// value when written, else at the start of the mapping.
    mutating func reportMissing(_ key: String) {
        if let pair = pairs.first(where: { $0.key.scalarText == key }) {
            report("\"\(key)\" is empty", at: pair.value.position)
        } else {
            report("missing required field \"\(key)\"", at: start)
        }
    }

    /// The text under `key`; `required` reports it missing, and an empty or blank one is an
    /// error when `required` or `nonBlank` (a title given must say something).
    mutating func string(_ key: String, required: Bool = false, nonBlank: Bool = false) -> String? {
        guard let value = node(key) else {
            if required { reportMissing(key) }
            return nil
        }
        guard let text = value.scalarText else {
            report("\"\(key)\" must be text, not \(value.kindName)", at: value.position)
            return nil
        }
        // Nothing but blanks (what trimming them would empty), found at the first other character.
        if (required || nonBlank) && text.unicodeScalars.allSatisfy({ CharacterSet.whitespaces.contains($0) }) {
            report("\"\(key)\" is empty", at: value.position)
            return nil
        }
        return text
    }

    mutating func day(_ key: String, required: Bool = false) -> Day? {
        guard let value = node(key) else {
            if required { reportMissing(key) }
            return nil
        }
        guard let text = value.scalarText, let day = Day(text) else {
            report("\"\(key)\" must be a date written YYYY-MM-DD, not \(quoted(value))", at: value.position)
            return nil
        }
        return day
    }

    mutating func rating(_ key: String) -> Rating? {
        guard let value = node(key) else { return nil }
        guard let text = value.scalarText, let number = Double(text), let rating = Rating(number) else {
            report(
                "\"\(key)\" must be a number from 0 to 5 in half steps (like 3.5), not \(quoted(value))",
                at: value.position)
            return nil
        }
        return rating
    }

    mutating func integer(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = node(key) else { return nil }
        guard let text = value.scalarText, let number = Int(text), range.contains(number) else {
            report(
                "\"\(key)\" must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(quoted(value))",
                at: value.position)
            return nil
        }
        return number
    }

    mutating func bool(_ key: String) -> Bool? {
        guard let value = node(key) else { return nil }
        switch value.scalarText {
        case "true", "True", "TRUE", "yes", "Yes", "YES": return true
        case "false", "False", "FALSE", "no", "No", "NO": return false
        default:
            report("\"\(key)\" must be true or false, not \(quoted(value))", at: value.position)
            return nil
        }
    }

    /// A list of texts; a single text counts as a list of one.
    mutating func strings(_ key: String) -> [String] {
        locatedStrings(key).map(\.text)
    }

    /// A list of texts with where each one was written; a single text counts as a list of one.
    mutating func locatedStrings(_ key: String) -> [(text: String, position: TextPosition)] {
        guard let value = node(key) else { return [] }
        switch value {
        case .scalar(let text, _, let position):
            return [(text, position)]
        case .sequence(let items, _):
            return items.compactMap { item in
                // YAML's null (`null`, `~`), as a whole value of the key is read.
                if item.isNull, item.scalarText?.isEmpty == false {
                    report(
                        "each of \"\(key)\" must be text, not null: write \"\(item.scalarText ?? "")\" in quotes "
                            + "to mean those letters",
                        at: item.position)
                    return nil
                }
                guard let text = item.scalarText, !text.isEmpty else {
                    let problem = item.scalarText == nil ? "must be text, not \(item.kindName)" : "must not be empty"
                    report("each of \"\(key)\" \(problem)", at: item.position)
                    return nil
                }
                return (text, item.position)
            }
        case .mapping:
            report("\"\(key)\" must be a list like [a, b], not a mapping", at: value.position)
            return []
        }
    }

    /// Where the `slug` key's value is written; nil when the file has none (its name is the slug).
    mutating func slugLocation() -> SourceLocation? {
        node("slug").map { location($0.position) }
    }

    /// The URL segment of the file at `source`: its `slug` key, else its file name without
    /// `.md` (a page bundle's folder name); either must be one safe path segment.
    mutating func slug(for source: String) -> String {
        let fileSlug = ReviewFile.defaultSlug(of: source)
        if let explicit = string("slug") {
            let at = node("slug")?.position ?? position(of: "slug")
            guard explicit.isSafeSlug else {
                report(
                    "\"slug\" must be one path segment (letters, digits, \"-\" or \"_\"), not \"\(explicit)\"",
                    at: at)
                return fileSlug
            }
            guard explicit.utf8.count <= String.slugByteLimit else {
                report(
                    "\"slug\" is \(explicit.utf8.count) bytes long; a URL segment may have at most "
                        + "\(String.slugByteLimit)", at: at)
                return fileSlug
            }
            return explicit
        }
        // A page bundle takes its folder's name (said in the messages only, so found only for them).
        var what: String { ReviewFile.isBundle(source) ? "folder" : "file" }
        var name: String { ReviewFile.isBundle(source) ? fileSlug : fileSlug + ".md" }
        if !fileSlug.isSafeSlug {
            report(
                "the \(what) name \"\(name)\" cannot be a URL: rename it or set \"slug\"",
                at: TextPosition(line: 1, column: 1))
        } else if fileSlug.utf8.count > String.slugByteLimit {
            report(
                "the \(what) name is \(fileSlug.utf8.count) bytes long; a URL segment may have at most "
                    + "\(String.slugByteLimit): rename it or set a shorter \"slug\"",
                at: TextPosition(line: 1, column: 1))
        }
        return fileSlug
    }

    /// A BCP 47 language tag (`de`, `pt-BR`, `zh-Hant`) whose language ICU knows.
    mutating func language(_ key: String) -> SiteLanguage? {
        guard let text = string(key) else { return nil }
        if let language = SiteLanguage(text) { return language }
        let problem = SiteLanguage.problem(with: text) ?? "a language tag such as en, de, pt-BR or zh-Hant"
        report("\"\(key)\" must be \(problem)", at: node(key)?.position ?? position(of: key))
        return nil
    }

    /// One of a fixed set of words.
    mutating func choice(_ key: String, from choices: [String]) -> String? {
        guard let value = node(key) else { return nil }
        guard let text = value.scalarText, choices.contains(text) else {
            let list = choices.map { "\"\($0)\"" }.joined(separator: ", ")
            report("\"\(key)\" must be one of \(list), not \(quoted(value))", at: value.position)
            return nil
        }
        return text
    }

    /// Adds problems another reader found (one for a nested mapping).
    mutating func absorb(_ other: [Diagnostic]) {
        diagnostics += other
    }

    /// The keys nobody asked for, as template data (`extra`), where `template` names them
    /// (`review.extra`). A key close to a known one (one the reader asked for) is an error
    /// that suggests it; any other is kept with a warning, unless `allowed` lists it
    /// (`extra_fields` in `site.yml`).
    mutating func extraFields(allowing allowed: Set<String>, template: String) -> [String: Value] {
        var extra: [String: Value] = [:]
        for pair in pairs {
            guard let key = pair.key.scalarText, !used.contains(key) else { continue }
            if key.contains(".") {
                // A template reads `a.b` as `a`, then its `b`: such a key cannot be reached by name.
                let underscored = key.replacingOccurrences(of: ".", with: "_")
                diagnostics.append(
                    Diagnostic(
                        "\"\(key)\" is not a field sitegen knows, and templates cannot read it by name, as a \".\" "
                            + "separates names there (\(template).\(key) reads \(key.split(separator: ".").first ?? "") "
                            + "and what is inside it): write it \(underscored)",
                        at: location(pair.key.position), severity: .warning, topic: .extraField(key)))
            } else if !allowed.contains(key) {
                if let known = Self.suggestion(for: key, among: Set(used)) {
                    report("\"\(key)\" is not a field; did you mean \"\(known)\"?", at: pair.key.position)
                    continue
                }
                diagnostics.append(
                    Diagnostic(
                        "\"\(key)\" is not a field sitegen knows: templates get it as \(template).\(key); "
                            + "if that is meant, list it in site.yml under extra_fields",
                        at: location(pair.key.position),
                        severity: .warning, topic: .extraField(key)))
            }
            extra[key] = pair.value.templateValue
        }
        return extra
    }

    /// Reports every key not in `known`, where a typo should not pass silently: a key close
    /// to a known one suggests it, any other lists the known ones (`of` names the mapping:
    /// `site.yml`, `metadata`…) or says where they are listed (`seeAlso`).
    mutating func rejectUnknownKeys(
        _ known: Set<String>, of name: String?, noun: String = "field", seeAlso: String? = nil
    ) {
        for pair in pairs {
            guard let key = pair.key.scalarText, !known.contains(key) else { continue }
            if let suggestion = Self.suggestion(for: key, among: known) {
                report("\"\(key)\" is not a \(noun); did you mean \"\(suggestion)\"?", at: pair.key.position)
            } else {
                let list = seeAlso ?? "its fields are " + known.sorted().joined(separator: ", ")
                report("\"\(key)\" is not a \(noun)\(name.map { " of \($0)" } ?? "") (\(list))", at: pair.key.position)
            }
        }
    }

    /// The known name closest to `key` when it is close enough to be a typo of it: the same
    /// letters in another case, or at most one edit away (two for names of more than four
    /// letters), counting a swap of two neighbours as one edit.
    static func suggestion(for key: String, among known: some Collection<String>) -> String? {
        let typed = Array(key.lowercased())
        var best: (distance: Int, name: String)?
        for name in known {
            let candidate = Array(name.lowercased())
            let limit = candidate.count > 4 ? 2 : 1
            guard abs(candidate.count - typed.count) <= limit else { continue }
            let distance = editDistance(typed, candidate)
            guard distance <= limit, distance < candidate.count else { continue }
            if best == nil || (distance, name) < (best!.distance, best!.name) { best = (distance, name) }
        }
        return best?.name
    }

    /// Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }

    private func quoted(_ node: YAMLNode) -> String {
        node.scalarText.map { "\"\($0)\"" } ?? node.kindName
    }
}
