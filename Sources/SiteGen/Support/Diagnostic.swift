import Mustache
import YAML

/// A problem in the site's files, at a place in one of them.
public struct Diagnostic: Error, Sendable, Equatable, Comparable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }

    /// What a warning is about, where commands treat some alike (sum them up, report once).
    public enum Topic: Sendable, Hashable {
        case general
        /// A review names a film or book the metadata cache has nothing for: commands print
        /// how many, and the list only when asked (`--verbose`).
        case uncachedMetadata
        /// A front matter key sitegen does not know, kept for templates: reported once per name.
        case extraField(String)
    }

    public let location: SourceLocation
    public let message: String
    public let severity: Severity
    public let topic: Topic

    public init(_ message: String, at location: SourceLocation, severity: Severity = .error, topic: Topic = .general) {
        self.location = location
        self.message = message
        self.severity = severity
        self.topic = topic
    }

    /// A diagnostic about the site as a whole (a summary), printed without a place.
    public init(_ message: String, severity: Severity) {
        self.init(message, at: SourceLocation(path: "", line: 0, column: 0), severity: severity)
    }

    /// A diagnostic at `position` (in text starting at `firstLine` of `path`).
    public init(
        _ message: String, path: String, position: TextPosition, firstLine: Int = 1,
        severity: Severity = .error
    ) {
        self.init(
            message, at: SourceLocation(path: path, line: firstLine - 1 + position.line, column: position.column),
            severity: severity)
    }

    /// A diagnostic about a file as a whole, printed `path: message`.
    public init(_ message: String, file path: String, severity: Severity = .error) {
        self.init(message, at: SourceLocation(path: path, line: 0, column: 0), severity: severity)
    }

    /// A file of `static/` (at output path `path`) that would take the place of a generated file.
    static func staticClash(_ path: String) -> Diagnostic {
        Diagnostic(
            "static/\(path) would replace the page sitegen generates at /\(path): rename or remove it",
            at: SourceLocation(path: "static/\(path)", line: 1, column: 1))
    }

    /// A file of `static/` at `path`, which a poster or cover fetched for `review` takes the place of.
    static func staticUnderFetchedImage(_ path: String, review: String) -> Diagnostic {
        Diagnostic(
            "static/\(path) is not published: the image fetched for \(review) has its name and takes its place; "
                + "to show an image of your own, name it in the review's \"image\" (or rename the file)",
            at: SourceLocation(path: "static/\(path)", line: 1, column: 1), severity: .warning)
    }

    /// A file of `static/` at `path` that cannot be a file while sitegen generates `page`:
    /// one of them is a folder of the other (`static/movies/x/index.html/a.txt`).
    static func staticFolderClash(_ path: String, page: String) -> Diagnostic {
        Diagnostic(
            page.hasPathPrefix(path + "/")
                ? "static/\(path) is a file where sitegen writes /\(page), which needs it to be a folder: "
                    + "rename or remove it"
                : "static/\(path) needs a folder where sitegen writes /\(page): rename or remove it",
            at: SourceLocation(path: "static/\(path)", line: 1, column: 1))
    }

    /// A file of `static/` (at output path `path`) that would take the place of an image
    /// sitegen publishes for the review at `source` (its own image, in one of its sizes).
    static func imageClash(_ path: String, review source: String) -> Diagnostic {
        Diagnostic(
            "static/\(path) would replace an image sitegen publishes for \(source): rename or remove it",
            at: SourceLocation(path: "static/\(path)", line: 1, column: 1))
    }

    /// A file of `static/` (at output path `path`) that would take the place of `file`, a file
    /// of a page bundle published there.
    static func bundleFileClash(_ path: String, file: String) -> Diagnostic {
        Diagnostic(
            "static/\(path) would replace \(file), a page bundle's file published at /\(path): rename or remove one",
            at: SourceLocation(path: "static/\(path)", line: 1, column: 1))
    }

    /// The error for the file at `path`, whose name differs from `other`'s only in how its
    /// accented letters are written (composed `é`, or `e` and a combining accent): one name to
    /// a site's reader, and one key to Swift.
    static func sameName(_ path: String, as other: String) -> Diagnostic {
        Diagnostic(
            "its name differs from \(other)'s only in how accented letters are encoded (composed or decomposed), "
                + "so both would be published as one file: rename one",
            at: SourceLocation(path: path, line: 1, column: 1))
    }

    /// Whether it names a place (a file, maybe a line and column).
    public var isLocated: Bool { !location.path.isEmpty }

    /// `path:line:column: message` (`path: message` for a whole file, `message` for the whole
    /// site; warnings say so).
    public var description: String {
        guard isLocated else {
            let message = Self.shown(message, keepingLines: true)
            return severity == .warning ? "warning: \(message)" : message
        }
        // A file name with a line break (which the loader refuses) must not break the line.
        let path = Self.shown(location.path)
        let place = location.line == 0 ? path : "\(path):\(location.line):\(location.column)"
        let message = Self.shown(message, keepingLines: true)
        return severity == .warning ? "\(place): warning: \(message)" : "\(place): \(message)"
    }

    /// `text` with its control characters written as escapes (`\n`, `\t`, `\u{1B}`), so that
    /// it stays on its line and cannot steer a terminal.
    /// With `keepingLines`, line breaks and tabs stay (a message may quote lines of a file, whose
    /// other control characters, such as a CSV header's NUL or ESC, are still escaped).
    static func shown(_ text: String, keepingLines: Bool = false) -> String {
        // 0xC2 starts the C1 controls (U+0080 to U+009F).
        let kept: ClosedRange<UInt8>? = keepingLines ? 0x09...0x0A : nil
        guard text.utf8.contains(where: { ($0 < 0x20 && kept?.contains($0) != true) || $0 == 0x7F || $0 == 0xC2 })
        else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if keepingLines && (scalar == "\n" || scalar == "\t") {
                shown.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": shown += "\\n"
            case "\t": shown += "\\t"
            case "\r": shown += "\\r"
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}":
                shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        (lhs.location, lhs.message) < (rhs.location, rhs.message)
    }
}

/// A build that stopped: every problem found, sorted by file and line, and the step that found them.
public struct BuildError: Error, Sendable, Equatable, CustomStringConvertible {
    public let step: String
    public let diagnostics: [Diagnostic]

    /// The problems sorted, each said once: two reviews naming one broken metadata entry
    /// find the same problem at the same place.
    public init(step: String, diagnostics: [Diagnostic]) {
        self.step = step
        var unique: [Diagnostic] = []
        for diagnostic in diagnostics.sorted()
        where unique.last.map({ $0.location != diagnostic.location || $0.message != diagnostic.message }) ?? true {
            unique.append(diagnostic)
        }
        self.diagnostics = unique
    }

    public var description: String {
        let count = diagnostics.count
        return (diagnostics.map(\.description) + ["\(step) failed: \(count) error\(count == 1 ? "" : "s")"])
            .joined(separator: "\n")
    }
}
