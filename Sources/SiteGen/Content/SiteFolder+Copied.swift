import Foundation

extension SiteFolder {
    /// The file at `relative`, to be copied as it is (up to ``DiskFile/copiedSizeLimit``): read
    /// now, or when `later` allows and it is larger than ``CopiedFile/heldSizeLimit``, only
    /// checked now (as reading checks it) and read when it is written. A failure is a diagnostic.
    func readCopied(_ relative: String, later: Bool, _ diagnostics: inout [Diagnostic]) -> CopiedBytes? {
        if later, let checkedSize = fileSystem.checkedSize {
            do {
                let size = try checkedSize(path(relative), DiskFile.copiedSizeLimit, realRoot)
                if size > CopiedFile.heldSizeLimit {
                    return .later(CopiedFile(source: relative, path: path(relative), root: realRoot))
                }
            } catch {
                diagnostics.append(problem("cannot read: \(error.reason)", at: relative))
                return nil
            }
        }
        return read(relative, limit: DiskFile.copiedSizeLimit, &diagnostics).map(CopiedBytes.held)
    }
}
