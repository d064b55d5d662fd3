import Foundation

extension Diagnostic {
    /// The build manifest at `url` (in the site's `.sitegen/`) could not be written: the build
    /// is done, but the next one cannot tell that nothing changed.
    static func manifestNotKept(_ url: URL, _ error: any Error) -> Diagnostic {
        Diagnostic(
            "the build manifest cannot be kept (\(ErrorText.reason(error))), so no build can tell that nothing "
                + "changed, and each one does all its work again: make \(StateFolder.name) a folder sitegen can write to",
            file: "\(StateFolder.name)/\(url.lastPathComponent)", severity: .warning)
    }
}
