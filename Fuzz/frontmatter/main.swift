// A libFuzzer harness for reading a review file (UTF-8, front matter, fields, Markdown):
// Scripts/fuzz frontmatter [SECONDS].

import Foundation
@testable import SiteGen

/// libFuzzer's entry: any bytes read as a review file give a review (maybe with warnings) or
/// errors, all at real positions, never a crash, a hang or unbounded memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func frontMatterFuzzTest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    for kind in WorkKind.allCases {
        let (review, diagnostics) = FrontMatter.readReview(data, kind: kind)
        let failed = diagnostics.contains { $0.severity == .error }
        precondition((review == nil) == failed, "a review and errors, or neither")
        for diagnostic in diagnostics {
            precondition(diagnostic.location.line >= 1 && diagnostic.location.column >= 1, "\(diagnostic)")
            precondition(diagnostic.location.path.hasPrefix("content/"), "\(diagnostic)")
        }
    }
    return 0
}
