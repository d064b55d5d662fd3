import Foundation

@testable import SiteGen

// Plain definitions the tests hold the optimized code to; the build itself does not need them.

extension HTMLText {
    /// The text of `html`: tags become spaces, character references their characters. The
    /// search index reads HTML in one pass (``SearchText/keys(html:into:)``); its keys must be
    /// the keys of this text.
    static func plain(_ html: String) -> String {
        var html = html
        return html.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var at = 0
            while at < bytes.count {
                let byte = bytes[at]
                at += 1
                switch byte {
                case UInt8(ascii: "<"):
                    while at < bytes.count && bytes[at] != UInt8(ascii: ">") { at += 1 }
                    at += 1
                    out.append(UInt8(ascii: " "))
                case UInt8(ascii: "&"):
                    if let (decoded, next) = entity(in: bytes, after: at) {
                        out.append(contentsOf: String(decoded).utf8)
                        at = next
                    } else {
                        out.append(byte)
                    }
                default:
                    out.append(byte)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}

extension SearchText {
    /// The keys of several texts.
    static func keys(_ texts: [String]) -> Set<SearchKey> {
        var keys: Set<SearchKey> = []
        for text in texts { Self.keys(text, into: &keys) }
        return keys
    }
}

extension LiveReload {
    /// A page's bytes as served: the overlay (if any) and the script before its last
    /// `</body>`, or at its end.
    static func inject(into page: [UInt8], overlay: String?) -> [UInt8] {
        let text = String(decoding: page, as: UTF8.self)
        let addition = (overlay.map { overlayHTML($0) } ?? "") + script
        guard let body = text.range(of: "</body>", options: .backwards) else { return Array((text + addition).utf8) }
        return Array((text[..<body.lowerBound] + addition + text[body.lowerBound...]).utf8)
    }
}
