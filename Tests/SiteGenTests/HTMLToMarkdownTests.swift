import CommonMark
import Testing

@testable import SiteGen

/// Exported review HTML to Markdown: the Markdown written, and the HTML cmark makes of it,
/// which must show what the export showed.
@Suite("Review HTML to Markdown")
struct HTMLToMarkdownTests {
    struct Case: Sendable, CustomStringConvertible {
        let html: String
        let markdown: String
        let rendered: String
        var description: String { html }
    }

    static let cases: [Case] = [
        Case(html: "Plain words.", markdown: "Plain words.\n", rendered: "<p>Plain words.</p>\n"),
        Case(html: "", markdown: "", rendered: ""),
        Case(
            html: "The <i>stairs</i> and <b>the rock</b>.", markdown: "The *stairs* and **the rock**.\n",
            rendered: "<p>The <em>stairs</em> and <strong>the rock</strong>.</p>\n"),
        Case(
            html: "<em>one</em> <strong>two</strong> <I>three</I>", markdown: "*one* **two** *three*\n",
            rendered: "<p><em>one</em> <strong>two</strong> <em>three</em></p>\n"),
        Case(
            html: "line one<br>line two<br />line three<BR/>", markdown: "line one\\\nline two\\\nline three\n",
            rendered: "<p>line one<br />\nline two<br />\nline three</p>\n"),
        Case(
            html: "First.<br/><br/>Second.", markdown: "First.\n\nSecond.\n",
            rendered: "<p>First.</p>\n<p>Second.</p>\n"),
        Case(
            html: "Typed line\nnext line\n\nnew paragraph", markdown: "Typed line\\\nnext line\n\nnew paragraph\n",
            rendered: "<p>Typed line<br />\nnext line</p>\n<p>new paragraph</p>\n"),
        Case(
            html: "<p>One</p><p>Two</p>", markdown: "One\n\nTwo\n", rendered: "<p>One</p>\n<p>Two</p>\n"),
        Case(
            html: "See <a href=\"https://letterboxd.com/film/parasite-2019/\">the film</a>.",
            markdown: "See [the film](https://letterboxd.com/film/parasite-2019/).\n",
            rendered: "<p>See <a href=\"https://letterboxd.com/film/parasite-2019/\">the film</a>.</p>\n"),
        Case(
            html: "<a href='https://example.org/a_(b) c'>odd</a>",
            markdown: "[odd](https://example.org/a_%28b%29%20c)\n",
            rendered: "<p><a href=\"https://example.org/a_%28b%29%20c\">odd</a></p>\n"),
        Case(
            html: "<a href=\"https://example.org/\">https://example.org/</a>", markdown: "<https://example.org/>\n",
            rendered: "<p><a href=\"https://example.org/\">https://example.org/</a></p>\n"),
        Case(
            html: "<a href=\"javascript:alert(1)\">click</a> me", markdown: "click me\n",
            rendered: "<p>click me</p>\n"),
        Case(
            html: "Before<blockquote>Quoted <i>words</i><br>and more</blockquote>After",
            markdown: "Before\n\n> Quoted *words*\\\n> and more\n\nAfter\n",
            rendered:
                "<p>Before</p>\n<blockquote>\n<p>Quoted <em>words</em><br />\nand more</p>\n</blockquote>\n<p>After</p>\n"
        ),
        Case(
            html: "<blockquote><p>one</p><p>two</p></blockquote>", markdown: "> one\n>\n> two\n",
            rendered: "<blockquote>\n<p>one</p>\n<p>two</p>\n</blockquote>\n"),
        Case(
            html:
                "Tom &amp; Jerry &lt;3 &quot;quoted&quot; &#39;single&#39; &#x2014; &hellip; &eacute;t&eacute; &nbsp;x",
            markdown: "Tom & Jerry \\<3 \"quoted\" 'single' — … été \u{A0}x\n",
            rendered: "<p>Tom &amp; Jerry &lt;3 &quot;quoted&quot; 'single' — … été \u{A0}x</p>\n"),
        Case(
            html: "a &amp;copy; b &unknown; c & d", markdown: "a \\&copy; b \\&unknown; c & d\n",
            rendered: "<p>a &amp;copy; b &amp;unknown; c &amp; d</p>\n"),
        Case(
            html: "*stars* _under_ `tick` [brackets] back\\slash",
            markdown: "\\*stars\\* \\_under\\_ \\`tick\\` \\[brackets\\] back\\\\slash\n",
            rendered: "<p>*stars* _under_ `tick` [brackets] back\\slash</p>\n"),
        Case(
            html: "# not a heading<br>- not a list<br>1984. not a list<br>> not a quote<br>===<br>+ plus",
            markdown:
                "\\# not a heading\\\n\\- not a list\\\n1984\\. not a list\\\n\\> not a quote\\\n\\===\\\n\\+ plus\n",
            rendered:
                "<p># not a heading<br />\n- not a list<br />\n1984. not a list<br />\n&gt; not a quote<br />\n===<br />\n+ plus</p>\n"
        ),
        Case(
            html: "    four spaces<br>\ttab", markdown: "four spaces\\\ntab\n",
            rendered: "<p>four spaces<br />\ntab</p>\n"),
        Case(
            html: "<b>bold </b>word and <i> spaced </i>end<i></i>", markdown: "**bold** word and *spaced* end\n",
            rendered: "<p><strong>bold</strong> word and <em>spaced</em> end</p>\n"),
        Case(
            html: "<i>italic across<br><br>paragraphs</i>", markdown: "*italic across*\n\n*paragraphs*\n",
            rendered: "<p><em>italic across</em></p>\n<p><em>paragraphs</em></p>\n"),
        Case(
            html: "<b>unclosed bold", markdown: "**unclosed bold**\n",
            rendered: "<p><strong>unclosed bold</strong></p>\n"),
        Case(
            html: "stray</i> end</b>", markdown: "stray end\n", rendered: "<p>stray end</p>\n"),
        Case(
            html: "a <tomato> b <3 c < d", markdown: "a \\<tomato> b \\<3 c \\< d\n",
            rendered: "<p>a &lt;tomato&gt; b &lt;3 c &lt; d</p>\n"),
        Case(
            html: "x<!-- hidden -->y<script>alert(1)</script>z<span class=\"s\">w</span>",
            markdown: "xyzw\n", rendered: "<p>xyzw</p>\n"),
        Case(
            html: "기생충은 <i>계단</i>의 영화다.<br/>반지하 &amp; 저택", markdown: "기생충은 *계단*의 영화다.\\\n반지하 & 저택\n",
            rendered: "<p>기생충은 <em>계단</em>의 영화다.<br />\n반지하 &amp; 저택</p>\n"),
        Case(
            html: "trailing breaks<br><br><br>", markdown: "trailing breaks\n", rendered: "<p>trailing breaks</p>\n"),
        Case(
            html: "<a href=\"https://a.example/\">outer <a href=\"https://b.example/\">inner</a></a>",
            markdown: "[outer inner](https://a.example/)\n",
            rendered: "<p><a href=\"https://a.example/\">outer inner</a></p>\n"),
    ]

    /// Emphasis where CommonMark's flanking rules would leave `*` as text (a closing one after
    /// punctuation and before a letter, adjacent emphasis making `**`): punctuation at the edge
    /// moves outside, adjacent emphasis is one, and none shows a literal asterisk.
    static let flanking: [Case] = [
        Case(
            html: "<b>‘기생충’</b>은 좋다", markdown: "**‘기생충**’은 좋다\n",
            rendered: "<p><strong>‘기생충</strong>’은 좋다</p>\n"),
        Case(
            html: "<b>Spoiler:</b>the end", markdown: "**Spoiler**:the end\n",
            rendered: "<p><strong>Spoiler</strong>:the end</p>\n"),
        Case(html: "<i>\"Heat\"</i>s", markdown: "*\"Heat*\"s\n", rendered: "<p><em>&quot;Heat</em>&quot;s</p>\n"),
        Case(html: "<i>x</i><i>y</i>", markdown: "*xy*\n", rendered: "<p><em>xy</em></p>\n"),
        Case(html: "<i>x:</i><i>y:</i>z", markdown: "*x:y*:z\n", rendered: "<p><em>x:y</em>:z</p>\n"),
        Case(html: "<b>Note:</b> text", markdown: "**Note:** text\n", rendered: "<p><strong>Note:</strong> text</p>\n"),
        Case(html: "<b>x:</b><br>y", markdown: "**x:**\\\ny\n", rendered: "<p><strong>x:</strong><br />\ny</p>\n"),
        Case(html: "<b>!!</b>x", markdown: "!!x\n", rendered: "<p>!!x</p>\n"),
        Case(html: "<b>5*</b>x", markdown: "**5**\\*x\n", rendered: "<p><strong>5</strong>*x</p>\n"),
        Case(
            html: "<b><i>x:</i></b>y", markdown: "***x***:y\n",
            rendered: "<p><em><strong>x</strong></em>:y</p>\n"),
        Case(html: "a<b>\"x\"</b>", markdown: "a\"**x\"**\n", rendered: "<p>a&quot;<strong>x&quot;</strong></p>\n"),
        Case(html: "a<i>(b)</i>c", markdown: "a(*b*)c\n", rendered: "<p>a(<em>b</em>)c</p>\n"),
        Case(html: "<i>x</i><b>y</b>", markdown: "*x***y**\n", rendered: "<p><em>x</em><strong>y</strong></p>\n"),
        Case(
            html: "<a href=\"https://u.example/\"><b>x:</b></a>y", markdown: "[**x:**](https://u.example/)y\n",
            rendered: "<p><a href=\"https://u.example/\"><strong>x:</strong></a>y</p>\n"),
        // A link right after `!` is not an image (it was: `![link](…)`).
        Case(
            html: "Wow!<a href=\"https://u.example/\">link</a>", markdown: "Wow\\![link](https://u.example/)\n",
            rendered: "<p>Wow!<a href=\"https://u.example/\">link</a></p>\n"),
        Case(
            html: "Wow!<i><a href=\"https://u.example/\">link</a></i>", markdown: "Wow!*[link](https://u.example/)*\n",
            rendered: "<p>Wow!<em><a href=\"https://u.example/\">link</a></em></p>\n"),
        // A link's `[` or `)` beside a letter: the emphasis cannot be written, its text stays.
        Case(
            html: "x<b><a href=\"https://u.example/\">y</a></b>z", markdown: "x[y](https://u.example/)z\n",
            rendered: "<p>x<a href=\"https://u.example/\">y</a>z</p>\n"),
        Case(html: "<i><i>x</i></i>", markdown: "*x*\n", rendered: "<p><em>x</em></p>\n"),
        Case(html: "<b>x<b>y</b>z</b>", markdown: "**xyz**\n", rendered: "<p><strong>xyz</strong></p>\n"),
    ]

    @Test("emphasis next to punctuation or other emphasis renders as emphasis", arguments: flanking)
    func flankingEmphasis(_ example: Case) {
        check(example)
    }

    @Test("random nestings of bold and italics around letters, punctuation and spaces never show an asterisk")
    func randomEmphasis() {
        let pieces = ["<b>", "</b>", "<i>", "</i>", "x", "y", "기", ":", "\"", "‘", "’", " ", "(", ")", "!", "é"]
        var state = SplitMix(seed: 0x5EED)
        var failures: [String] = []
        for _ in 0..<3000 {
            var html = ""
            for _ in 0..<Int.random(in: 2...12, using: &state) { html += pieces.randomElement(using: &state)! }
            let rendered = Markdown.render(HTMLToMarkdown.convert(html), allowRawHTML: false).html
            let text = { (html: String) in
                html.replacing(/<[^>]*>/, with: "").replacing("&quot;", with: "\"").replacing(/\s+/, with: " ")
                    .trimmingCharacters(in: .whitespaces)
            }
            if rendered.contains("*") || text(rendered) != text(html) { failures.append(html) }
        }
        for failure in failures.prefix(8) { print("FAIL", failure.debugDescription) }
        #expect(failures.isEmpty, "\(failures.prefix(10))")
    }

    @Test("each construct becomes Markdown that renders as the export showed it", arguments: cases)
    func converts(_ example: Case) {
        check(example)
    }

    /// The Markdown written for the case's HTML, and the HTML cmark makes of it.
    func check(_ example: Case) {
        let markdown = HTMLToMarkdown.convert(example.html)
        #expect(markdown == example.markdown)
        #expect(Markdown.render(markdown, allowRawHTML: false).html == example.rendered)
    }

    @Test("entities decode by name and number; a bad reference stays as written")
    func entities() {
        #expect(
            HTMLTokenizer.decodeEntities("&amp;&#65;&#x42;&#0;&#x110000;&bogus;&amp")
                == "&AB\u{FFFD}\u{FFFD}&bogus;&amp")
    }

    @Test("CRLF in a review is one line break")
    func crlf() {
        #expect(HTMLToMarkdown.convert("a\r\nb\r\n\r\nc") == "a\\\nb\n\nc\n")
    }
}
