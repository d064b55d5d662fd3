/// Writes the Atom feed (RFC 4287) from its model.
enum FeedWriter {
    static func xml(_ feed: FeedModel) -> String {
        // One string, grown line by line: a tag's feed holds whole reviews, and a site with
        // thousands of tags writes thousands of feeds.
        var xml = ""
        let entryBytes = feed.entries.reduce(0) { $0 + $1.contentHTML.utf8.count + $1.summary.utf8.count + 512 }
        xml.reserveCapacity(1024 + entryBytes)
        func line(_ text: String) {
            xml += text
            xml += "\n"
        }
        line(#"<?xml version="1.0" encoding="utf-8"?>"#)
        line(#"<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="\#(XML.escape(feed.language))">"#)
        line("  <title>\(XML.escape(feed.title))</title>")
        if !feed.subtitle.isEmpty { line("  <subtitle>\(XML.escape(feed.subtitle))</subtitle>") }
        line(#"  <link rel="self" type="application/atom+xml" href="\#(XML.escape(feed.selfURL))"/>"#)
        line(#"  <link rel="alternate" type="text/html" href="\#(XML.escape(feed.siteURL))"/>"#)
        line("  <id>\(XML.escape(feed.siteURL))</id>")
        line("  <updated>\(feed.updated)</updated>")
        line("  <author><name>\(XML.escape(feed.author))</name></author>")
        line("  <generator>sitegen</generator>")
        for entry in feed.entries {
            line(#"  <entry xml:lang="\#(XML.escape(entry.language))">"#)
            line("    <title>\(XML.escape(entry.title))</title>")
            line(#"    <link rel="alternate" type="text/html" href="\#(XML.escape(entry.url))"/>"#)
            line("    <id>\(XML.escape(entry.url))</id>")
            line("    <published>\(entry.published)</published>")
            line("    <updated>\(entry.updated)</updated>")
            for category in entry.categories { line(#"    <category term="\#(XML.escape(category))"/>"#) }
            if !entry.summary.isEmpty { line("    <summary>\(XML.escape(entry.summary))</summary>") }
            // Relative URLs in the review (a page bundle's `still.jpg`) resolve against its page,
            // as on the page itself, not against the feed.
            xml += #"    <content type="html" xml:base="\#(XML.escape(entry.url))">"#
            xml += XML.escape(entry.contentHTML)
            line("</content>")
            line("  </entry>")
        }
        line("</feed>")
        return xml
    }
}

/// Writes `sitemap.xml` (sitemaps.org protocol 0.9): a sitemap, or a sitemap index.
enum SitemapWriter {
    static func xml(_ entries: [SitemapModel.Entry]) -> String {
        document("urlset", "url", entries)
    }

    /// A sitemap index naming the sitemaps `parts` (for sites over the protocol's 50,000
    /// addresses per sitemap), each with its newest date where it has one.
    static func index(_ parts: [SitemapModel.Entry]) -> String {
        document("sitemapindex", "sitemap", parts)
    }

    /// `<root>` holding an `<element>` with `<loc>` (and `<lastmod>` where known) per entry.
    private static func document(_ root: String, _ element: String, _ entries: [SitemapModel.Entry]) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="utf-8"?>"#,
            #"<\#(root) xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#,
        ]
        for entry in entries {
            let lastModified = entry.lastModified.map { "<lastmod>\($0)</lastmod>" } ?? ""
            lines.append("  <\(element)><loc>\(XML.escape(entry.url))</loc>\(lastModified)</\(element)>")
        }
        lines.append("</\(root)>")
        return lines.joined(separator: "\n") + "\n"
    }
}
