import Foundation
import Mustache

#if canImport(Glibc)
    import Glibc
#endif

/// What the last build read and wrote, kept out of the output in the site folder
/// (`.sitegen/build-<output>.manifest`), so that a build with nothing changed does almost
/// nothing: it compares every input file's stamp (size, inode, modification and status
/// times) with the manifest's, checks the output folder still holds exactly what the build
/// left there, and stops.
///
/// The manifest is only ever a shortcut. A missing, damaged or stale one (another sitegen
/// binary, other options, any input or output file changed, added or removed, or the day
/// come on which a review left out for its date is published) is ignored, and the build runs
/// in full. Files changed within a second of the last build are checked by their bytes,
/// since a second edit within one clock tick keeps the same stamp.
struct BuildManifest: Sendable, Equatable {
    static let header = "sitegen-build-manifest 2"
    static let folderName = StateFolder.name

    /// The binary, the options and the output folder the build ran with.
    let identity: String
    /// Every input file, by path relative to the site folder.
    var inputs: [String: Input]
    /// The fingerprint of the output folder's record as the build left it.
    let output: ContentHash
    /// What the build reported: pages and files made, and its warnings.
    let pages: Int
    let files: Int
    var warnings: [Diagnostic]
    /// The date of the first review the build left out because it was dated after that day:
    /// from then on the build is out of date, whatever the files say.
    var nextPublication: Day? = nil
    /// The date of the newest review the build published: a build as of an earlier day (a
    /// `SITEGEN_TODAY` in the past, a clock set back) would leave it out.
    var newestPublication: Day? = nil

    /// One input file as the build read it.
    struct Input: Sendable, Equatable {
        let stamp: FileStamp
        /// Its bytes' fingerprint, for files changed too recently to trust the stamp alone.
        let hash: ContentHash?
    }

    /// The folders of the site that a build reads (besides `site.yml`).
    static let inputFolders = ["content", Theme.folderName, "static", MetadataCache.folderName]

    /// A manifest's name in ``folderName``: these around a key of its output folder.
    static let fileNamePrefix = "build-"
    static let fileNameSuffix = ".manifest"

    /// Where the manifest of builds of `source` into `output` is kept.
    static func location(source: URL, output: URL) -> URL {
        let key = ContentHash(OutputFolder.realPath(of: output.standardizedFileURL.path)).description.prefix(16)
        return source.appendingPathComponent(folderName).appendingPathComponent(fileNamePrefix + key + fileNameSuffix)
    }

    /// What identifies the build apart from its inputs: this binary and the options.
    static func identity(of options: SiteBuilder.Options) -> String {
        var executable = "unknown"
        if let stamp = FileStamp.following("/proc/self/exe") { executable = stamp.text }
        let output = OutputFolder.realPath(of: options.output.standardizedFileURL.path)
        let parts =
            [
                "sitegen", SiteGenVersion.current, executable, options.includeDrafts ? "drafts" : "",
                options.baseURL?.absolute ?? "", output, options.today == nil ? "every date" : "dates until today",
            ] + loadedLibraries
        return ContentHash(parts.joined(separator: "\u{0}")).description
    }

    /// Each shared library the process had loaded when first asked, with its stamp: cmark,
    /// libyaml, libvips, ICU and the Swift runtime write the pages too, so an upgrade of one
    /// (the binary unchanged) makes the next build a full one. Read once, so that a library a
    /// long-running process loads later (a test run's) does not make each build look new.
    static let loadedLibraries: [String] = {
        // Read to its end by hand: Foundation reads a file of /proc as far as its first page.
        let descriptor = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return ["no maps"] }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        let maps = String(decoding: bytes, as: UTF8.self)
        var paths: Set<String> = []
        for line in maps.split(separator: "\n") {
            // address perms offset device inode path
            guard let slash = line.firstSlashIndex else { continue }
            let path = String(line[slash...])
            if path.hasSuffix(".so") || path.contains(".so.") { paths.insert(path) }
        }
        return paths.sorted().map { "\($0) \(FileStamp.following($0)?.text ?? "gone")" }
    }()

    /// Every input file's path (relative to the site folder, each once) with its stamp.
    typealias Stamps = [(path: String, stamp: FileStamp)]

    /// The stamps of every input file now; nil when a folder cannot be read (the build then says why).
    static func scan(_ source: URL) -> Stamps? {
        let root = source.path
        // The folders are read side by side (the content and the metadata cache are the large
        // ones); a real folder reached from two of them is a loop, as one reached twice in one.
        let found = inputFolders.parallelMap { folder -> (stamps: Stamps, visited: Set<String>)? in
            var stamps: Stamps = []
            var visited: Set<String> = []
            guard scan(root, folder, into: &stamps, visited: &visited) else { return nil }
            return (stamps, visited)
        }
        var visited: Set<String> = []
        for part in found {
            guard let part, visited.isDisjoint(with: part.visited) else { return nil }
            visited.formUnion(part.visited)
        }
        // A list, not a table: each path is there once (no folder is read twice, and a folder
        // names each entry once), and at 100,000 reviews making and growing tables of 200,000
        // stamps was a third of the scan.
        var stamps: Stamps = []
        stamps.reserveCapacity(1 + found.reduce(0) { $0 + ($1?.stamps.count ?? 0) })
        if let stamp = FileStamp.following(root + "/" + SiteConfig.fileName) {
            stamps.append((SiteConfig.fileName, stamp))
        }
        for part in found {
            if let part { stamps += part.stamps }
        }
        return stamps
    }

    /// Whether `today` publishes the reviews the build published, no more and no fewer: no
    /// review it left out for its date is due, and none it published is dated after `today`.
    func isCurrent(today: Day?) -> Bool {
        guard let today else { return true }
        if let nextPublication, today >= nextPublication { return false }
        if let newestPublication, today < newestPublication { return false }
        return true
    }

    /// Whether the output folder is still exactly what the manifest says the build left.
    func outputIsIntact(_ output: URL) -> Bool {
        let folder = OutputFolder.realPath(of: output.standardizedFileURL.path)
        guard let data = try? DiskFile.read(folder + "/" + OutputRecord.fileName, limit: DiskFile.recordSizeLimit),
            ContentHash(data) == self.output, case .record(let record) = OutputRecord.read(data)
        else { return false }
        // Each file's stamp is read relative to the folder (a shorter walk for the kernel), on every core.
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return Array(record.entries).parallelMap { FileStamp.of($0.key, in: descriptor) == $0.value.stamp }
            .allSatisfy { $0 }
    }

    /// Whether the inputs now (`stamps`) are the ones the manifest recorded.
    func matches(_ stamps: Stamps, source: URL) -> Bool {
        // As many paths, each once and each an input: the same paths.
        guard stamps.count == inputs.count else { return false }
        for (path, stamp) in stamps {
            guard let input = inputs[path], input.stamp == stamp else { return false }
            if let hash = input.hash {
                guard FileCopy.hash(ofFileAt: source.path + "/" + path, limit: DiskFile.copiedSizeLimit) == hash
                else { return false }
            }
        }
        return true
    }

    /// A manifest of a build that read the files `prepared` has the stamps of (taken before
    /// it read them) and left the output folder at `output`.
    static func made(
        identity: String, prepared: PreparedInputs, source: URL, output: URL, report: SiteBuilder.Report
    ) -> BuildManifest? {
        let folder = OutputFolder.realPath(of: output.standardizedFileURL.path)
        guard let record = try? DiskFile.read(folder + "/" + OutputRecord.fileName, limit: DiskFile.recordSizeLimit)
        else { return nil }
        var inputs = prepared.inputs
        for path in prepared.recent {
            guard let stamp = inputs[path]?.stamp else { return nil }
            // Changed too recently to trust: keep the bytes' fingerprint as they were read.
            let hash = FileCopy.hash(ofFileAt: source.path + "/" + path, limit: DiskFile.copiedSizeLimit)
            guard hash != nil, FileStamp.following(source.path + "/" + path) == stamp else { return nil }
            inputs[path] = Input(stamp: stamp, hash: hash)
        }
        return BuildManifest(
            identity: identity, inputs: inputs, output: ContentHash(record), pages: report.pages, files: report.files,
            warnings: report.warnings, nextPublication: report.nextPublication,
            newestPublication: report.newestPublication)
    }

    /// Reads the manifest at `url`; nil when there is none, it is damaged, or it is over
    /// `limit` bytes (then it is not read at all: no build made it).
    static func read(_ url: URL, limit: Int = DiskFile.recordSizeLimit) -> BuildManifest? {
        guard let data = try? DiskFile.read(url.path, limit: limit), var text = String(data: data, encoding: .utf8)
        else { return nil }
        return text.withUTF8 { bytes in
            var lines = RecordText.lines(bytes)
            guard lines.count >= 5, lines[0].holds(header), lines.last?.isEmpty == true else { return nil }
            lines.removeLast()
            let top = lines[1...3].map(\.text)
            let identity = String(top[0].dropFirst("identity ".count))
            let counts = top[2].split(separator: " ")
            guard top[0].hasPrefix("identity "), top[1].hasPrefix("output "),
                let output = ContentHash(hex: top[1].dropFirst("output ".count)), counts.count == 3,
                counts[0] == "report", let pages = Int(counts[1]), let files = Int(counts[2])
            else { return nil }
            var manifest = BuildManifest(
                identity: identity, inputs: [:], output: output, pages: pages, files: files, warnings: [])
            var inputs: [String: Input] = [:]
            inputs.reserveCapacity(lines.count)
            for line in lines.dropFirst(4) {
                // A file's line starts with its fingerprint (or "-"); the few others with a word.
                if let first = line.first, first != UInt8(ascii: "-") && !first.isHexDigit {
                    guard manifest.read(other: line.text) else { return nil }
                    continue
                }
                let fields = RecordText.fields(line, maxSplits: 6)
                guard fields.count == 7, let stamp = FileStamp(fields: fields[1...5]), !fields[6].isEmpty else {
                    return nil
                }
                let hash = fields[0].holds("-") ? nil : ContentHash(hex: fields[0])
                guard fields[0].holds("-") || hash != nil else { return nil }
                inputs[fields[6].text] = Input(stamp: stamp, hash: hash)
            }
            manifest.inputs = inputs
            return manifest
        }
    }

    /// Reads a line of the manifest that does not name a file: a date of publication or a
    /// warning; false when it is neither.
    private mutating func read(other line: String) -> Bool {
        if line.hasPrefix("publishes ") {
            guard let day = Day(String(line.dropFirst("publishes ".count))) else { return false }
            nextPublication = day
            return true
        }
        if line.hasPrefix("published ") {
            guard let day = Day(String(line.dropFirst("published ".count))) else { return false }
            newestPublication = day
            return true
        }
        guard line.hasPrefix("warning ") else { return false }
        let fields = line.dropFirst("warning ".count).split(
            separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
        guard fields.count == 5, let row = Int(fields[2]), let column = Int(fields[3]) else { return false }
        warnings.append(
            Diagnostic(
                String(fields[4]), at: SourceLocation(path: String(fields[1]), line: row, column: column),
                severity: .warning, topic: fields[0] == "uncached-metadata" ? .uncachedMetadata : .general))
        return true
    }

    /// Writes the manifest at `url` (a temporary file, then a rename), with the lines of
    /// `prepared` for the inputs it has as this manifest has them.
    func write(to url: URL, prepared: PreparedInputs? = nil) throws {
        var lines = [Self.header, "identity \(identity)", "output \(output)", "report \(pages) \(files)"]
        if let nextPublication { lines.append("publishes \(nextPublication)") }
        if let newestPublication { lines.append("published \(newestPublication)") }
        for warning in warnings {
            let location = warning.location
            let message = warning.message.replacingOccurrences(of: "\n", with: " ")
            let topic = warning.topic == .uncachedMetadata ? "uncached-metadata" : "general"
            let path = location.path.replacingOccurrences(of: "\t", with: " ")
            lines.append("warning \(topic)\t\(path)\t\(location.line)\t\(location.column)\t\(message)")
        }
        lines += inputLines(prepared)
        try Directory.make(url.deletingLastPathComponent().path)
        try AtomicFile.write(RecordText.bytes(lines), to: url)
    }
}

extension BuildManifest {
    /// The most output folders whose manifests a site keeps: a build into another one
    /// removes the manifest written longest ago. A manifest grows with the site (18 MB at
    /// 100,000 reviews), and builds into a new temporary folder each time would otherwise
    /// leave one more every time.
    static let keptOutputs = 8

    /// Removes the manifests of builds into other output folders but the ``keptOutputs`` - 1
    /// written most recently, beside the one at `url` (their next build is a full one, as
    /// after any change). Their lock files stay: removing a lock file that another build may
    /// be waiting on would let two builds hold it at once. What cannot be listed or removed
    /// stays.
    static func pruneOthers(besides url: URL) {
        let folder = url.deletingLastPathComponent().path
        guard let entries = Directory.entries(folder, sorted: false) else { return }
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var others: [(name: String, stamp: FileStamp)] = []
        for entry in entries
        where entry.decodable && entry.name != url.lastPathComponent && entry.name.hasPrefix(fileNamePrefix)
            && entry.name.hasSuffix(fileNameSuffix)
        {
            // A link or anything else named like a manifest is left alone.
            guard let stamp = FileStamp.of(entry.name, in: descriptor) else { continue }
            others.append((entry.name, stamp))
        }
        others.sort {
            ($0.stamp.seconds, $0.stamp.nanoseconds, $1.name) > ($1.stamp.seconds, $1.stamp.nanoseconds, $0.name)
        }
        for old in others.dropFirst(keptOutputs - 1) { unlinkat(descriptor, old.name, 0) }
    }
}

private extension BuildManifest {
    /// Adds the stamps of the visible files under `relative` (and an entry for each folder, so
    /// that a new empty section counts), following links as the loader does; false when a
    /// folder cannot be read or is reached twice (a loop, which the loader reports).
    static func scan(
        _ root: String, _ relative: String, into stamps: inout Stamps, visited: inout Set<String>
    ) -> Bool {
        let path = root + "/" + relative
        guard lstatKind(path) != nil else { return true }
        guard let real = SafePath.resolved(path) else { return false }
        guard visited.insert(real).inserted else { return false }
        // In the order the folder gives them: stamps go into a table.
        guard let entries = Directory.entries(path, sorted: false) else { return false }
        stamps.append((relative + "/", FileStamp(size: -1, seconds: 0, nanoseconds: 0, inode: 0)))
        var files: [String] = []
        for entry in entries where !entry.name.isHiddenName {
            // A name no path can reach again: the full build reports it.
            guard entry.decodable else { return false }
            let inner = relative + "/" + entry.name
            switch entry.kind == .link ? DiskFile.kind(root + "/" + inner) : entry.kind == .folder ? .folder : .file {
            case .folder?:
                guard scan(root, inner, into: &stamps, visited: &visited) else { return false }
            default:
                files.append(entry.name)
            }
        }
        // A section can hold thousands of reviews: their stamps are read on every core, each
        // by its name in the folder (the kernel does not walk the whole path again).
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let found = files.parallelMap { FileStamp.following($0, in: descriptor) }
        for (name, stamp) in zip(files, found) {
            guard let stamp else { return false }
            stamps.append((relative + "/" + name, stamp))
        }
        return true
    }
}
