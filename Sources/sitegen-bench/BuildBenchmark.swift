import CommonMark
import Foundation
import SiteGen
import SiteGenCLI

#if canImport(Glibc)
    import Glibc
#endif

/// Generates a site of N synthetic reviews and times full builds of it.
struct BuildBenchmark {
    let reviews: Int
    let keep: String?

    init(_ words: [String]) throws {
        let arguments = try Arguments(words, spec: ArgumentSpec(options: ["--reviews", "--keep"]))
        reviews = try arguments.integer("--reviews", in: 1...1_000_000) ?? 1000
        keep = arguments.value("--keep")
    }

    func run() throws {
        let folder =
            keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-bench-\(UUID().uuidString)")
        defer { if keep == nil { try? FileManager.default.removeItem(at: folder) } }
        let bodies = try SyntheticSite(reviews: reviews).write(to: folder)
        let output = folder.appendingPathComponent("public")
        try? FileManager.default.removeItem(at: output)

        let clock = ContinuousClock()
        var markdownBytes = 0
        let cmarkTime = clock.measure {
            for body in bodies { markdownBytes += Markdown.render(body, allowRawHTML: false).html.utf8.count }
        }
        let builder = SiteBuilder(options: .init(source: folder, output: output))
        var report: SiteBuilder.Report?
        let cold = try clock.measure { report = try builder.build() }
        let warm = try clock.measure { report = try builder.build() }
        var content: SiteContent?
        let loading = try clock.measure { content = try builder.load() }
        var presented = 0
        let presenting = clock.measure { presented = builder.presentAll(content!) }
        var files: [String: Data] = [:]
        let rendering = try clock.measure { files = try builder.render(content!).files }
        let writing = try clock.measure { _ = try OutputWriter(folder: output).write(files) }
        try FileManager.default.removeItem(at: output)
        let writingCold = try clock.measure { _ = try OutputWriter(folder: output).write(files) }
        print("reviews: \(reviews), pages: \(report?.pages ?? 0), files: \(report?.files ?? 0)")
        print("cmark alone (all review bodies, one thread): \(format(cmarkTime)) s")
        print("full build, empty public/: \(format(cold)) s")
        print("full build again, nothing changed: \(format(warm)) s (\(report?.output.unchanged ?? 0) files unchanged)")
        print(
            "steps: load \(format(loading)) s, present \(format(presenting)) s (\(presented) pages), "
                + "present+render \(format(rendering)) s, write (nothing changed) \(format(writing)) s, "
                + "write (empty folder) \(format(writingCold)) s")
        print("peak memory (max RSS): \(peakMemoryMB()) MB")
        print("build seconds: \(format(cold))")
    }

    func format(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%.2f", seconds)
    }

    func peakMemoryMB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) / 1024
    }
}

/// A generated review site: half films, half books, bodies of about 300 words in Markdown.
struct SyntheticSite {
    let reviews: Int

    static let words = """
        light memory house river winter letter mother city silence train garden music stranger
        promise window harbour question summer island photograph border kitchen ghost season
        """.split(whereSeparator: \.isWhitespace).map(String.init)
    static let koreanWords = "기억 겨울 편지 바다 도시 침묵 기차 정원 음악 약속 여름 사진 부엌 계절".split(separator: " ").map(String.init)

    /// Writes the site; returns the review bodies (for timing cmark alone).
    func write(to folder: URL) throws -> [String] {
        let manager = FileManager.default
        for section in ["movies", "books"] {
            try manager.createDirectory(
                at: folder.appendingPathComponent("content/\(section)"),
                withIntermediateDirectories: true)
        }
        try Data(
            """
            title: Synthetic Reviews
            base_url: https://bench.example/reviews/
            language: en
            author: Bench
            page_size: 20

            """.utf8
        ).write(to: folder.appendingPathComponent("site.yml"))
        var bodies: [String] = []
        var generator = SplitMix(seed: 42)
        for index in 0..<reviews {
            let section = index % 2 == 0 ? "movies" : "books"
            let body = paragraphs(&generator, index: index)
            bodies.append(body)
            let day = 1 + index % 28
            let month = 1 + (index / 28) % 12
            let year = 2000 + (index / 336) % 26
            let tags = (0..<3).map { _ in "tag\(generator.next() % 60)" }
            let korean = index % 5 == 0
            let title =
                korean
                ? "\(Self.koreanWords[index % Self.koreanWords.count]) \(index)"
                : "The \(Self.words[index % Self.words.count].capitalized) Part \(index)"
            let creator = section == "movies" ? "director: Director \(index % 97)" : "author: Author \(index % 89)"
            let text = """
                ---
                title: "\(title)"
                date: \(String(format: "%04d-%02d-%02d", year, month, day))
                rating: \(Double(generator.next() % 11) / 2)
                tags: [\(tags.joined(separator: ", "))]
                year: \(1950 + index % 75)
                \(creator)
                summary: A generated review number \(index).
                ---
                \(body)
                """
            try Data(text.utf8).write(to: folder.appendingPathComponent("content/\(section)/review-\(index).md"))
        }
        return bodies
    }

    func paragraphs(_ generator: inout SplitMix, index: Int) -> String {
        (0..<5).map { paragraph in
            let sentence = (0..<60).map { _ in Self.words[Int(generator.next() % UInt64(Self.words.count))] }
            var text = sentence.joined(separator: " ")
            if paragraph == 1 { text = "*" + text.replacingOccurrences(of: " house ", with: "* **house** ") }
            if paragraph == 3 { return "> " + text }
            return text + "."
        }.joined(separator: "\n\n") + "\n\n- one\n- [a link](https://example.org/\(index))\n"
    }
}

/// A small deterministic random number generator, so every run builds the same site.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
