import Foundation
import Mustache

/// `.sitegen/` in a site folder: what sitegen keeps for itself (build manifests, encoded
/// images, import records, the link checker's answers). It is written to, so it must be the
/// site's own: a link out of the site folder would have sitegen write wherever it leads.
public enum StateFolder {
    public static let name = ".sitegen"

    /// Why sitegen will not use `site`'s `.sitegen`: it is a link that leads out of the site
    /// folder, or nowhere. Nil when it is a folder, is missing, or is a link within the site.
    static func refusal(in site: URL) -> Diagnostic? {
        guard lstatKind(site.appendingPathComponent(name).path) == .link else { return nil }
        guard let resolved = SafePath.resolve(name, in: site) else {
            return Diagnostic(
                "refused: it is a link that leads out of the site folder (or nowhere), and sitegen writes its own "
                    + "files there; make it a folder, or remove it",
                at: SourceLocation(path: name, line: 1, column: 1))
        }
        // Nor into a folder of the site that is read or published (static/ would publish the
        // build's records and locks), nor to the site folder itself.
        let root = OutputFolder.realPath(of: site.standardizedFileURL.path)
        let real = OutputFolder.realPath(of: resolved.path)
        let sources = BuildManifest.inputFolders + [OutputFolder.defaultName]
        guard
            let folder = real == root
                ? "." : sources.first(where: { SafePath.isWithin(real, OutputFolder.realPath(of: root + "/" + $0)) })
        else { return nil }
        return Diagnostic(
            "refused: it is a link into \(folder == "." ? "the site folder itself" : folder + "/"), and sitegen "
                + "writes its own files there (its records would be read or published as the site's); make it a "
                + "folder of its own, or remove it",
            at: SourceLocation(path: name, line: 1, column: 1))
    }

    /// Throws ``refusal(in:)`` as the error of `step`.
    static func check(_ site: URL, step: String) throws(BuildError) {
        if let refusal = refusal(in: site) { throw BuildError(step: step, diagnostics: [refusal]) }
    }
}
