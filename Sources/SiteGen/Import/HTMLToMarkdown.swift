import Foundation

/// Turns the HTML of an exported review (Letterboxd's and Goodreads' few tags: `<i>`, `<b>`,
/// `<br>`, `<p>`, `<a>`, `<blockquote>`, entities) into Markdown that renders the same way:
/// `*italic*`, `**bold**`, `[text](url)`, `> quotes`, paragraphs, and a `\` at the end of a
/// line for a line break. A line break in the text counts as `<br>`, and two in a row (or
/// `<br><br>`) start a new paragraph, as the sites show them. Characters Markdown would read
/// as syntax are escaped, so the words come out as written. Other tags keep their text.
enum HTMLToMarkdown {
    /// The Markdown for `html`, ending with a line break unless empty.
    static func convert(_ html: String) -> String {
        var writer = Writer()
        var skipping: String?
        for token in HTMLTokenizer.tokens(html) {
            if let name = skipping {
                if token == .end(name) { skipping = nil }
                continue
            }
            switch token {
            case .text(let text):
                writer.text(text)
            case .start(let name, let attributes):
                switch name {
                case "br": writer.lineBreak()
                case "p", "div", "ul", "ol", "li", "dl", "dt", "dd", "pre", "table", "tr", "h1", "h2", "h3", "h4", "h5",
                    "h6", "hr", "center":
                    writer.paragraphBreak()
                case "blockquote": writer.quote(+1)
                case "i", "em", "cite": writer.open(.emphasis)
                case "b", "strong": writer.open(.strong)
                case "a": writer.open(.link(attributes["href"].flatMap(Self.linkDestination)))
                case "script", "style": skipping = name
                case "td", "th": writer.text(" ")
                default: break
                }
            case .end(let name):
                switch name {
                case "p", "div", "ul", "ol", "li", "dl", "dt", "dd", "pre", "table", "tr", "h1", "h2", "h3", "h4", "h5",
                    "h6", "center":
                    writer.paragraphBreak()
                case "blockquote": writer.quote(-1)
                case "i", "em", "cite": writer.close(.emphasis)
                case "b", "strong": writer.close(.strong)
                case "a": writer.closeLink()
                default: break
                }
            }
        }
        return writer.finish()
    }

    /// A link target Markdown can hold: http, https and mailto addresses only, with the
    /// characters that would end or break a link destination percent-encoded.
    static func linkDestination(_ href: String) -> String? {
        let trimmed = href.trimmingCharacters(in: .whitespacesAndNewlines)
        let lower = trimmed.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("mailto:") else {
            return nil
        }
        var result = ""
        for scalar in trimmed.unicodeScalars {
            if scalar.value < 0x21 || scalar.value == 0x7F || "<>()\\".unicodeScalars.contains(scalar) {
                for byte in String(scalar).utf8 {
                    result += (byte < 0x10 ? "%0" : "%") + String(byte, radix: 16, uppercase: true)
                }
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
