import Mustache
import YAML

/// A problem in the site's files, at a place in one of them.
public struct Diagnostic: Error, Sendable, Equatable, Comparable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }

    public let location: SourceLocation
    public let message: String
    public let severity: Severity

    public init(_ message: String, at location: SourceLocation, severity: Severity = .error) {
        self.location = location
        self.message = message
        self.severity = severity
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

    /// `path:line:column: message` (`path: message` for a whole file; warnings say so).
    public var description: String {
        let place = location.line == 0 ? location.path : location.description
        return severity == .warning ? "\(place): warning: \(message)" : "\(place): \(message)"
    }

    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        (lhs.location, lhs.message) < (rhs.location, rhs.message)
    }
}

/// A build that stopped: every problem found, sorted by file and line, and the step that found them.
public struct BuildError: Error, Sendable, Equatable, CustomStringConvertible {
    public let step: String
    public let diagnostics: [Diagnostic]

    public init(step: String, diagnostics: [Diagnostic]) {
        self.step = step
        self.diagnostics = diagnostics.sorted()
    }

    public var description: String {
        let count = diagnostics.count
        return (diagnostics.map(\.description) + ["\(step) failed: \(count) error\(count == 1 ? "" : "s")"])
            .joined(separator: "\n")
    }
}
