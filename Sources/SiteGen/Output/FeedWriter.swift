/// Writes the Atom feed (RFC 4287) from its model.
enum FeedWriter {
    static func xml(_ feed: FeedModel) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="utf-8"?>"#,
            #"<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="\#(XML.escape(feed.language))">"#,
            "  <title>\(XML.escape(feed.title))</title>",
        ]
        if !feed.subtitle.isEmpty { lines.append("  <subtitle>\(XML.escape(feed.subtitle))</subtitle>") }
        lines += [
            #"  <link rel="self" type="application/atom+xml" href="\#(XML.escape(feed.selfURL))"/>"#,
            #"  <link rel="alternate" type="text/html" href="\#(XML.escape(feed.siteURL))"/>"#,
            "  <id>\(XML.escape(feed.siteURL))</id>",
            "  <updated>\(feed.updated)</updated>",
            "  <author><name>\(XML.escape(feed.author))</name></author>",
            "  <generator>sitegen</generator>",
        ]
        for entry in feed.entries {
            lines += [
                #"  <entry xml:lang="\#(XML.escape(entry.language))">"#,
                "    <title>\(XML.escape(entry.title))</title>",
                #"    <link rel="alternate" type="text/html" href="\#(XML.escape(entry.url))"/>"#,
                "    <id>\(XML.escape(entry.url))</id>",
                "    <published>\(entry.published)</published>",
                "    <updated>\(entry.updated)</updated>",
            ]
            lines += entry.categories.map { #"    <category term="\#(XML.escape($0))"/>"# }
            if !entry.summary.isEmpty { lines.append("    <summary>\(XML.escape(entry.summary))</summary>") }
            // Relative URLs in the review (a page bundle's `still.jpg`) resolve against its page,
            // as on the page itself, not against the feed.
            lines.append(
                #"    <content type="html" xml:base="\#(XML.escape(entry.url))">\#(XML.escape(entry.contentHTML))</content>"#
            )
            lines.append("  </entry>")
        }
        lines.append("</feed>")
        return lines.joined(separator: "\n") + "\n"
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
