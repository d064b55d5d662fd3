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

    /// A processed image could not be kept in the site's `.sitegen/images/` (`folder`): the
    /// build is done, but the next one decodes and encodes every image again.
    static func imagesNotKept(_ folder: URL, _ error: any Error) -> Diagnostic {
        Diagnostic(
            "processed images cannot be kept (\(ErrorText.reason(error))), so each build decodes and encodes every "
                + "image again: make \(StateFolder.name) a folder sitegen can write to",
            file: "\(StateFolder.name)/\(folder.lastPathComponent)", severity: .warning)
    }
}
