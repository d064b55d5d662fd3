import Foundation

/// What earlier imports from one source into one section wrote, so that importing again can
/// tell a file left as imported (safe to update) from one edited since (kept). Kept in
/// `.sitegen/imports/<source>-<section>.json` in the site folder, which git ignores.
struct ImportState: Codable, Equatable {
    /// One imported file.
    struct Record: Codable, Equatable {
        /// The file, relative to the site folder.
        var path: String
        /// The ``ContentHash`` of the bytes the import wrote.
        var hash: String
        /// For a film imported as rated only: the film, which a later diary entry may take over.
        var ratedFilm: String?
    }

    var version = 1
    /// Records by entry key (a Letterboxd URI, a Goodreads book id).
    var records: [String: Record] = [:]

    /// The state file for `source` importing into `section`, relative to the site folder.
    static func path(source: String, section: String) -> String {
        "\(StateFolder.name)/imports/\(source)-\(section).json"
    }

    /// Reads the state file at `url` (`path` relative to the site folder); a missing one is an
    /// empty state. A damaged one stops the import: read as empty, it would make again the
    /// reviews deleted since they were imported, and be replaced, losing what it knew.
    static func load(_ url: URL, path: String) throws(BuildError) -> ImportState {
        guard FileManager.default.fileExists(atPath: url.path) else { return ImportState() }
        let advice =
            ": fix it, or remove it to import as if for the first time (files it lists then count as not "
            + "imported here, and reviews deleted since they were imported are made again)"
        func damaged(_ problem: String) -> BuildError {
            BuildError(
                step: "reading the record of earlier imports", diagnostics: [Diagnostic(problem + advice, file: path)])
        }
        let state: ImportState
        do {
            let data = try DiskFile.read(url.path)
            state = try JSONDecoder().decode(ImportState.self, from: data)
            guard state.version == 1 else { throw CocoaError(.fileReadCorruptFile) }
        } catch {
            throw damaged("the record of earlier imports cannot be read (\(ErrorText.reason(error)))")
        }
        // Only files in content/ were written: a record naming any other place was not made here.
        if let stray = state.records.values.map(\.path).sorted().first(where: { path in
            SafePath.segments(of: path)?.first != "content"
        }) {
            throw damaged("the record of earlier imports names \(stray), which is not a file in content/")
        }
        return state
    }

    /// Writes the state file atomically, making its folder if needed.
    func write(to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write(try encoder.encode(self) + Data("\n".utf8), to: url)
    }
}
