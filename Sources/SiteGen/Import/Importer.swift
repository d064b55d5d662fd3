import Foundation
import Mustache

/// `sitegen import`: reads a Letterboxd or Goodreads export, decides what to do with each
/// entry (``plan()``, which writes nothing), then writes the review files and the record of
/// what it wrote (``apply(_:)``). A malformed export stops ``plan()`` with every problem at its
/// line and column, before anything is written.
public struct Importer: Sendable {
    public struct Options: Sendable {
        public var source: ImportSource
        /// The export: a Letterboxd `.zip` or folder, or a Goodreads `.csv`.
        public var export: URL
        /// The export as the command line named it, for messages.
        public var exportShown: String
        /// The site folder.
        public var site: URL
        /// The section folder under `content/`; nil for the default (see ``Importer/section(_:)``).
        public var section: String?
        /// Goodreads: the exclusive shelves to import.
        public var shelves: Set<String>

        public init(
            source: ImportSource, export: URL, exportShown: String, site: URL, section: String? = nil,
            shelves: Set<String> = ["read"]
        ) {
            self.source = source
            self.export = export
            self.exportShown = exportShown
            self.site = site
            self.section = section
            self.shelves = shelves
        }
    }

    /// What an import will do.
    public struct Plan: Sendable {
        /// The section folder: `movies`.
        public let section: String
        /// One action per entry, in date order; skipped shelves last.
        public let actions: [ImportAction]
        let state: ImportState
        let statePath: String
        /// The record of imports as it was before the section was read (nil: none).
        let recordStamp: FileStamp?
    }

    public let options: Options

    public init(options: Options) {
        self.options = options
    }

    private var folder: SiteFolder { SiteFolder(root: options.site, fileSystem: .disk) }

    /// Runs `body` (``apply(_:done:)`` of a plan that ``isCurrent(_:)``, else of a new one)
    /// while no other import into the site runs, calling `waiting` first when one does: two at
    /// once would each write the record of imports from what it read, and the last one would
    /// drop the other's records. Call it once a plan succeeded: it makes `.sitegen/import.lock`.
    public func locked<T>(waiting: () -> Void, _ body: () throws -> T) throws -> T {
        // No site here, or a .sitegen that leads out of it: plan() says so, and nothing is made.
        guard folder.kind(SiteConfig.fileName) == .file, StateFolder.refusal(in: options.site) == nil else {
            return try body()
        }
        let path = options.site.appendingPathComponent(StateFolder.name).appendingPathComponent("import.lock").path
        return try FileLock.holding(path, shared: false, waiting: waiting, body)
    }

    /// Whether `plan` still holds: no import wrote the record of imports since it was made.
    public func isCurrent(_ plan: Plan) -> Bool {
        FileStamp.of(options.site.appendingPathComponent(plan.statePath).path) == plan.recordStamp
    }

    /// Reads the export and the section and decides, writing nothing.
    public func plan() throws -> Plan {
        let folder = self.folder
        guard folder.kind(SiteConfig.fileName) == .file else {
            throw BuildError(
                step: "finding the site",
                diagnostics: [
                    Diagnostic(
                        "no \(SiteConfig.fileName) here: run sitegen import in the site folder, or name it with --source",
                        file: options.site.path)
                ])
        }
        try StateFolder.check(options.site, step: "finding the site")
        let section = try section(folder)
        let (items, skipped) = try read()
        let statePath = ImportState.path(source: options.source.rawValue, section: section)
        let recordStamp = FileStamp.of(options.site.appendingPathComponent(statePath).path)
        let existing = try ExistingReviews.scan(folder, section: section)
        // The record is written only inside the site, never through a link to another place.
        if SafePath.linkLeadsOut(statePath, in: options.site) {
            throw BuildError(
                step: "finding the record of earlier imports",
                diagnostics: [
                    Diagnostic(
                        "refused: a link on the way leads out of the site folder (or nowhere), and sitegen writes "
                            + "its record of imports here; make \(StateFolder.name) and its folders plain folders",
                        file: statePath)
                ])
        }
        let state = try ImportState.load(options.site.appendingPathComponent(statePath), path: statePath)
        var planner = ImportPlanner(
            source: options.source, section: section, folder: folder, existing: existing, state: state)
        let actions = try planner.actions(for: items) + skipped.map(ImportAction.init(skippedShelf:))
        return Plan(
            section: section, actions: actions, state: state,
            statePath: statePath, recordStamp: recordStamp)
    }

    /// Writes what `plan` decided: new files (never over an existing one), updated files
    /// (atomically), then the record of what was imported, calling `done` as each action is
    /// carried out (a file written, one left unchanged or skipped). A failed write stops it
    /// with the file and the reason; the record then still lists what was written before.
    public func apply(_ plan: Plan, done: (ImportAction) -> Void = { _ in }) throws {
        Self.removeLeftovers(in: options.site.appendingPathComponent("content/\(plan.section)").path)
        var state = plan.state
        let stateURL = options.site.appendingPathComponent(plan.statePath)
        do {
            for action in plan.actions {
                guard let path = action.path else {
                    done(action)
                    continue
                }
                switch action.kind {
                case .create, .update:
                    guard let text = action.text, let url = SafePath.resolve(path, in: options.site) else {
                        throw Diagnostic("refused: the path leads out of the site folder", file: path)
                    }
                    let data = Data(text.utf8)
                    do {
                        if action.kind == .create {
                            try Self.create(data, at: url, shown: path)
                        } else {
                            try AtomicFile.write(data, to: url)
                        }
                    } catch let error as Diagnostic {
                        throw error
                    } catch {
                        throw Diagnostic("cannot write the review: \(ErrorText.reason(error))", file: path)
                    }
                    if let old = action.takesOver { state.records[old] = nil }
                    state.records[action.key] = .init(
                        path: path, hash: ContentHash(data).description, ratedFilm: action.ratedFilm)
                case .unchanged:
                    state.records[action.key] = .init(
                        path: path, hash: ContentHash(action.text ?? "").description, ratedFilm: action.ratedFilm)
                case .skip:
                    break
                }
                done(action)
            }
        } catch {
            try? state.write(to: stateURL)
            throw error
        }
        do {
            try state.write(to: stateURL)
        } catch {
            throw Diagnostic(
                "the record of what was imported cannot be written (\(ErrorText.reason(error))): the reviews are "
                    + "written, but importing again counts them as not imported here, and leaves them as they are",
                file: plan.statePath)
        }
    }
}

private extension Importer {
    /// The section to import into: `--section`, else `movies` or `books` when it exists, else
    /// the site's only section of the right kind, else `movies` or `books` (made when written).
    func section(_ folder: SiteFolder) throws(BuildError) -> String {
        let kind = options.source.kind
        let fallback = kind == .movie ? "movies" : "books"
        func problem(_ message: String, _ path: String) -> BuildError {
            BuildError(step: "choosing the section", diagnostics: [Diagnostic(message, file: path)])
        }
        func kindOf(_ name: String) throws(BuildError) -> WorkKind? {
            guard folder.kind("content/\(name)") == .folder else {
                return name == "movies" || name == "films" ? .movie : name == "books" ? .book : nil
            }
            let (section, problems) = SiteLoader(root: options.site).reloadSection(
                name, rawHTML: false, links: MarkdownLinks(basePath: "/"))
            guard let section else { throw BuildError(step: "choosing the section", diagnostics: problems) }
            return section.kind
        }
        var name = options.section ?? fallback
        if options.section == nil, folder.kind("content/\(fallback)") != .folder {
            var diagnostics: [Diagnostic] = []
            let candidates = folder.entries("content", &diagnostics).filter(\.isFolder).map(\.name)
                .filter { (try? kindOf($0)) == kind }
            if candidates.count == 1 { name = candidates[0] }
        }
        guard name.isSafeSlug, !SiteLoader.reservedNames.contains(name) else {
            throw problem(
                "\"\(name)\" cannot be a section folder (letters, digits, - and _ only, and not a name sitegen uses)",
                "content/\(name)")
        }
        guard let found = try kindOf(name) else {
            throw problem(
                "no such section: make the folder with an _index.md saying \"kind: \(kind.rawValue)\", or use --section \(fallback)",
                "content/\(name)")
        }
        guard found == kind else {
            throw problem(
                "a \(found.noun) section: \(options.source.noun)s go in a \(kind.noun) section (choose one with --section)",
                "content/\(name)")
        }
        return name
    }

    /// The export's entries, and (Goodreads) the rows left on other shelves.
    func read() throws -> ([ImportItem], [GoodreadsLibrary.Skipped]) {
        switch options.source {
        case .letterboxd:
            let files: ExportFiles
            do {
                files = try ExportFiles(
                    options.export, shown: options.exportShown, names: ["diary.csv", "reviews.csv", "ratings.csv"])
            } catch {
                throw BuildError(step: "reading the export", diagnostics: [error])
            }
            return (try LetterboxdExport.items(files), [])
        case .goodreads:
            let table: CSVTable
            do throws(Diagnostic) {
                let data: Data
                do {
                    data = try DiskFile.read(options.export.path)
                } catch {
                    throw Diagnostic(error.reason, file: options.exportShown)
                }
                table = try CSVTable(data, path: options.exportShown)
            } catch {
                throw BuildError(step: "reading the export", diagnostics: [error])
            }
            return try GoodreadsLibrary.items(table, shelves: options.shelves)
        }
    }

    /// Writes a new file, failing rather than replacing one that appeared meanwhile.
    static func create(_ data: Data, at url: URL, shown: String) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).sitegen-import")
        try AtomicFile.write(data, to: temporary)
        defer { unlink(temporary.path) }
        guard link(temporary.path, url.path) == 0 else {
            let code = errno
            throw Diagnostic(
                code == EEXIST
                    ? "appeared while importing, and is not overwritten" : String(cString: strerror(code)),
                file: shown)
        }
    }
}

extension Importer {
    /// Removes what an import killed while writing left in the section folder: its temporary
    /// files (`.heat.md.sitegen-import`, `.heat.md.sitegen-tmp-<random>` and the two together),
    /// plain files only, and only those over a minute old (never one being written now).
    static func removeLeftovers(in folder: String, now: Date = Date()) {
        AtomicFile.removeLeftovers(in: folder, now: now, isLeftover: isLeftover)
    }

    /// Whether `name` is one of the temporary files an import writes (see ``removeLeftovers(in:now:)``).
    static func isLeftover(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.count > 1 else { return false }
        if name.hasSuffix(".md.sitegen-import") { return true }
        guard let target = AtomicFile.temporaryTarget(of: name) else { return false }
        return target.hasSuffix(".md") || target.hasSuffix(".md.sitegen-import")
    }
}
