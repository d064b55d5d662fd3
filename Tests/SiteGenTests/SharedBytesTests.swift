import EventHTTP
import Foundation
import Testing

@testable import SiteGen

/// The bytes the preview server sends: copied while the source is still alive.
@Suite("Shared bytes")
struct SharedBytesTests {
    @Test("bytes made from arrays that die at once keep their own copy (served pages crashed in release builds)")
    func copiesTemporaryArrays() {
        // Many short-lived arrays of various sizes, each dropped as soon as it is copied: a copy
        // that read the array's storage after it was freed would see other arrays' bytes.
        let copies = (0..<2_000).map { number in
            SharedBytes([UInt8](repeating: UInt8(number % 251), count: 1 + number * 37 % 70_000))
        }
        for (number, copy) in copies.enumerated() {
            #expect(copy.count == 1 + number * 37 % 70_000)
            #expect(copy.withUnsafeBytes { $0.allSatisfy { $0 == UInt8(number % 251) } })
        }
        #expect(SharedBytes([]).isEmpty)
        #expect(SharedBytes(Array("abc".utf8)).array == Array("abc".utf8))
    }

    @Test("bytes joined from parts, empty parts included, are the parts one after another")
    func joinsParts() {
        let parts = [Array("ab".utf8), [], Array("기생충".utf8), Array("c".utf8)]
        let joined = parts[0].withUnsafeBytes { a in
            parts[1].withUnsafeBytes { b in
                parts[2].withUnsafeBytes { c in parts[3].withUnsafeBytes { d in SharedBytes(joining: [a, b, c, d]) } }
            }
        }
        #expect(joined.array == Array("ab기생충c".utf8))
        #expect(SharedBytes(joining: []).isEmpty)
    }

    @Test("the live-reload script goes before the last </body>, or at the end of a page without one")
    func injectsBeforeLastBody() {
        let script = LiveReload.script
        let inject = { (page: String) in
            String(decoding: ServedFile(path: "a.html", data: Data(page.utf8), overlay: nil).body.array, as: UTF8.self)
        }
        #expect(inject("<p>x</p></body></html>") == "<p>x</p>\(script)</body></html>")
        #expect(inject("<p>\"</body>\"</p></body>\n") == "<p>\"</body>\"</p>\(script)</body>\n")
        #expect(inject("no body") == "no body\(script)")
        #expect(inject("") == script)
        #expect(inject("</body>") == script + "</body>")
        #expect(inject("</body") == "</body" + script)
        let overlay = String(
            decoding: ServedFile(path: "a.html", data: Data("a</body>".utf8), overlay: "bad <yaml>").body.array,
            as: UTF8.self)
        #expect(overlay == "a" + LiveReload.overlayHTML("bad <yaml>") + script + "</body>")
    }

    @Test("a page's ETag and length follow its bytes as sent, with or without the errors over it")
    func pageTagsFollowBytes() {
        let page = { (text: String, overlay: String?) in
            ServedFile(path: "a.html", data: Data(text.utf8), overlay: overlay)
        }
        let plain = page("<p>x</p></body>", nil)
        #expect(plain.count == plain.body.count)
        #expect(plain.etag == page("<p>x</p></body>", nil).etag)
        #expect(String(decoding: plain.body.array, as: UTF8.self) == "<p>x</p>\(LiveReload.script)</body>")
        for other in [page("<p>y</p></body>", nil), page("<p>x</p> </body>", nil), page("<p>x</p></body> ", nil)] {
            #expect(other.etag != plain.etag)
        }
        let failed = plain.overlaid(Array("<b>bad</b>".utf8))
        #expect(failed.etag != plain.etag)
        #expect(failed.count == failed.body.count)
        #expect(String(decoding: failed.body.array, as: UTF8.self) == "<p>x</p><b>bad</b>\(LiveReload.script)</body>")
        #expect(failed.etag == plain.overlaid(Array("<b>bad</b>".utf8)).etag)
        #expect(plain.overlaid(nil).etag == plain.etag)
        let again = page("a</body>", "e1").overlaid(Array("<i>e2</i>".utf8))
        #expect(
            String(decoding: again.body.array, as: UTF8.self)
                == "a" + LiveReload.overlayHTML("e1") + "<i>e2</i>" + LiveReload.script + "</body>")
        let css = ServedFile(path: "a.css", data: Data("b{}".utf8), overlay: nil)
        #expect(css.body.array == Array("b{}".utf8))
        #expect(css.overlaid(Array("x".utf8)).body.array == Array("b{}".utf8))
        #expect(css.page == nil)
    }
}
