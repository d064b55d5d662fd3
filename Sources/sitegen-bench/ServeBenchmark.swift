import Foundation
import SiteGen
import SiteGenCLI
import Synchronization

/// Times `serve`: from saving a review to its rebuilt page being served, and requests per
/// second for a review page with wrk.
struct ServeBenchmark {
    let reviews: Int?
    let source: String?
    let edits: Int
    let wrkSeconds: Int

    init(_ words: [String]) throws {
        let arguments = try Arguments(
            words, spec: ArgumentSpec(options: ["--reviews", "--source", "--edits", "--wrk-seconds"]))
        reviews = try arguments.integer("--reviews", in: 1...1_000_000)
        source = arguments.value("--source")
        edits = try arguments.integer("--edits", in: 1...1000) ?? 10
        wrkSeconds = try arguments.integer("--wrk-seconds", in: 0...600) ?? 10
    }

    func run() throws {
        let manager = FileManager.default
        let folder = manager.temporaryDirectory.appendingPathComponent("sitegen-serve-bench-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: folder) }
        if let source {
            try copySite(from: URL(fileURLWithPath: source), to: folder)
        } else {
            _ = try SyntheticSite(reviews: reviews ?? 10_000).write(to: folder)
        }
        let clock = ContinuousClock()
        var server: PreviewServer?
        let startup = try clock.measure {
            server = try PreviewServer(
                options: .init(source: folder, output: folder.appendingPathComponent("public")), host: "127.0.0.1",
                port: 0, log: { _ in })
        }
        guard let server else { return }
        let rebuilt = RebuildSignal()
        server.onRebuild = { update, error in rebuilt.signal(update, error) }
        try server.start()
        defer { server.stop() }
        let review = try firstReview(in: folder)
        let pageURL = URL(string: server.url + review.page)!
        print(
            "site: \(source ?? "synthetic, \(reviews ?? 10_000) reviews"); initial build in memory: \(format(startup)) s"
        )

        var latencies: [Double] = []
        for edit in 1...edits {
            let marker = "sitegen-bench-edit-\(edit)"
            var text = try String(contentsOf: review.file, encoding: .utf8)
            text += "\n\n\(marker)\n"
            let start = clock.now
            try Data(text.utf8).write(to: review.file, options: .atomic)
            guard let (update, error) = rebuilt.wait(timeout: 30), error == nil, let update else {
                throw CommandError("the rebuild after edit \(edit) did not finish")
            }
            let served = try Data(contentsOf: pageURL)
            let elapsed = clock.now - start
            guard String(decoding: served, as: UTF8.self).contains(marker) else {
                throw CommandError("the page was not rebuilt after edit \(edit)")
            }
            latencies.append(seconds(elapsed) * 1000)
            if edit == 1 { print("files re-rendered for a body edit: \(update.changedFiles.count)") }
            Thread.sleep(forTimeInterval: 0.2)
        }
        latencies.sort()
        print(
            String(
                format:
                    "save to served (%d edits, including the %.0f ms settle): median %.1f ms, min %.1f ms, max %.1f ms",
                edits, 50.0, latencies[latencies.count / 2], latencies[0], latencies[latencies.count - 1]))

        if wrkSeconds > 0 {
            let wrk = Process()
            wrk.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
            wrk.arguments = ["-t2", "-c64", "-d\(wrkSeconds)s", pageURL.absoluteString]
            let pipe = Pipe()
            wrk.standardOutput = pipe
            try wrk.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            wrk.waitUntilExit()
            print("wrk -t2 -c64 -d\(wrkSeconds)s \(review.page):")
            print(output.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        }
    }

    /// The first review of the first section, and its page path.
    func firstReview(in folder: URL) throws -> (file: URL, page: String) {
        let content = folder.appendingPathComponent("content")
        for section in try FileManager.default.contentsOfDirectory(atPath: content.path).sorted() {
            let files =
                (try? FileManager.default.contentsOfDirectory(atPath: content.appendingPathComponent(section).path))
                ?? []
            if let file = files.sorted().first(where: { $0.hasSuffix(".md") && $0 != "_index.md" }) {
                let text = try String(contentsOf: content.appendingPathComponent("\(section)/\(file)"), encoding: .utf8)
                let slug = text.split(separator: "\n").first { $0.hasPrefix("slug: ") }.map { String($0.dropFirst(6)) }
                return (
                    content.appendingPathComponent("\(section)/\(file)"),
                    "\(section)/\(slug ?? String(file.dropLast(3)))/"
                )
            }
        }
        throw CommandError("no review found in \(folder.path)")
    }

    func copySite(from source: URL, to folder: URL) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["site.yml", "content", "Templates", "static", "metadata"] {
            let from = source.appendingPathComponent(name)
            if manager.fileExists(atPath: from.path) {
                try manager.copyItem(at: from, to: folder.appendingPathComponent(name))
            }
        }
    }

    func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    func format(_ duration: Duration) -> String { String(format: "%.2f", seconds(duration)) }
}

/// Lets the benchmark wait for the server's next rebuild.
final class RebuildSignal: Sendable {
    private let state = Mutex<[(LiveSite.Update?, String?)]>([])
    private let semaphore = DispatchSemaphore(value: 0)

    func signal(_ update: LiveSite.Update?, _ error: String?) {
        state.withLock { $0.append((update, error)) }
        semaphore.signal()
    }

    func wait(timeout: Double) -> (LiveSite.Update?, String?)? {
        guard semaphore.wait(timeout: .now() + timeout) == .success else { return nil }
        return state.withLock { $0.removeFirst() }
    }
}
