import CommonMark
import Mustache

extension Diagnostic {
    /// The warning for a file whose Markdown has raw HTML that is left out (`raw_html` is
    /// false): once per file, at the first piece; nil when there is none. `body` is the
    /// Markdown text, which starts on line `firstLine` of `path`.
    static func rawHTMLOmitted(in rendered: RenderedMarkdown, body: String, path: String, firstLine: Int) -> Diagnostic?
    {
        guard let first = rendered.rawHTML.first else { return nil }
        let count = rendered.rawHTML.count
        let place = count == 1 ? "here" : "here and in \(count - 1) more place\(count == 2 ? "" : "s")"
        return Diagnostic(
            "raw HTML is left out of the page \(place): write it in Markdown, or set raw_html: true in site.yml to let it through",
            at: SourceLocation(
                path: path, line: firstLine - 1 + first.line, column: column(of: first, in: body)),
            severity: .warning)
    }

    /// The column in characters of a position cmark gives in bytes.
    private static func column(of position: RenderedMarkdown.Position, in text: String) -> Int {
        var line = 1
        var lineStart = text.utf8.startIndex
        while line < position.line, let newline = text.utf8[lineStart...].firstIndex(of: 0x0A) {
            line += 1
            lineStart = text.utf8.index(after: newline)
        }
        let end =
            text.utf8.index(lineStart, offsetBy: position.byteColumn - 1, limitedBy: text.utf8.endIndex)
            ?? text.utf8.endIndex
        return Substring(text.utf8[lineStart..<end]).count + 1
    }
}
