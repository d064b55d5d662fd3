import Foundation
import Mustache

/// A large file of `static/` or of a page bundle that `sitegen build` reads when it writes it
/// into the output, not when it loads the site, so that a site's videos or PDFs are never all
/// in memory at once (one per core at most). `serve`, which answers from memory, holds every file.
public struct CopiedFile: Sendable, Equatable {
    /// Files up to this size are read when the site is loaded, like every file for `serve`.
    static let heldSizeLimit = 1024 * 1024
    /// Its path in the site folder, for messages: `static/trailer.mp4`.
    public let source: String
    /// Its absolute path, and the real path of the site folder it must stay in.
    let path: String
    let root: String

    /// Its bytes now, checked as when loaded (a regular file inside the site, within the limit).
    func read() throws(BuildError) -> Data {
        do {
            return try DiskFile.read(path, limit: DiskFile.copiedSizeLimit, within: root)
        } catch {
            throw BuildError(
                step: "copying static files",
                diagnostics: [
                    Diagnostic("cannot read: \(error.reason)", at: SourceLocation(path: source, line: 1, column: 1))
                ])
        }
    }
}
