import EventHTTP
import Foundation
import Mustache

/// A file as the preview server sends it: bytes (HTML with the live-reload script),
/// its type and an ETag, made once per rebuild rather than per request.
struct ServedFile: Sendable {
    let body: SharedBytes
    let contentType: String
    let etag: String
    /// Where the live-reload script starts in an HTML page, where an overlay goes; nil for
    /// other files.
    let scriptAt: Int?

    init(path: String, data: Data, overlay: String?) {
        let type = Self.contentType(of: path)
        if type.hasPrefix("text/html") {
            let (body, scriptAt) = LiveReload.injected(into: data, overlay: overlay)
            self.init(body: body, contentType: type, scriptAt: scriptAt)
        } else {
            // One copy, straight from the data: a static file may be large.
            self.init(body: data.withUnsafeBytes { SharedBytes(copying: $0) }, contentType: type, scriptAt: nil)
        }
    }

    private init(body: SharedBytes, contentType: String, scriptAt: Int?) {
        self.body = body
        self.contentType = contentType
        self.scriptAt = scriptAt
        etag = "\"\(String(body.withUnsafeBytes(Self.hash), radix: 16))\""
    }

    /// This page with `overlay` (the errors of a failed rebuild) before its script, made when
    /// asked for, so that a failed rebuild does not copy the errors into every page at once;
    /// the file itself when it is not a page or there is no overlay.
    func overlaid(_ overlay: [UInt8]?) -> ServedFile {
        guard let overlay, let scriptAt else { return self }
        let joined = body.withUnsafeBytes { body in
            overlay.withUnsafeBytes { overlay in
                SharedBytes(joining: [
                    UnsafeRawBufferPointer(rebasing: body[..<scriptAt]), overlay,
                    UnsafeRawBufferPointer(rebasing: body[scriptAt...]),
                ])
            }
        }
        return ServedFile(body: joined, contentType: contentType, scriptAt: scriptAt + overlay.count)
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

    /// `page` with the script (and the overlay, while the last rebuild failed) before its last
    /// `</body>` (or at its end), made in one copy: every page of a rebuild goes through here.
    /// Also where the script starts.
    static func injected(into page: Data, overlay: String?) -> (SharedBytes, scriptAt: Int) {
        let overlay = Array((overlay.map { overlayHTML($0) } ?? "").utf8)
        let addition = overlay + Array(script.utf8)
        return page.withUnsafeBytes { page in
            let position = lastIndex(of: marker, in: page) ?? page.count
            let body = addition.withUnsafeBytes { addition in
                SharedBytes(joining: [
                    UnsafeRawBufferPointer(rebasing: page[..<position]), addition,
                    UnsafeRawBufferPointer(rebasing: page[position...]),
                ])
            }
            return (body, position + overlay.count)
        }
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
