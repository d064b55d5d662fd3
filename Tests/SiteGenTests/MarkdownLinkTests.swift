import CommonMark
import Foundation
import Testing

@Suite("Markdown adapter: links")
struct MarkdownLinkTests {
    @Test("an image whose source is dangerous becomes its alt text (an <img> without a source is not valid HTML)")
    func dangerousImages() {
        let text = """
            ![e *x*](javascript:alert(1)) ![v](VBScript:x) ![f](file:///etc/passwd) ![d](data:text/html,x)
            ![png](data:image/png;base64,AA==) ![ok](/a.png) [link](javascript:alert(1))
            """
        let safe = Markdown.render(text, allowRawHTML: false).html
        #expect(
            safe == """
                <p>e <em>x</em> v f d
                <img src="data:image/png;base64,AA==" alt="png" /> <img src="/a.png" alt="ok" /> <a href="">link</a></p>

                """)
        // Through the hook as well, and with raw HTML allowed the author's sources are kept.
        #expect(Markdown.render(text, allowRawHTML: false, rewritingLinks: { _ in nil }).html == safe)
        #expect(
            Markdown.render(text, allowRawHTML: true).html.contains(#"<img src="javascript:alert(1)" alt="e x" />"#))
    }

    @Test("every link and image reaches the hook with its destination, line and column in scalars")
    func linksAndPositions() {
        let text = """
            See [Piranesi](/books/piranesi/) and ![a cat](/images/cat.png "Cat").
            Then [again][ref], **[in bold](b.md)**, <https://example.org/>.

            > 기생충 [quoted](../movies/parasite.md#cast)

            - é [in a list](k.md)

            [ref]: ../movies/parasite.md

            """
        var seen: [MarkdownLink] = []
        let rendered = Markdown.render(text, allowRawHTML: false) { link in
            seen.append(link)
            return nil
        }
        #expect(
            seen == [
                MarkdownLink(destination: "/books/piranesi/", isImage: false, line: 1, column: 5),
                MarkdownLink(destination: "/images/cat.png", isImage: true, line: 1, column: 38),
                MarkdownLink(destination: "../movies/parasite.md", isImage: false, line: 2, column: 6),
                MarkdownLink(destination: "b.md", isImage: false, line: 2, column: 22),
                // cmark gives autolinks no useful position; nothing sitegen rewrites is one.
                MarkdownLink(destination: "https://example.org/", isImage: false, line: 2, column: seen[4].column),
                MarkdownLink(destination: "../movies/parasite.md#cast", isImage: false, line: 4, column: 7),
                MarkdownLink(destination: "k.md", isImage: false, line: 6, column: 5),
            ])
        #expect(rendered == Markdown.render(text, allowRawHTML: false))
    }

    @Test("the hook's answer replaces the destination, escaped as cmark escapes any; nil keeps it")
    func rewriting() {
        let text = "[a](/x/) [b](keep.md) ![c](/i.png) [d](/y/?q=1&r=2)\n"
        let rendered = Markdown.render(text, allowRawHTML: false) { link in
            link.destination.hasPrefix("/") ? "/base" + link.destination + (link.isImage ? "" : "#é") : nil
        }
        #expect(
            rendered.html
                == "<p><a href=\"/base/x/#%C3%A9\">a</a> <a href=\"keep.md\">b</a> "
                + "<img src=\"/base/i.png\" alt=\"c\" /> <a href=\"/base/y/?q=1&amp;r=2#%C3%A9\">d</a></p>\n")
        #expect(rendered.firstParagraph == "a b c d")
    }

    @Test("CR LF and lone CR end lines; a link after them has the right line")
    func lineEndings() {
        var seen: [MarkdownLink] = []
        _ = Markdown.render("one\r\ntwo\rthree [x](y.md)\n", allowRawHTML: false) { link in
            seen.append(link)
            return nil
        }
        #expect(seen == [MarkdownLink(destination: "y.md", isImage: false, line: 3, column: 7)])
    }
}
