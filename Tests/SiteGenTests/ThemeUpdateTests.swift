import Testing

@testable import SiteGen

/// A theme edit while serving renders again only the pages whose templates can differ.
@Suite("Templates a theme edit affects")
struct ThemeUpdateTests {
    private func theme(_ templates: [String: String]) -> Theme {
        Theme(templates: templates.mapValues { (text: $0, path: "Templates/x.mustache") }, assets: [:])
    }

    private let base = [
        "layout": "<html>{{$content}}{{/content}}{{>footer}}</html>",
        "footer": "<footer>{{>credit}}</footer>",
        "credit": "sitegen",
        "card": "<li>{{title}}</li>",
        "review": "{{<layout}}{{$content}}<h1>{{title}}</h1>{{/content}}{{/layout}}",
        "tag": "{{<layout}}{{$content}}{{#cards}}{{>card}}{{/cards}}{{/content}}{{/layout}}",
        "plain": "<p>{{text}}</p>",
        "chooser": "{{>*which}}",
    ]

    private func affected(_ edit: (inout [String: String]) -> Void) throws -> Set<String> {
        var edited = base
        edit(&edited)
        let new = theme(edited)
        return try LiveSite.templatesAffected(from: theme(base), to: new, in: SiteBuilder.compile(new))
    }

    @Test("a changed template affects itself and every template that includes it, at any depth")
    func spreadsToIncluders() throws {
        #expect(try affected { $0["card"] = "<li class=x>{{title}}</li>" } == ["card", "tag", "chooser"])
        #expect(try affected { $0["review"] = "{{<layout}}{{/layout}}" } == ["review", "chooser"])
        // credit is in footer, in layout, which review and tag extend.
        #expect(
            try affected { $0["credit"] = "made by sitegen" } == [
                "credit", "footer", "layout", "review", "tag", "chooser",
            ])
    }

    @Test("a template that came or went counts as changed; with no change, only a dynamic partial's includer counts")
    func cameOrWent() throws {
        #expect(try affected { $0["extra"] = "new" } == ["extra", "chooser"])
        #expect(try affected { $0["plain"] = nil } == ["plain", "chooser"])
        #expect(try affected { _ in } == ["chooser"])
    }
}
