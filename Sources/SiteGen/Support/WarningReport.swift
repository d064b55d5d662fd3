/// How commands print the warnings of a build: the warnings about files first, sorted, as
/// `path:line:column: warning: …`; the reviews that name a film or book with nothing in the
/// metadata cache as one line with their number (each of them with `verbose`); then the
/// warnings about the site as a whole (reviews left out until their date).
public enum WarningReport {
    public static func lines(_ warnings: [Diagnostic], verbose: Bool) -> [String] {
        let uncached = warnings.filter { $0.topic == .uncachedMetadata }
        let listed = warnings.filter { $0.isLocated && (verbose || $0.topic != .uncachedMetadata) }
        var lines = listed.sorted().map(\.description)
        if !verbose, !uncached.isEmpty {
            let count = uncached.count
            lines.append(
                Diagnostic(
                    count == 1
                        ? "1 review names a film or book with nothing in the metadata cache: run sitegen fetch "
                            + "(--verbose lists it)"
                        : "\(count) reviews name a film or book with nothing in the metadata cache: run sitegen fetch "
                            + "(--verbose lists them)", severity: .warning
                ).description)
        }
        lines += warnings.filter { !$0.isLocated }.map(\.description)
        return lines
    }
}
