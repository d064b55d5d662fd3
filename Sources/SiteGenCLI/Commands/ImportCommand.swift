import Foundation
import SiteGen

/// `sitegen import`: reviews from a Letterboxd or Goodreads export, as review files.
struct ImportCommand: Command {
    static let name = "import"
    static let summary = "Import reviews from a Letterboxd or Goodreads export"
    static let help = """
        Usage: sitegen import letterboxd EXPORT [--source DIR] [--section NAME] [--dry-run]
               sitegen import goodreads FILE.csv [--source DIR] [--section NAME] [--shelf NAME]... [--dry-run]

        Writes a review file for each film or book of an export, front matter and all:

          letterboxd  EXPORT is the .zip Letterboxd's "Export your data" gives, or the folder
                      it unzips to. Each diary entry becomes a review (a rewatch is another
                      one, parasite-2019-2.md), with its text from reviews.csv, its rating,
                      tags, watched date, year and Letterboxd URI. A film rated in ratings.csv
                      but never logged becomes a draft (draft: true) with no text.
          goodreads   FILE.csv is the library export of "Import and export". Each book on
                      the read shelf becomes a review with its rating, shelves as tags, date
                      read (else date added), author, year, ISBN, publisher and Goodreads id.
                      Books on other shelves are skipped unless --shelf names them; those
                      are imported as drafts.

        Importing again is safe: files edited since they were imported are never
        overwritten, new entries are added, and files still as imported are updated when
        the export changed. What was imported is recorded in .sitegen/imports/ in the site
        folder. A malformed export is reported as file:line:column: message, and then
        nothing is written. The run ends with a summary of what was created, updated,
        unchanged and skipped, and why.

        Options:
          --source DIR     The site folder (default: the current folder)
          --section NAME   The section folder under content/ (default: movies or books, or
                           the site's only film or book section)
          --shelf NAME     Goodreads: import the books on this exclusive shelf (repeatable;
                           default: read). Example: --shelf read --shelf currently-reading
          --dry-run        Show what would happen, and write nothing
          -h, --help       Show this help

        """
    static let arguments = ArgumentSpec(
        flags: ["--dry-run"], options: ["--source", "--section"], repeatable: ["--shelf"], positional: 2...2)

    let source: ImportSource
    let export: String
    let site: String?
    let section: String?
    let shelves: Set<String>
    let dryRun: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard let source = ImportSource(rawValue: arguments.positional[0]) else {
            throw UsageError("cannot import from \"\(arguments.positional[0])\": say letterboxd or goodreads")
        }
        self.source = source
        export = arguments.positional[1]
        site = arguments.value("--source")
        section = arguments.value("--section")
        dryRun = arguments.has("--dry-run")
        let shelves = arguments.values["--shelf"] ?? []
        if source == .letterboxd && !shelves.isEmpty {
            throw UsageError("--shelf is for Goodreads exports; Letterboxd has no shelves")
        }
        if let empty = shelves.first(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw UsageError("--shelf needs a shelf name, not \"\(empty)\"")
        }
        self.shelves = shelves.isEmpty ? ["read"] : Set(shelves)
    }

    func run(_ environment: CommandEnvironment) async throws -> Int32 {
        let here = URL(fileURLWithPath: environment.currentDirectory, isDirectory: true)
        let siteURL = (site.map { URL(fileURLWithPath: $0, relativeTo: here) } ?? here).standardizedFileURL
        let importer = Importer(
            options: .init(
                source: source, export: URL(fileURLWithPath: export, relativeTo: here).standardizedFileURL,
                exportShown: export, site: siteURL, section: section, shelves: shelves))
        let console = environment.console
        // A bad export stops here, before anything is written (or locked).
        let plan = try importer.plan()
        guard !dryRun else {
            console.line("Importing \(export) into content/\(plan.section)/ (dry run: nothing is written).")
            for action in plan.actions { if let line = Self.line(action, dryRun: true) { console.line(line) } }
            for line in Self.shelfLines(plan.actions, dryRun: true) { console.line(line) }
            console.line(Self.summary(plan.actions, dryRun: true))
            return ExitCode.success
        }
        let waiting = { console.error("waiting for another sitegen import into this site to finish") }
        return try importer.locked(waiting: waiting) {
            // Another import wrote the record meanwhile: decided again from what it left.
            try write(importer.isCurrent(plan) ? plan : importer.plan(), importer, console)
        }
    }

    /// Writes the import's files, once no other import runs in the site.
    private func write(_ plan: Importer.Plan, _ importer: Importer, _ console: Console) throws -> Int32 {
        console.line("Importing \(export) into content/\(plan.section)/.")
        // Each file is named once it is written, so a failed import lists only what it wrote.
        var done: [ImportAction] = []
        do {
            try importer.apply(plan) { action in
                done.append(action)
                if let line = Self.line(action, dryRun: false) { console.line(line) }
            }
        } catch {
            console.line("Stopped by the error below. " + Self.summary(done, dryRun: false))
            throw error
        }
        for line in Self.shelfLines(plan.actions, dryRun: false) { console.line(line) }
        console.line(Self.summary(plan.actions, dryRun: false))
        return ExitCode.success
    }

    /// The line of a file created, updated or skipped; nil for one unchanged, and for a book
    /// skipped for its shelf (counted per shelf: ``shelfLines(_:dryRun:)``).
    static func line(_ action: ImportAction, dryRun: Bool) -> String? {
        switch action.kind {
        case .unchanged:
            return nil
        case .create, .update:
            let verb = dryRun ? "would \(action.kind.rawValue)" : action.kind == .create ? "created" : "updated"
            let note = action.draftReason.map { " (draft: \($0))" } ?? ""
            return "\(verb) \(action.path ?? "")\(note)"
        case .skip:
            guard let reason = action.skipReason else { return nil }
            if case .shelf = reason { return nil }
            let subject = action.path ?? "\(action.label), \(action.origin)"
            return "\(dryRun ? "would skip" : "skipped") \(subject): \(reason.description)"
        }
    }

    /// A line per shelf whose books were skipped, with the option that imports them (as drafts,
    /// but for the read shelf).
    static func shelfLines(_ actions: [ImportAction], dryRun: Bool) -> [String] {
        var shelves: [(shelf: String, count: Int)] = []
        for action in actions {
            guard case .shelf(let shelf)? = action.skipReason else { continue }
            if let index = shelves.firstIndex(where: { $0.shelf == shelf }) {
                shelves[index].count += 1
            } else {
                shelves.append((shelf, 1))
            }
        }
        return shelves.map { shelf, count in
            let how = shelf == "read" ? "" : count == 1 ? " as a draft" : " as drafts"
            return "\(dryRun ? "would skip" : "skipped") \(count) book\(count == 1 ? "" : "s") on the \(shelf) shelf "
                + "(--shelf \(shelf) imports \(count == 1 ? "it" : "them")\(how))"
        }
    }

    /// `Created 4 (1 draft), updated 1, unchanged 3, skipped 2 (1 edited since import, 1 listed twice).`
    static func summary(_ actions: [ImportAction], dryRun: Bool) -> String {
        let count = { (kind: ImportAction.Kind) in actions.filter { $0.kind == kind }.count }
        let drafts = actions.filter { $0.kind == .create && $0.draftReason != nil }.count
        var groups: [(name: String, count: Int)] = []
        for action in actions {
            guard let group = action.skipReason?.group else { continue }
            if let index = groups.firstIndex(where: { $0.name == group }) {
                groups[index].count += 1
            } else {
                groups.append((group, 1))
            }
        }
        let created = "\(count(.create))" + (drafts > 0 ? " (\(drafts) draft\(drafts == 1 ? "" : "s"))" : "")
        let reasons = groups.isEmpty ? "" : " (\(groups.map { "\($0.count) \($0.name)" }.joined(separator: ", ")))"
        if dryRun {
            return "Would create \(created), update \(count(.update)); \(count(.unchanged)) unchanged, "
                + "\(count(.skip)) skipped\(reasons). Nothing was written (--dry-run)."
        }
        return "Created \(created), updated \(count(.update)), unchanged \(count(.unchanged)), "
            + "skipped \(count(.skip))\(reasons)."
    }
}
