import Foundation
import Testing

@testable import SiteGen

@Suite("sitegen check: reading pages and resolving links")
struct HTMLScannerTests {
    func scan(_ html: String, xml: Bool = false) -> HTMLScanner.Page {
        var html = html
        return html.withUTF8 {
            xml ? HTMLScanner.scanXML(UnsafeRawBufferPointer($0)) : HTMLScanner.scan(UnsafeRawBufferPointer($0))
        }
    }

    @Test("links, images, srcset entries, stylesheets, scripts, icons and meta URLs; ids and a[name]")
    func whatIsFound() {
        let page = scan(
            """
            <!doctype html><HTML><head>
            <LINK REL="stylesheet" HREF='/s.css'><link rel="icon" href=/i.svg><link rel=preconnect href="https://cdn">
            <link rel="canonical" href="https://example.org/x/"><meta property="og:image" content="/og.png">
            <script src="/a.js"></script><script>if (a < b) { document.write('<a href="/not-a-link/">') }</script>
            <style>a[href="/nor-this"] {}</style><!-- <a href="/commented/"> -->
            <title>Links look <a href="/in-title/"></title>
            </head><body id="top-of-page"><textarea><a href="/in-textarea/"></a></TEXTAREA>
            <a href="/x/?a=1&amp;b=2#f" id=unquoted>x</a><a name="old-anchor"></a><a href>empty</a>
            <img src="/p.jpg" srcset="/p-1.jpg 1x,/p-2.jpg 2x, /p,3.jpg 3x" alt="a > b">
            <video poster="/poster.png" src="/v.mp4"></video><p id="é&#233;">text</p>
            """)
        #expect(
            page.links == [
                FoundLink(url: "/s.css", kind: .stylesheet), FoundLink(url: "/i.svg", kind: .image),
                FoundLink(url: "https://example.org/x/", kind: .link), FoundLink(url: "/og.png", kind: .image),
                FoundLink(url: "/a.js", kind: .script), FoundLink(url: "/x/?a=1&b=2#f", kind: .link),
                FoundLink(url: "", kind: .link), FoundLink(url: "/p.jpg", kind: .image),
                FoundLink(url: "/p-1.jpg", kind: .image), FoundLink(url: "/p-2.jpg", kind: .image),
                FoundLink(url: "/p,3.jpg", kind: .image), FoundLink(url: "/v.mp4", kind: .resource),
                FoundLink(url: "/poster.png", kind: .image),
            ])
        #expect(page.ids == ["top-of-page", "unquoted", "old-anchor", "éé"])
    }

    @Test("a sitemap's locations, a feed's links and the relative URLs of its entries' HTML")
    func xml() {
        let page = scan(
            """
            <?xml version="1.0"?><feed><link href="https://example.org/feed.xml" rel="self"/>
            <entry><content type="html">&lt;p&gt;&lt;a href="/r/"&gt;a&lt;/a&gt;&lt;img src="x.png"&gt;</content></entry>
            <entry><content type="html" xml:base="https://example.org/m/">&lt;img src="y.png"&gt;</content></entry>
            <url><loc> https://example.org/a/ </loc></url></feed>
            """, xml: true)
        #expect(
            page.links == [
                FoundLink(url: "https://example.org/feed.xml", kind: .link),
                FoundLink(url: "/r/", kind: .link, inEntry: true), FoundLink(url: "x.png", kind: .image, inEntry: true),
                FoundLink(url: "y.png", kind: .image, inEntry: true, base: "https://example.org/m/"),
                FoundLink(url: "https://example.org/a/", kind: .link),
            ])
    }

    @Test("comments end where browsers end them: at -->, --!>, and at once in <!--> and <!--->")
    func comments() {
        let page = scan(
            """
            <!--><a href="/a/"><!---><a href="/b/"><!-- note --!><a href="/c/">
            <!-- x --!-- y --><a href="/d/"><!-- ok --><a href="/e/"><!----><a href="/f/">
            <!-- a --- b ---><a href="/g/"><!-- <a href="/hidden/"> -- --><!-- --!x <a href="/also-hidden/"> -->
            <!-- - -> <a href="/still-hidden/"> --->
            <!-- never closed <a href="/never/">
            """)
        #expect(page.links.map(\.url) == ["/a/", "/b/", "/c/", "/d/", "/e/", "/f/", "/g/"])
        // In a feed (XML), only --> ends a comment.
        let feed = scan("<!--><link href=\"/x/\"/>--><link href=\"/y/\"/>", xml: true)
        #expect(feed.links.map(\.url) == ["/y/"])
    }

    @Test("resolving: the base path, folders, dot segments, percent escapes, other sites and schemes")
    func resolving() throws {
        let base = try #require(BaseURL("https://example.org/reviews/"))
        let files: Set = ["index.html", "movies/기생충/index.html", "movies/a/index.html", "site.css", "\u{301}x.txt"]
        let resolver = LinkResolver(base: base, files: files)
        let resolve = { (url: String) in resolver.resolve(url, from: "/reviews/movies/a/") }
        #expect(resolve("/reviews/") == .file("index.html", fragment: nil))
        #expect(
            resolve("/reviews/movies/%EA%B8%B0%EC%83%9D%EC%B6%A9/#cast")
                == .file("movies/기생충/index.html", fragment: "cast"))
        #expect(resolve("../../site.css?v=2") == .file("site.css", fragment: nil))
        // A name that starts with a combining mark: as Characters, the mark joined the slash.
        #expect(resolve("/reviews/%CC%81x.txt") == .file("\u{301}x.txt", fragment: nil))
        #expect(resolve("/reviews/%CC%81y.txt") == .missing("\u{301}y.txt"))
        #expect(resolve("./") == .file("movies/a/index.html", fragment: nil))
        #expect(resolve("/reviews/movies/a") == .file("movies/a/index.html", fragment: nil))
        #expect(resolve("HTTPS://EXAMPLE.ORG/reviews/site.css") == .file("site.css", fragment: nil))
        #expect(resolve("//example.org/reviews/site.css") == .file("site.css", fragment: nil))
        #expect(resolve("https://example.org:443/reviews/site.css") == .file("site.css", fragment: nil))
        #expect(resolve("https://Example.org:/reviews/nope/") == .missing("nope/"))
        #expect(resolve("https://example.org:8443/reviews/") == .external("https://example.org:8443/reviews/"))
        #expect(resolve("http://example.org/reviews/") == .external("http://example.org/reviews/"))
        #expect(resolve("https://example.org.evil/reviews/") == .external("https://example.org.evil/reviews/"))
        #expect(resolve("https://example.org?q") == .outside)
        #expect(resolve("/reviews/nope/") == .missing("nope/"))
        #expect(resolve("/elsewhere/") == .outside)
        #expect(resolve("../../../x/") == .outside)
        // The site's folder without its final slash, as a server redirects it; not a longer name.
        #expect(resolve("/reviews") == .file("index.html", fragment: nil))
        #expect(resolve("https://example.org/reviews#top") == .file("index.html", fragment: "top"))
        #expect(resolve("/reviewsx") == .outside)
        #expect(resolve("/reviews/../reviews") == .file("index.html", fragment: nil))
        // Dot segments above the root stay at the root, as browsers resolve them.
        let atRoot = LinkResolver(base: try #require(BaseURL("https://example.org/")), files: files)
        #expect(atRoot.resolve("/../movies/a/", from: "/") == .file("movies/a/index.html", fragment: nil))
        #expect(atRoot.resolve("/movies/../../movies/a/", from: "/") == .file("movies/a/index.html", fragment: nil))
        #expect(atRoot.resolve("../../site.css", from: "/movies/") == .file("site.css", fragment: nil))
        #expect(resolve("/reviews/../../reviews/site.css") == .file("site.css", fragment: nil))
        #expect(resolve("https://other.example/a#b") == .external("https://other.example/a"))
        #expect(resolve("//other.example/a") == .external("https://other.example/a"))
        #expect(resolve("mailto:me@example.org") == .ignored)
        #expect(resolve("data:image/png;base64,AA") == .ignored)
        let explicit = LinkResolver(base: try #require(BaseURL("https://example.org:443/reviews/")), files: files)
        #expect(explicit.resolve("https://example.org/reviews/site.css", from: "/") == .file("site.css", fragment: nil))
        let local = LinkResolver(base: try #require(BaseURL("http://127.0.0.1:8080/")), files: files)
        #expect(local.resolve("http://127.0.0.1:8080/site.css", from: "/") == .file("site.css", fragment: nil))
        #expect(local.resolve("http://127.0.0.1/site.css", from: "/") == .external("http://127.0.0.1/site.css"))
        #expect(local.resolve("http://127.0.0.1:8080#top", from: "/") == .file("index.html", fragment: "top"))
        // A scheme is a letter, then letters, digits, + - or ., then ":"; any other colon is in a relative URL.
        #expect(LinkResolver.scheme(of: "x-y+z.1:a") == "x-y+z.1")
        #expect(LinkResolver.scheme(of: "HTTPS://example.org/") == "HTTPS")
        for relative in ["../12:30.txt", "a/b:c", "?t=12:30", "#fn:1", "1a:b", ":x", "\u{E9}:x", "a b:c", ""] {
            #expect(LinkResolver.scheme(of: relative) == nil, "\(relative)")
        }
        #expect(resolve("../../files/12:30.txt") == .missing("files/12:30.txt"))
        #expect(LinkResolver.percentDecoded("a%20b%zz%4") == "a b%zz%4")
        #expect(LinkResolver.percentDecoded("%EA%B8%B0%ff") == "기\u{FFFD}")
    }

    @Test("a feed entry's relative URLs resolve against its xml:base when that is an address of the site")
    func entryBase() throws {
        let base = try #require(BaseURL("https://example.org/reviews/"))
        let link = { (xmlBase: String?) in FoundLink(url: "still.png", kind: .image, inEntry: true, base: xmlBase) }
        let feed = "/reviews/movies/feed.xml"
        let document = { (xmlBase: String?) in LinkChecker.document(of: link(xmlBase), on: feed, base: base) }
        #expect(document(nil) == feed)
        #expect(document("https://example.org/reviews/movies/2046/") == "/reviews/movies/2046/")
        #expect(document("https://example.org/reviews/movies/%EA%B8%B0/x?q#f") == "/reviews/movies/%EA%B8%B0/x")
        #expect(document("https://example.org/reviews/") == "/reviews/")
        // Another site's address, or this host outside the base path: the feed itself.
        #expect(document("https://other.example/reviews/a/") == feed)
        #expect(document("https://example.org/a/") == feed)
    }

    @Test("an empty URL, a query or a fragment alone resolves against the page itself; others against its folder")
    func linkKeys() throws {
        let page = "/reviews/docs/page.html"
        #expect(LinkKey("", document: page).directory == page)
        #expect(LinkKey(" ?lang=en#sec", document: page).directory == page)
        #expect(LinkKey("#sec", document: page).directory == page)
        #expect(LinkKey("other.html?x", document: page).directory == "/reviews/docs/")
        #expect(LinkKey("/reviews/", document: page).directory == "")
        #expect(LinkKey("mailto:me@example.org", document: page).directory == "")
        let resolver = LinkResolver(
            base: try #require(BaseURL("https://example.org/reviews/")), files: ["docs/page.html"])
        for url in ["", "?lang=en", "?lang=en#sec"] {
            let key = LinkKey(url, document: page)
            #expect(
                resolver.resolve(key.url, from: key.directory)
                    == .file("docs/page.html", fragment: url.hasSuffix("#sec") ? "sec" : nil))
        }
    }
}
