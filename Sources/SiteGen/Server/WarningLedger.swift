/// The warnings `serve` has shown, by file, so that after a rebuild it prints only the
/// warnings an edit brought: saving a file again with the same warning prints nothing,
/// and a warning fixed and then brought back is printed again.
struct WarningLedger: Sendable {
    /// Each file's warnings as last read (the site's summaries under "").
    private var shown: [String: Set<Key>] = [:]

    /// A warning as compared: an unknown field by its file and name (the first build reports
    /// it once per name, saying how many files have it), any other by what it says.
    private enum Key: Hashable {
        case extraField(path: String, name: String)
        case text(String)

        init(_ warning: Diagnostic) {
            if case .extraField(let name) = warning.topic {
                self = .extraField(path: warning.location.path, name: name)
            } else {
                self = .text(warning.description)
            }
        }
    }

    init(_ warnings: [Diagnostic] = []) {
        _ = record(LiveSite.Reading(files: nil, warnings: warnings))
    }

    /// Takes in what an update read and returns its warnings that were not shown for their
    /// file before, in order.
    mutating func record(_ reading: LiveSite.Reading) -> [Diagnostic] {
        let byFile = Dictionary(grouping: reading.warnings, by: \.location.path)
        let fresh = byFile.flatMap { file, warnings in
            let before = shown[file] ?? []
            return warnings.filter { !before.contains(Key($0)) }
        }
        if let files = reading.files {
            for file in files { shown[file] = nil }
        } else {
            shown = [:]
        }
        for (file, warnings) in byFile { shown[file, default: []].formUnion(warnings.map(Key.init)) }
        return fresh.sorted()
    }
}
