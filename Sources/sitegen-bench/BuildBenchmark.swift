import CommonMark
import Foundation
import SiteGenCLI

/// `sitegen-bench build`: generates a realistic site and times, each in a fresh process, a
/// full build into an empty output folder, a rebuild with nothing changed and (with `--edit`)
/// a rebuild after one review changed.
struct BuildBenchmark {
    let site: SyntheticSite
    let edit: Bool
    let keep: String?
    let writeSite: String?
    let binary: String?
    /// A folder (such as a memory file system) in which the output folder is made instead of beside the site.
    let outputIn: String?
    let repeats: Int
    /// Kilobytes.
    let memoryLimit: Int?

    init(_ words: [String]) throws {
        let arguments = try Arguments(
            words,
            spec: ArgumentSpec(
                flags: ["--edit"],
                options: [
                    "--reviews", "--words", "--page-size", "--seed", "--tags", "--keep", "--write-site", "--binary",
                    "--repeat", "--max-memory", "--output-in",
                ]
            ))
        site = try SyntheticSite(arguments)
        edit = arguments.has("--edit")
        keep = arguments.value("--keep")
        writeSite = arguments.value("--write-site")
        binary = arguments.value("--binary")
        outputIn = arguments.value("--output-in")
        repeats = try arguments.integer("--repeat", in: 1...100) ?? 1
        memoryLimit = try arguments.integer("--max-memory", in: 100...10_000_000).map { $0 * 1000 * 1000 / 1024 }
        if keep != nil && writeSite != nil { throw UsageError("--keep and --write-site do not go together") }
    }

    func run() throws {
        let manager = FileManager.default
        if let writeSite {
            let folder = URL(fileURLWithPath: writeSite)
            if let existing = try? manager.contentsOfDirectory(atPath: folder.path), !existing.isEmpty {
                throw BenchError("\(writeSite) is not empty; --write-site needs a new or empty folder")
            }
            let generated = try generate(into: folder)
            print("wrote the site to \(writeSite); build it with: sitegen build --source \(writeSite)")
            _ = generated
            return
        }
        if let outputIn {
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: outputIn, isDirectory: &isFolder), isFolder.boolValue else {
                throw BenchError("--output-in \(outputIn): no such folder")
            }
        }
        let folder =
            keep.map { URL(fileURLWithPath: $0) }
            ?? manager.temporaryDirectory.appendingPathComponent("sitegen-bench-\(UUID().uuidString)")
        defer { if keep == nil { try? manager.removeItem(at: folder) } }
        if keep != nil { try? manager.removeItem(at: folder) }
        let generated = try generate(into: folder)
        // The output folder is always one this run makes (and removes), never a folder named by the user.
        let output: URL
        if let outputIn {
            output = URL(fileURLWithPath: outputIn).appendingPathComponent("sitegen-bench-public-\(UUID().uuidString)")
        } else {
            output = folder.appendingPathComponent("public")
        }
        defer { if outputIn != nil { try? manager.removeItem(at: output) } }
        let runner = BuildRunner(source: folder, output: output, binary: binary, memoryLimit: memoryLimit)
        print("builds: \(runner.description), each in a fresh process, output \(output.path)")
        fflush(nil)  // progress, when the output is a file or a pipe

        var results: [(String, [BuildRunner.Outcome])] = []
        var full: [BuildRunner.Outcome] = []
        var unchanged: [BuildRunner.Outcome] = []
        for _ in 0..<repeats {
            try? manager.removeItem(at: output)
            full.append(try runner.build())
            unchanged.append(try runner.build())
        }
        results += [("full build, empty output", full), ("rebuild, nothing changed", unchanged)]
        var editedFile: String?
        let summary = OutputSummary(folder: output)
        if edit {
            let review = generated.reviews[generated.reviews.count / 2]
            var edited: [BuildRunner.Outcome] = []
            for number in 1...repeats {
                let file = folder.appendingPathComponent(review.source)
                let text = try String(contentsOf: file, encoding: .utf8)
                try Data((text + "\nAn added sentence, edit number \(number).\n").utf8).write(to: file)
                edited.append(try runner.build())
            }
            results.append(("rebuild, one review edited", edited))
            editedFile = review.source
        }
        let present = binary == nil ? try runner.presentAlone() : nil
        BuildReport(site: site, results: results, output: summary, present: present, editedFile: editedFile).print()
    }

    func generate(into folder: URL) throws -> SyntheticSite.Summary {
        let clock = ContinuousClock()
        let start = clock.now
        let summary = try site.write(to: folder)
        let seconds = (clock.now - start).seconds
        let words = summary.reviews.map(\.wordCount)
        let count = max(1, site.reviews)
        print(
            "site: \(Show.count(site.reviews)) reviews (\(Show.count(site.reviews - site.reviews / 2)) films, "
                + "\(Show.count(site.reviews / 2)) books, \(Show.count((site.reviews + 4) / 5)) with Korean titles), "
                + "\(site.words.lowerBound)-\(site.words.upperBound) words, page_size \(site.pageSize), seed \(site.seed), "
                + "3 tags each of \(Show.count(site.tagPool.count))"
        )
        print(
            "      Markdown \(Show.bytes(summary.markdownBytes)) (\(Show.bytes(summary.markdownBytes / count)) a review, "
                + "\(words.reduce(0, +) / count) words on average, \(words.min() ?? 0)-\(words.max() ?? 0)), "
                + "metadata cache \(Show.bytes(summary.metadataBytes)); generated in \(Show.seconds(seconds))")
        return summary
    }
}

extension SyntheticSite {
    /// The recipe from `--reviews`, `--words` (`600` or `500-700`), `--page-size`, `--seed`
    /// and `--tags`.
    init(_ arguments: Arguments, defaultReviews: Int = 1000) throws {
        self.init()
        reviews = try arguments.integer("--reviews", in: 1...10_000_000) ?? defaultReviews
        pageSize = try arguments.integer("--page-size", in: 1...10_000) ?? 6
        seed = UInt64(try arguments.integer("--seed", in: 0...Int.max) ?? 42)
        tags = try arguments.integer("--tags", in: 3...1_000_000)
        if let text = arguments.value("--words") {
            let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            guard (1...2).contains(bounds.count), let low = bounds.first ?? nil, let high = bounds.last ?? nil,
                low >= 20, low <= high, high <= 100_000
            else {
                throw UsageError(
                    "--words must be a number of words or a range like 500-700 (at least 20), not \"\(text)\"")
            }
            words = low...high
        }
    }
}
