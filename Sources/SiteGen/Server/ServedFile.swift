import EventHTTP
import Foundation
import Mustache

/// A file as the preview server sends it: its type and ETag, made once per rebuild rather
/// than per request, and its bytes.
///
/// A page keeps the site's own bytes for it, not a copy with the script: the live-reload
/// script (and a failed rebuild's errors) go in as each request is answered, a copy of some
/// kilobytes, so that the server does not hold every page twice (300 MB at 10,000 reviews).
struct ServedFile: Sendable {
    private let content: Content
    let contentType: String
    let etag: String

    private enum Content {
        /// Sent as they are, without copying: a static file may be large.
        case bytes(SharedBytes)
        /// A page as built; the overlay and the script go in before its last `</body>`, at `at`.
        case page(Data, at: Int, overlay: [UInt8])
    }

    init(path: String, data: Data, overlay: String?) {
        let type = Self.contentType(of: path)
        if type.hasPrefix("text/html") {
            let at = data.withUnsafeBytes(LiveReload.insertionPoint)
            self.init(
                page: data, at: at, overlay: Array((overlay.map { LiveReload.overlayHTML($0) } ?? "").utf8), type: type)
        } else {
            // One copy, straight from the data.
            let bytes = data.withUnsafeBytes { SharedBytes(copying: $0) }
            self.init(.bytes(bytes), type: type, hash: bytes.withUnsafeBytes(Self.hash))
        }
    }

    private init(_ content: Content, type: String, hash: UInt64) {
        self.content = content
        contentType = type
        etag = "\"\(String(hash, radix: 16))\""
    }

    private init(page: Data, at: Int, overlay: [UInt8], type: String) {
        // The page's hash with where the additions go and what they are: a function of the
        // bytes sent, as that of a static file is, without joining them to hash them.
        let parts = [
            page.withUnsafeBytes(ContentHash.init), overlay.withUnsafeBytes(ContentHash.init),
            ContentHash(high: UInt64(at), low: UInt64(overlay.count)),
        ]
        self.init(.page(page, at: at, overlay: overlay), type: type, hash: ContentHash(combining: parts).high)
    }

    /// How many bytes are sent.
    var count: Int {
        switch content {
        case .bytes(let bytes): bytes.count
        case .page(let page, _, let overlay): page.count + overlay.count + LiveReload.scriptBytes.count
        }
    }

    /// The bytes sent: a static file's as held, a page's joined with the script for this request.
    var body: SharedBytes {
        switch content {
        case .bytes(let bytes): return bytes
        case .page(let page, let at, let overlay):
            return page.withUnsafeBytes { page in
                overlay.withUnsafeBytes { overlay in
                    LiveReload.scriptBytes.withUnsafeBytes { script in
                        SharedBytes(joining: [
                            UnsafeRawBufferPointer(rebasing: page[..<at]), overlay, script,
                            UnsafeRawBufferPointer(rebasing: page[at...]),
                        ])
                    }
                }
            }
        }
    }

    /// The page's bytes as the site holds them (for tests: they are not copied).
    var page: Data? {
        if case .page(let page, _, _) = content { page } else { nil }
    }

    /// This page with `overlay` (the errors of a failed rebuild) before its script, made when
    /// asked for, so that a failed rebuild does not copy the errors into every page at once;
    /// the file itself when it is not a page or there is no overlay.
    func overlaid(_ added: [UInt8]?) -> ServedFile {
        guard let added, case .page(let page, let at, let overlay) = content else { return self }
        return ServedFile(page: page, at: at, overlay: overlay + added, type: contentType)
    }

    static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html", "htm": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json"
        case "xml":
            path.hasSuffix("feed.xml") ? "application/atom+xml; charset=utf-8" : "application/xml; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        case "gif": "image/gif"
        case "ico": "image/x-icon"
        case "avif": "image/avif"
        case "woff2": "font/woff2"
        case "woff": "font/woff"
        case "ttf": "font/ttf"
        case "otf": "font/otf"
        case "txt": "text/plain; charset=utf-8"
        case "csv": "text/csv; charset=utf-8"
        case "md": "text/markdown; charset=utf-8"
        case "map": "application/json"
        case "webmanifest": "application/manifest+json"
        case "pdf": "application/pdf"
        case "wasm": "application/wasm"
        case "mp4", "m4v": "video/mp4"
        case "webm": "video/webm"
        case "mp3": "audio/mpeg"
        case "m4a": "audio/mp4"
        case "ogg": "audio/ogg"
        case "wav": "audio/wav"
        default: "application/octet-stream"
        }
    }

    /// Half of the bytes' ``ContentHash``: enough to tell versions of a file apart for `ETag`,
    /// and the same on every run, so a browser's cached copy still matches after a restart.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        ContentHash(bytes).high
    }
}

/// The script `serve` adds to HTML pages, and the overlay that shows build errors.
enum LiveReload {
    static let eventsPath = "/__sitegen/events"

    /// Reloads the page after each rebuild; swaps stylesheets when only CSS changed.
    static let script = """
        <script>(function(){var e=new EventSource("\(eventsPath)");\
        e.addEventListener("reload",function(){location.reload()});\
        e.addEventListener("css",function(){document.querySelectorAll('link[rel="stylesheet"]').forEach(function(l){\
        var u=new URL(l.href);u.searchParams.set("v",Date.now());l.href=u.href})});})();</script>
        """

    /// The script's bytes, added to every page served.
    static let scriptBytes = Array(script.utf8)

    /// Where the script goes in `page`: before its last `</body>`, or at its end.
    static func insertionPoint(_ page: UnsafeRawBufferPointer) -> Int {
        lastIndex(of: marker, in: page) ?? page.count
    }

    /// What the overlay says over the last good site.
    static let lastGoodHeading = "The last rebuild failed: the site below is the last good one"

    /// A full-window panel listing the errors, escaped, under `heading`.
    static func overlayHTML(_ errors: String, heading: String = lastGoodHeading) -> String {
        """
        <div id="sitegen-errors" role="alert" style="position:fixed;inset:0;z-index:2147483647;overflow:auto;\
        background:rgba(20,16,14,.94);color:#fbe9e7;font:14px/1.5 ui-monospace,Menlo,Consolas,monospace;padding:2rem">\
        <h1 style="font:600 1.2rem system-ui,sans-serif;margin:0 0 1rem;color:#ffab91">\(heading)</h1><pre style="white-space:pre-wrap;margin:0">\(HTML.escape(errors))</pre></div>
        """
    }

    /// What `serve` answers every request with while the site has never built: the errors
    /// and the script, which reloads the page once a change builds.
    static func errorPage(_ errors: String) -> SharedBytes {
        let page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>The site did not build · sitegen</title></head>
            <body>\(overlayHTML(errors, heading: "The site did not build: save a fix and this page reloads"))\(script)</body></html>

            """
        return SharedBytes(Array(page.utf8))
    }

    private static let marker = Array("</body>".utf8)

    private static func lastIndex(of marker: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= marker.count else { return nil }
        var index = bytes.count - marker.count
        while index >= 0 {
            if bytes[index] == marker[0] && marker.indices.allSatisfy({ bytes[index + $0] == marker[$0] }) {
                return index
            }
            index -= 1
        }
        return nil
    }
}
