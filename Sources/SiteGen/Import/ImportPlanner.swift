import Foundation
import Mustache

/// Decides, for each entry of an export, what happens to its review file:
///
/// - a file the import wrote (found by the record, or by its `letterboxd`/`goodreads` id) is
///   **unchanged** when it already holds what the export says, **updated** when it still holds
///   exactly what the import wrote, and otherwise **skipped** (edited since, or not imported here);
/// - a file the import wrote and the user deleted is skipped, not made again;
/// - a new entry is **skipped** when a review of the same film or book without an import id
///   exists, takes over the file of its film's rated-only draft when that is untouched, and is
///   otherwise **created** under a new slug that no file or slug in the section has.
struct ImportPlanner {
    let source: ImportSource
    let section: String
    let folder: SiteFolder
    let existing: ExistingReviews
    let state: ImportState
    private var taken: Set<String>
    /// The number of the last slug ``freshSlug(_:)`` gave each base (lowercased).
    private var lastNumber: [String: Int] = [:]
    /// The records of rated-only drafts, by film, in key order.
    private let drafts: [String: [(key: String, record: ImportState.Record)]]

    init(source: ImportSource, section: String, folder: SiteFolder, existing: ExistingReviews, state: ImportState) {
        self.source = source
        self.section = section
        self.folder = folder
        self.existing = existing
        self.state = state
        // The name of a file the import wrote is taken even once the file is deleted: its
        // record keeps it, and a new entry written there would share it.
        self.taken = existing.takenSlugs.union(
            state.records.values.map { ReviewFile.defaultSlug(of: $0.path).lowercased() })
        var drafts: [String: [(key: String, record: ImportState.Record)]] = [:]
        for (key, record) in state.records.sorted(by: { $0.key < $1.key }) {
            if let film = record.ratedFilm { drafts[film, default: []].append((key, record)) }
        }
        self.drafts = drafts
    }

    /// The actions for `items`, in date order (then export order).
    mutating func actions(for items: [ImportItem]) throws -> [ImportAction] {
        let ordered = items.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }
            .map(\.element)
        let keys = Set(items.map(\.key))
        var firstOrigin: [String: String] = [:]
        var claimedDrafts: Set<String> = []
        var actions: [ImportAction] = []
        var diagnostics: [Diagnostic] = []
        var tooLarge: [Diagnostic] = []
        var spellings = ExistingReviews.tagSpellings(folder)
        for item in ordered {
            let item = item.unifyingTags(&spellings)
            if let first = firstOrigin[item.key] {
                actions.append(ImportAction(.skip, path: nil, item: item, skipReason: .listedTwice(first: first)))
                continue
            }
            firstOrigin[item.key] = item.origin
            let text = try item.fileText()
            // Escaping can double a review's size: a file the build would refuse is not written.
            guard text.utf8.count <= DiskFile.sizeLimit else {
                tooLarge.append(
                    Diagnostic(
                        "\(item.label) would make a review file of \(text.utf8.count) bytes; "
                            + "the build reads files of at most \(DiskFile.sizeLimit / (1024 * 1024)) MiB",
                        file: item.origin))
                continue
            }
            let record = state.records[item.key]
            let recorded = record.flatMap { folder.kind($0.path) == .file ? $0.path : nil }
            if let path = recorded ?? existing.sources(naming: item.key, in: source).first {
                guard let current = folder.read(path, &diagnostics) else { continue }
                if current == Data(text.utf8) {
                    actions.append(ImportAction(.unchanged, path: path, item: item, text: text))
                } else if let record, ContentHash(current).description == record.hash {
                    actions.append(ImportAction(.update, path: path, item: item, text: text))
                } else {
                    actions.append(
                        ImportAction(
                            .skip, path: path, item: item, skipReason: record == nil ? .notImportedHere : .edited))
                }
                continue
            }
            if let record {
                actions.append(ImportAction(.skip, path: record.path, item: item, skipReason: .deleted))
                continue
            }
            if let path = existing.handWritten(sameAs: item, source: source) {
                actions.append(ImportAction(.skip, path: nil, item: item, skipReason: .alreadyReviewed(path: path)))
                continue
            }
            if item.ratedFilm == nil, let (key, path) = untouchedDraft(of: item, keys: keys, claimed: claimedDrafts) {
                claimedDrafts.insert(key)
                actions.append(ImportAction(.update, path: path, item: item, text: text, takesOver: key))
                continue
            }
            let path = "content/\(section)/\(freshSlug(item.slugBase)).md"
            actions.append(ImportAction(.create, path: path, item: item, text: text))
        }
        guard tooLarge.isEmpty else { throw BuildError(step: "reading the export", diagnostics: tooLarge) }
        guard diagnostics.isEmpty else { throw BuildError(step: "reading the section", diagnostics: diagnostics) }
        return actions
    }
}

private extension ImportPlanner {
    /// A slug no file or review in the section has: `base`, else `base-2`, `base-3`…
    /// Each base's count goes on from the last one given, so 20,000 entries of one title take
    /// linear time (counting from 2 each time took 30 s).
    mutating func freshSlug(_ base: String) -> String {
        var slug = base
        var number = lastNumber[base.lowercased()] ?? 1
        if number > 1 { slug = "\(base)-\(number)" }
        while taken.contains(slug.lowercased()) {
            number += 1
            slug = "\(base)-\(number)"
        }
        taken.insert(slug.lowercased())
        lastNumber[base.lowercased()] = number
        return slug
    }

    /// The file of a rated-only draft of `item`'s film that the export no longer lists as rated
    /// only (the film now has a diary entry) and that is still exactly as imported.
    func untouchedDraft(of item: ImportItem, keys: Set<String>, claimed: Set<String>) -> (String, String)? {
        guard source == .letterboxd else { return nil }
        for (key, record) in drafts[LetterboxdExport.film(item.title, item.year)] ?? []
        where !keys.contains(key) && !claimed.contains(key) {
            var ignored: [Diagnostic] = []
            guard folder.kind(record.path) == .file, let current = folder.read(record.path, &ignored),
                ContentHash(current).description == record.hash
            else { continue }
            return (key, record.path)
        }
        return nil
    }
}
