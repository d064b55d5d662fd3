import Testing

@testable import SiteGen

/// Exported review HTML with unclosed tags and unfinished markup: what the Markdown is where the
/// converter's bounds apply, and that converting it stays proportional to its length.
@Suite("Malformed review HTML to Markdown")
struct HTMLToMarkdownMalformedTests {
    struct Case: Sendable, CustomStringConvertible {
        let html: String
        let markdown: String
        var description: String { html }
    }

    static let cases: [Case] = [
        // Unclosed inline elements stay open across paragraph breaks, however many there are.
        Case(html: String(repeating: "<p><i>a", count: 5), markdown: "*a*\n\n*a*\n\n*a*\n\n*a*\n\n*a*\n"),
        Case(html: String(repeating: "<p><i>", count: 5) + "x", markdown: "*x*\n"),
        Case(html: String(repeating: "<i>a<br><br>", count: 5), markdown: "*a*\n\n*a*\n\n*a*\n\n*a*\n\n*a*\n"),
        Case(html: String(repeating: "<blockquote><i>", count: 3) + "x", markdown: "> > > *x*\n"),
        Case(
            html: String(repeating: "<p><a href=\"https://u.example/\">", count: 5) + "x",
            markdown: "[x](https://u.example/)\n"),
        // Past three open elements of a family, more get no frame; their end tags still count.
        // (Each output is also what an unbounded writer gives.)
        Case(
            html: String(repeating: "<i>", count: 5) + "x" + String(repeating: "</i>", count: 4) + "y</i>z",
            markdown: "*xy*z\n"),
        Case(
            html: String(repeating: "<b>", count: 5) + "<i>x</i>" + String(repeating: "</b>", count: 5) + "y",
            markdown: "***x***y\n"),
        Case(
            html: String(repeating: "<i>", count: 4) + "<b>x</i>y", markdown: "***x**y*\n"),
        // Where the bound shows: a frame would have joined the spaces around its start tag.
        Case(html: String(repeating: "<i>", count: 4) + "a <i> b", markdown: "*a  b*\n"),
        // Block quotes are written at most 16 deep; their end tags still count.
        Case(
            html: String(repeating: "<blockquote>", count: 20) + "x" + String(repeating: "</blockquote>", count: 5)
                + "y" + String(repeating: "</blockquote>", count: 15) + "z",
            markdown: String(repeating: "> ", count: 16) + "x\n"
                + Array(repeating: ">", count: 15).joined(separator: " ") + "\n" + String(repeating: "> ", count: 15)
                + "y\n\nz\n"),
        // A comment or a quoted attribute value that does not end is text.
        Case(html: "a<!--b<!--c", markdown: "a\\<!--b\\<!--c\n"),
        Case(html: "a<!--<!--b-->c", markdown: "ac\n"),
        Case(html: "<a href=\"x<b>y</b> <a href=\"z", markdown: "\\<a href=\"x**y** \\<a href=\"z\n"),
        Case(html: "<a x=<b>y</b>", markdown: "y\n"),
    ]

    @Test("unclosed tags and unfinished markup become this Markdown", arguments: cases)
    func converts(_ example: Case) {
        #expect(HTMLToMarkdown.convert(example.html) == example.markdown)
    }

    /// Inputs that took time quadratic in their length; each is repeated to about 200 KB.
    static let pathological = [
        "<p><i>", "<i>a<br><br>", "<blockquote><i>", "<p><a href=\"https://u.example/\">", "<i>a", "<i><b>a",
        "<blockquote>x", "<!--", "<a x=", "<i>a</b>",
    ]

    @Test("pathological HTML of 200 KB converts to Markdown of about its length", arguments: pathological)
    func proportional(_ unit: String) {
        let html = String(repeating: unit, count: 200_000 / unit.utf8.count) + "x"
        let markdown = HTMLToMarkdown.convert(html)
        // The text at the end is kept (before a closing `*` or a link's destination).
        #expect(markdown.suffix(40).contains("x"))
        #expect(markdown.utf8.count < 8 * html.utf8.count)
    }
}
