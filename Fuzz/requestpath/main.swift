// A libFuzzer harness for the preview server's request-target parser:
// Scripts/fuzz requestpath [SECONDS].
//
// Any input is a request target as libevent hands it over. The harness checks what the
// server relies on, and stops (a crash libFuzzer reports, with the input) when it fails.

import Foundation
@testable import SiteGen

/// The site the targets are resolved against.
private let files: Set<String> = [
    "index.html", "robots.txt", "movies/index.html", "movies/parasite/index.html", "a b/index.html",
    "%41/index.html", "feed.xml",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let target = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parts = RequestPath.parse(target)
    let resolved = RequestPath.resolve(target, exists: files.contains)
    guard let parts else {
        check(resolved == .bad, "refused by parse but resolved", target)
        return 0
    }
    check(parts.encodedPath + parts.query == target, "the parts are not the target", target)
    // Bytes, not Characters, throughout: "/" and a combining mark after it are one Character.
    check(parts.path.utf8.first == 0x2F, "a path not starting with /", target)
    check(parts.query.isEmpty || parts.query.hasPrefix("?"), "a query without ?", target)
    check(
        parts.encodedPath.utf8.allSatisfy { (0x21...0x7E).contains($0) }, "a raw byte that is not visible ASCII", target
    )
    check(parts.query.utf8.allSatisfy { (0x21...0x7E).contains($0) }, "a query byte that is not visible ASCII", target)
    check(!parts.path.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "a control character", target)
    check(!parts.path.utf8.contains(0x5C), "a backslash", target)
    // An escape never makes a separator: the decoded path has the slashes of the path as sent.
    check(
        parts.path.utf8.filter { $0 == 0x2F }.count == parts.encodedPath.utf8.filter { $0 == 0x2F }.count,
        "an escaped slash", target)
    let segments = parts.path.utf8.split(separator: 0x2F, omittingEmptySubsequences: false)
    check(!segments.contains { $0.elementsEqual([0x2E]) || $0.elementsEqual([0x2E, 0x2E]) }, "a dot segment", target)
    // Foundation, decoding on its own, agrees.
    check(parts.encodedPath.removingPercentEncoding == parts.path, "Foundation decodes it otherwise", target)
    let relative = Array(parts.path.utf8.dropFirst())
    switch resolved {
    case .bad:
        check(false, "parsed but resolved as bad", target)
    case .file(let file):
        let bytes = Array(file.utf8)
        check(bytes == relative || bytes == relative + Array("index.html".utf8), "a file that is not the path", target)
        check(
            !file.utf8.split(separator: 0x2F, omittingEmptySubsequences: false).contains {
                $0.elementsEqual([0x2E, 0x2E])
            },
            "a file with a .. segment", target)
    case .redirect(let location):
        check(location == parts.encodedPath + "/" + parts.query, "a redirect elsewhere", target)
        check(!location.hasPrefix("//"), "a redirect to another host", target)
        // Following the redirect serves the folder's index, never redirects again.
        if case .file(let file) = RequestPath.resolve(location, exists: files.contains) {
            check(file.hasSuffix("index.html") && files.contains(file), "a redirect to a missing folder", target)
        } else {
            check(false, "a redirect that does not lead to a file", target)
        }
    }
    return 0
}

private func check(_ condition: Bool, _ message: String, _ target: String) {
    if !condition {
        fatalError("\(message): \(target.debugDescription)")
    }
}
