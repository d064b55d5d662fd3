import Foundation
import Mustache
import YAML

/// A Markdown file split into its YAML front matter (between `---` lines) and its body.
public struct FrontMatter: Sendable, Equatable {
    /// The YAML text, without the `---` lines.
    public let yaml: String
    /// The file line on which the YAML text starts.
    public let yamlFirstLine: Int
    public let body: String
    /// The file line on which the Markdown body starts (after the closing `---`).
    public let bodyFirstLine: Int

    /// Splits `text`; throws when it does not start with a `---` line or the block is not closed.
    public init(splitting text: String, path: String) throws(Diagnostic) {
        var bytes = Substring(text).utf8[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        // Lines ended by CR alone (classic Mac OS) make the whole file one line.
        if !bytes.contains(0x0A), bytes.contains(0x0D) {
            throw Diagnostic(
                "the lines of this file end with a carriage return alone (classic Mac OS): save it with LF or "
                    + "CRLF line endings",
                at: SourceLocation(path: path, line: 1, column: 1))
        }
        guard let opening = Self.line(at: bytes.startIndex, in: bytes), Self.isFence(bytes[opening.content]) else {
            throw Diagnostic(
                "no front matter: the file must start with a \"---\" line, then YAML, then \"---\"",
                at: SourceLocation(path: path, line: 1, column: 1))
        }
        var position = opening.next
        var lines = 0
        while let line = Self.line(at: position, in: bytes) {
            if Self.isFence(bytes[line.content]) || Self.isMarker(bytes[line.content], "...") {
                yaml = String(Substring(bytes[opening.next..<line.content.lowerBound]))
                yamlFirstLine = 2
                bodyFirstLine = yamlFirstLine + lines + 1
                body = String(Substring(bytes[line.next...]))
                return
            }
            lines += 1
            position = line.next
        }
        throw Diagnostic(
            "front matter is not closed: add a \"---\" line after the YAML",
            at: SourceLocation(path: path, line: 1, column: 1))
    }
}

extension FrontMatter {
    /// Problems that stop a file's front matter from being read.
    struct Problems: Error {
        let diagnostics: [Diagnostic]
    }

    /// Splits `text` and parses its YAML: the front matter and a reader over its keys, or
    /// the problem (with the file's line and column).
    static func read(_ text: String, path: String) -> Result<(FrontMatter, FieldReader), Problems> {
        let front: FrontMatter
        do {
            front = try FrontMatter(splitting: text, path: path)
        } catch {
            return .failure(Problems(diagnostics: [error]))
        }
        do {
            // Raw, before libyaml refuses them (a vertical tab pasted from a word processor), and
            // each character for one, so that lines and columns stay where they were.
            let node = try YAMLParser.parse(front.yaml.replacingUnshowableButNUL())?.replacingUnshowable()
            return .success((front, FieldReader(node, path: path, firstLine: front.yamlFirstLine)))
        } catch {
            return .failure(
                Problems(diagnostics: [
                    Diagnostic(error.message, path: path, position: error.position, firstLine: front.yamlFirstLine)
                ]))
        }
    }
}

extension FrontMatter {
    /// Reads `bytes` as a build reads the review file `content/movies/fuzz.md` (or a book
    /// review): UTF-8, front matter, fields and the Markdown body, giving the review or its
    /// problems. An entry point for fuzzing: any bytes give one or the other.
    public static func readReview(_ bytes: Data, kind: WorkKind = .movie) -> (Review?, [Diagnostic]) {
        let section =
            switch kind {
            case .movie: "movies"
            case .book: "books"
            case .tv: "tv"
            }
        let source = "content/\(section)/fuzz.md"
        guard let text = String(data: bytes, encoding: .utf8) else {
            return (nil, [.invalidUTF8(in: bytes, path: source)])
        }
        return Review.read(
            text, source: source, section: section, kind: kind, allowRawHTML: false,
            links: MarkdownLinks(basePath: "/"))
    }
}

private extension FrontMatter {
    typealias Bytes = Substring.UTF8View.SubSequence

    /// The line starting at `start`: its content (without the line break) and where the next one starts.
    static func line(at start: Bytes.Index, in bytes: Bytes) -> (content: Range<Bytes.Index>, next: Bytes.Index)? {
        guard start < bytes.endIndex else { return nil }
        let newline = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
        var end = newline
        if end > start, bytes[bytes.index(before: end)] == 0x0D { end = bytes.index(before: end) }
        return (start..<end, newline == bytes.endIndex ? newline : bytes.index(after: newline))
    }

    /// Whether `line` is `---`, spaces or tabs after it allowed (an editor may leave them,
    /// and they cannot be seen).
    static func isFence(_ line: Bytes) -> Bool {
        isMarker(line, "---")
    }

    /// Whether `line` is `marker` followed by nothing but spaces and tabs.
    static func isMarker(_ line: Bytes, _ marker: String) -> Bool {
        line.starts(with: marker.utf8)
            && line.dropFirst(marker.utf8.count).allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }
}
