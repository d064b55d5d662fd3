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

    /// The file opened for reading, and its size, checked as when loaded (a regular file
    /// inside the site, within the limit); the caller closes the descriptor.
    func open() throws(BuildError) -> (descriptor: Int32, size: Int) {
        do {
            return try DiskFile.openChecked(path, limit: DiskFile.copiedSizeLimit, within: root)
        } catch {
            throw problem(error.reason)
        }
    }

    /// The error of a copy of it that could not be read.
    func problem(_ reason: String) -> BuildError {
        BuildError(
            step: "copying static files",
            diagnostics: [Diagnostic("cannot read: \(reason)", at: SourceLocation(path: source, line: 1, column: 1))])
    }
}
