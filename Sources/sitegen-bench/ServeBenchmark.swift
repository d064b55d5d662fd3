import Foundation
import SiteGenCLI

/// `sitegen-bench serve`: runs `sitegen serve` on a site and times, for each kind of edit,
/// from saving a file to the changed page (or the 404) being what a GET returns; then
/// measures requests per second on a review page with wrk.
struct ServeBenchmark {
    let site: SyntheticSite
    let source: String?
    let repeats: Int
    let kinds: [EditKind]
    let binary: String
    let wrkSeconds: Int

    init(_ words: [String]) throws {
        let arguments = try Arguments(
            words,
            spec: ArgumentSpec(options: [
                "--reviews", "--words", "--page-size", "--seed", "--tags", "--source", "--repeat", "--only", "--binary",
                "--wrk-seconds", "--edits",
            ]))
        site = try SyntheticSite(arguments, defaultReviews: 10_000)
        source = arguments.value("--source")
        repeats = try arguments.integer("--repeat", in: 1...100) ?? arguments.integer("--edits", in: 1...100) ?? 5
        kinds =
            try arguments.value("--only").map { list in
                try list.split(separator: ",").map { name in
                    guard let kind = EditKind(rawValue: String(name)) else {
                        throw UsageError(
                            "unknown edit \"\(name)\"; the edits are "
                                + EditKind.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                    return kind
                }
            } ?? EditKind.allCases
        binary =
            arguments.value("--binary")
            ?? URL(fileURLWithPath: ChildProcess.ownExecutable).deletingLastPathComponent()
            .appendingPathComponent("sitegen").path
        wrkSeconds = try arguments.integer("--wrk-seconds", in: 0...600) ?? 10
    }

    func run() throws {
        let manager = FileManager.default
        let folder = manager.temporaryDirectory.appendingPathComponent("sitegen-serve-bench-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: folder) }
        if let source {
            try copySite(from: URL(fileURLWithPath: source), to: folder)
        } else {
            _ = try site.write(to: folder)
        }
        try overrideReviewTemplate(in: folder)
        let reviews = try Self.newestReview(in: folder)
        var session = ServeSession(site: folder, seed: site.seed, target: reviews.target, spare: reviews.oldest)
        let server = try ServerProcess(binary: binary, site: folder)
        defer { server.stop() }
        let startMemory = server.memory
        print(
            "site: \(source ?? "\(Show.count(site.reviews)) generated reviews, page_size \(site.pageSize)"); "
                + "sitegen serve (\(binary)) started in \(Show.seconds(server.startup.seconds)), "
                + "\(Show.memory(startMemory.current)) resident")
        print("edited review: \(session.target.source) (\(session.target.page)); \(repeats) edits of each kind")
        print("")
        print(
            Show.pad("edit", 15) + Show.pad("save to served: median", 24) + Show.pad("min-max", 18)
                + Show.pad("files changed", 15) + "server's rebuild (median)")
        for kind in kinds {
            var timings: [Double] = []
            var changed: [Int] = []
            var rebuild: [Double] = []
            var problem: String?
            for number in 1...repeats {
                if kind == .draftOff { try untimed(.draftOn, number, &session, server) }
                guard let edit = try session.edit(kind, number: number) else {
                    problem = "skipped: the site has nothing to edit for it"
                    break
                }
                let outcome = try measure(edit, server)
                if let failure = outcome.failure {
                    problem = failure
                    break
                }
                timings.append(outcome.seconds)
                changed.append(outcome.changedFiles)
                rebuild.append(outcome.rebuildSeconds)
                if kind == .draftOn { try untimed(.draftOff, number, &session, server) }
            }
            print(row(kind, timings, changed, rebuild, problem))
            fflush(nil)  // progress, when the output is a file or a pipe
        }
        let memory = server.memory
        print("")
        print("server memory: peak \(Show.memory(memory.peak)), now \(Show.memory(memory.current)) resident")
        if wrkSeconds > 0 {
            let size = (try? HTTPProbe.get(port: server.port, path: session.target.page).body.utf8.count) ?? 0
            print("wrk on \(session.target.page) (\(Show.bytes(size)) as served):")
            try runWrk(port: server.port, page: session.target.page)
        }
    }

    /// What one timed edit took.
    struct Outcome {
        var seconds = 0.0
        var changedFiles = 0
        var rebuildSeconds = 0.0
        var failure: String?
    }

    func measure(_ edit: ServeSession.Edit, _ server: ServerProcess) throws -> Outcome {
        let expected = edit.expectation
        let before = try? HTTPProbe.get(port: server.port, path: expected.path)
        let clock = ContinuousClock()
        let start = clock.now
        try edit.save()
        var outcome = Outcome()
        while true {
            let response = try HTTPProbe.get(port: server.port, path: expected.path)
            let differs = before.map { $0.status != response.status || $0.body != response.body } ?? true
            if differs && response.status == expected.status
                && expected.contains.map({ response.body.contains($0) }) ?? true
            {
                outcome.seconds = (clock.now - start).seconds
                break
            }
            if clock.now - start > .seconds(600) {
                return Outcome(failure: "not served within 10 minutes (\(expected.path) answered \(response.status))")
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
        for line in server.settle(after: start) {
            if line.text.hasPrefix("Rebuild failed") { outcome.failure = line.text }
            let numbers = line.text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            if line.text.hasPrefix("Rebuilt"), numbers.count >= 2 {
                outcome.changedFiles += numbers[0]
                outcome.rebuildSeconds += Double(numbers[1]) / 1000
            }
        }
        return outcome
    }

    /// An edit that puts the site in the state the next timed edit needs (not timed).
    func untimed(_ kind: EditKind, _ number: Int, _ session: inout ServeSession, _ server: ServerProcess) throws {
        guard let edit = try session.edit(kind, number: number) else { return }
        if let failure = try measure(edit, server).failure {
            throw BenchError("preparing \(kind.rawValue): \(failure)")
        }
    }

    func row(_ kind: EditKind, _ timings: [Double], _ changed: [Int], _ rebuild: [Double], _ problem: String?) -> String
    {
        guard !timings.isEmpty else { return Show.pad(kind.rawValue, 15) + (problem ?? "no figures") }
        let sorted = timings.sorted()
        let files = changed.sorted()
        let fileText =
            files.first == files.last
            ? Show.count(files[0]) : "\(Show.count(files[0]))-\(Show.count(files[files.count - 1]))"
        return Show.pad(kind.rawValue, 15) + Show.pad(Show.milliseconds(sorted[sorted.count / 2]), 24)
            + Show.pad("\(Int((sorted[0] * 1000).rounded()))-\(Show.milliseconds(sorted[sorted.count - 1]))", 18)
            + Show.pad(fileText, 15) + Show.milliseconds(rebuild.sorted()[rebuild.count / 2])
            + (problem.map { "  (\($0))" } ?? "")
    }
}
