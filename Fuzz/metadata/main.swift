// A libFuzzer harness for reading metadata cache entries without JSONDecoder:
// Scripts/fuzz metadata [SECONDS].

import Foundation
@testable import SiteGen

/// libFuzzer's entry: whatever entry the cache's own reader makes of any bytes, Foundation's
/// `JSONDecoder` must make the same of them (anything else the reader leaves to it).
@_cdecl("LLVMFuzzerTestOneInput")
public func metadataFuzzTest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    if let entry = WorkMetadata(cachedJSON: bytes) {
        let decoded = try? JSONDecoder().decode(WorkMetadata.self, from: Data(bytes))
        precondition(decoded == entry, "JSONDecoder reads \(String(describing: decoded)), the reader \(entry)")
    }
    return 0
}
