import Foundation

/// A file to copy as it is: its bytes, or (for a build) a large one to read when it is written.
enum CopiedBytes: Sendable {
    case held(Data)
    case later(CopiedFile)
}
