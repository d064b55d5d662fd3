import Mustache
import Testing

/// HTML escaping of `{{x}}` and the two ways to turn it off.
@Suite("Escaping")
struct EscapingTests {
    @Test(
        "{{x}} escapes each of & < > \" '",
        arguments: [
            ("&", "&amp;"),
            ("<", "&lt;"),
            (">", "&gt;"),
            ("\"", "&quot;"),
            ("'", "&#39;"),
        ])
    func escapesCharacter(_ character: String, _ reference: String) throws {
        let template = try Template("[{{x}}]")
        #expect(try template.render(["x": .string(character)]) == "[\(reference)]")
    }

    @Test("{{x}} escapes a whole string, keeping the text between references")
    func escapesMixedText() throws {
        let template = try Template("<p title=\"{{title}}\">{{body}}</p>")
        let output = try template.render([
            "title": "Tom & Jerry's \"Show\"",
            "body": "<script>alert('x')</script> & more",
        ])
        #expect(
            output == "<p title=\"Tom &amp; Jerry&#39;s &quot;Show&quot;\">"
                + "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more</p>")
    }

    @Test("{{{x}}} and {{&x}} write the value unescaped")
    func tripleAndAmpersandDoNotEscape() throws {
        let value: Value = ["html": "<b>\"A\" & 'B'</b>"]
        #expect(try Template("{{{html}}}").render(value) == "<b>\"A\" & 'B'</b>")
        #expect(try Template("{{& html }}").render(value) == "<b>\"A\" & 'B'</b>")
        #expect(try Template("{{html}}").render(value) == "&lt;b&gt;&quot;A&quot; &amp; &#39;B&#39;&lt;/b&gt;")
    }

    @Test("template text itself is never escaped")
    func literalTextIsNotEscaped() throws {
        let template = try Template("<a href='/'>Home & \"more\"</a>{{x}}")
        #expect(try template.render(["x": "<"]) == "<a href='/'>Home & \"more\"</a>&lt;")
    }

    @Test("Korean and other non-ASCII text passes through unchanged")
    func nonASCIIPassesThrough() throws {
        let template = try Template("제목: {{title}} / {{{raw}}} — ★★★★½")
        let output = try template.render(["title": "한국어 <리뷰> & 평점", "raw": "<em>좋아요</em> 🎬"])
        #expect(output == "제목: 한국어 &lt;리뷰&gt; &amp; 평점 / <em>좋아요</em> 🎬 — ★★★★½")
    }

    @Test("numbers and booleans are escaped like strings (nothing to escape)")
    func scalarsInterpolate() throws {
        let template = try Template("{{n}} {{d}} {{b}}")
        #expect(try template.render(["n": -3, "d": 2.5, "b": true]) == "-3 2.5 true")
    }

    @Test("escaping still applies with custom delimiters")
    func escapingWithCustomDelimiters() throws {
        let template = try Template("{{=<% %>=}}<%x%> <%{x}%> <%&x%>")
        #expect(try template.render(["x": "a<b"]) == "a&lt;b a<b a<b")
    }

    @Test("renderBytes gives the UTF-8 of render")
    func renderBytesMatchesRender() throws {
        let template = try Template("{{x}} 한글")
        let value: Value = ["x": "&"]
        #expect(try template.renderBytes(value) == Array(try template.render(value).utf8))
        #expect(try template.renderBytes(value) == Array("&amp; 한글".utf8))
    }
}
