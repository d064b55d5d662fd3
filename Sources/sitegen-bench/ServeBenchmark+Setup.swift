import Foundation

extension ServeBenchmark {
    /// Copies the parts of a site `sitegen serve` reads.
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

    /// Gives the site its own copy of the default review template, so the template edit has a file to change.
    func overrideReviewTemplate(in folder: URL) throws {
        let url = folder.appendingPathComponent("Templates/review.mustache")
        guard !FileManager.default.fileExists(atPath: url.path), let text = Pipeline.builtInTemplate("review") else {
            return
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).writePlain(to: url)
    }

    /// The newest review of the first section (films come first), and every review oldest first.
    static func newestReview(in folder: URL) throws -> (target: ReviewFile, oldest: [String]) {
        let content = folder.appendingPathComponent("content")
        var dated: [(date: String, source: String)] = []
        var first: String?
        let sections = try FileManager.default.contentsOfDirectory(atPath: content.path).sorted {
            ($0 == "movies" ? 0 : 1, $0) < ($1 == "movies" ? 0 : 1, $1)
        }
        for section in sections {
            let names =
                (try? FileManager.default.contentsOfDirectory(atPath: content.appendingPathComponent(section).path))
                ?? []
            for name in names where name.hasSuffix(".md") && name != "_index.md" {
                let file = try ReviewFile(site: folder, source: "content/\(section)/\(name)")
                guard file.field("slug") == nil, file.field("draft") == nil else { continue }
                first = first ?? section
                dated.append((file.field("date") ?? "", file.source))
            }
        }
        guard let section = first else { throw BenchError("no review found in \(folder.path)") }
        let newest = dated.filter { $0.source.hasPrefix("content/\(section)/") }.max {
            ($0.date, $0.source) < ($1.date, $1.source)
        }!
        return (
            try ReviewFile(site: folder, source: newest.source),
            dated.sorted { ($0.date, $0.source) < ($1.date, $1.source) }.map(\.source).filter { $0 != newest.source }
        )
    }

    /// wrk on a review page: two threads, 64 connections, as the README's figures.
    func runWrk(port: Int, page: String) throws {
        let path = "/usr/bin/wrk"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            print("wrk not found at \(path) (Debian: apt-get install wrk): requests per second not measured")
            return
        }
        let wrk = Process()
        wrk.executableURL = URL(fileURLWithPath: path)
        let url = "http://127.0.0.1:\(port)\(page)"
        wrk.arguments = ["-t2", "-c64", "-d\(wrkSeconds)s", url]
        let pipe = Pipe()
        wrk.standardOutput = pipe
        try wrk.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        wrk.waitUntilExit()
        print("wrk -t2 -c64 -d\(wrkSeconds)s \(url):")
        print(output.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
    }
}
