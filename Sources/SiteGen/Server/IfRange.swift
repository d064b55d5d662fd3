import Foundation

/// The `If-Range` request header (RFC 9110, section 13.1.5): a range is sent only when it
/// names the file's current strong entity tag; a date, or another tag, asks for the whole file
/// (this server sends no `Last-Modified`).
enum IfRange {
    static func allowsRange(_ header: String?, etag: String) -> Bool {
        guard var header else { return true }
        header = header.trimmingCharacters(in: [" ", "\t"])
        return header == etag
    }
}
