import Foundation
import ImageProcessing
import SiteGen
import SiteGenCLI

#if canImport(Glibc)
    import Glibc
#endif

/// Generates a site of N page bundles, each with its own large JPEG poster, and times the
/// builds: the first (every image decoded, resized and encoded) and the next ones (images
/// read back from `.sitegen/images/`).
struct ImageBenchmark {
    let count: Int
    let width: Int
    let height: Int
    let keep: String?

    init(_ words: [String]) throws {
        let arguments = try Arguments(
            words, spec: ArgumentSpec(options: ["--count", "--width", "--height", "--keep"]))
        count = try arguments.integer("--count", in: 1...100_000) ?? 100
        width = try arguments.integer("--width", in: 16...20_000) ?? 2000
        height = try arguments.integer("--height", in: 16...20_000) ?? 3000
        keep = arguments.value("--keep")
    }

    func run() throws {
        let folder =
            keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-bench-\(UUID().uuidString)")
        defer { if keep == nil { try? FileManager.default.removeItem(at: folder) } }
        let clock = ContinuousClock()
        var sourceBytes = 0
        // A kept folder from an earlier run with the same images is used as it is.
        let reused =
            keep != nil && FileManager.default.fileExists(atPath: folder.appendingPathComponent("site.yml").path)
        let making = try clock.measure {
            sourceBytes = reused ? try existingBytes(in: folder) : try writeSite(to: folder)
        }
        let madeMemory = peakMemoryMB()
        let output = folder.appendingPathComponent("public")
        let cache = folder.appendingPathComponent(".sitegen/images")
        try? FileManager.default.removeItem(at: output)
        try? FileManager.default.removeItem(at: cache)

        var options = SiteBuilder.Options(source: folder, output: output)
        options.usesManifest = false
        let builder = SiteBuilder(options: options)
        var report: SiteBuilder.Report?
        var cpu = cpuSeconds()
        let first = try clock.measure { report = try builder.build() }
        let firstCPU = cpuSeconds() - cpu
        let firstMemory = peakMemoryMB()
        cpu = cpuSeconds()
        let cached = try clock.measure { report = try builder.build() }
        let cachedCPU = cpuSeconds() - cpu
        try FileManager.default.removeItem(at: cache)
        let loadCold = try clock.measure { _ = try builder.load() }
        let loadCached = try clock.measure { _ = try builder.load() }
        var withManifest = SiteBuilder.Options(source: folder, output: output)
        withManifest.usesManifest = true
        _ = try SiteBuilder(options: withManifest).build()
        let unchanged = try clock.measure { _ = try SiteBuilder(options: withManifest).build() }
        let published = try publishedBytes(output)
        print(
            "images: \(count) JPEGs of \(width)x\(height), \(sourceBytes / count / 1024) KiB each "
                + "(\(reused ? "kept from an earlier run" : "made in \(format(making)) s")), libvips \(ImageProcessor.libraryVersion), \(cores()) cores"
        )
        print("published: \(published.files) image files, \(published.bytes / 1024 / 1024) MiB")
        print(
            "first build (empty cache, empty public/): \(format(first)) s, \(String(format: "%.1f", firstCPU)) s of CPU"
        )
        print(
            "build again, images from the cache: \(format(cached)) s, \(String(format: "%.2f", cachedCPU)) s of CPU "
                + "(\(report?.output.unchanged ?? 0) files unchanged)")
        print("load+enrich+images alone: empty cache \(format(loadCold)) s, cached \(format(loadCached)) s")
        print("build with nothing changed (build manifest): \(format(unchanged)) s")
        print(
            "peak memory (max RSS): \(madeMemory) MB after making the JPEGs, \(firstMemory) MB after the first build, "
                + "\(peakMemoryMB()) MB at the end")
    }

    /// Writes the site: `content/movies/rN/index.md` and `poster.jpg`. Returns the images' bytes.
    func writeSite(to folder: URL) throws -> Int {
        let manager = FileManager.default
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("title: Image benchmark\nbase_url: https://example.org/\n".utf8)
            .write(to: folder.appendingPathComponent("site.yml"))
        var total = 0
        for index in 0..<count {
            let bundle = folder.appendingPathComponent("content/movies/r\(index)")
            try manager.createDirectory(at: bundle, withIntermediateDirectories: true)
            let review = "---\ntitle: Film \(index)\ndate: 2024-01-01\nimage: poster.jpg\n---\nA review.\n"
            try Data(review.utf8).write(to: bundle.appendingPathComponent("index.md"))
            let jpeg = try ImageProcessor.encode(
                rgb: pixels(seed: index), width: width, height: height, as: .jpeg,
                settings: EncoderSettings(jpegQuality: 90))
            try jpeg.data.write(to: bundle.appendingPathComponent("poster.jpg"))
            total += jpeg.data.count
        }
        return total
    }

    /// The bytes of the posters already in `folder`.
    func existingBytes(in folder: URL) throws -> Int {
        try (0..<count).reduce(0) { total, index in
            let path = folder.appendingPathComponent("content/movies/r\(index)/poster.jpg").path
            return total + ((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
    }

    /// Something like a photograph: smooth gradients and shapes, with fine grain.
    func pixels(seed: Int) -> Data {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        let phase = Double(seed % 17)
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                let grain = Double(Int(state & 31)) - 16
                let u = Double(x) / Double(width)
                let v = Double(y) / Double(height)
                let shape = 60 * sin(u * 9 + phase) * cos(v * 7 - phase)
                let offset = (y * width + x) * 3
                bytes[offset] = clamp(40 + 150 * u + shape + grain)
                bytes[offset + 1] = clamp(60 + 120 * v - shape / 2 + grain)
                bytes[offset + 2] = clamp(90 + 80 * (1 - u) * v + shape / 3 + grain)
            }
        }
        return Data(bytes)
    }

    func clamp(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value))) }

    func publishedBytes(_ output: URL) throws -> (files: Int, bytes: Int) {
        var files = 0
        var bytes = 0
        let walker = FileManager.default.enumerator(atPath: output.path)
        while let path = walker?.nextObject() as? String {
            guard path.hasSuffix(".jpg") || path.hasSuffix(".webp") else { continue }
            files += 1
            bytes += (try FileManager.default.attributesOfItem(atPath: output.path + "/" + path)[.size] as? Int) ?? 0
        }
        return (files, bytes)
    }

    /// User and system time of the process so far.
    func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let time = { (value: timeval) in Double(value.tv_sec) + Double(value.tv_usec) / 1e6 }
        return time(usage.ru_utime) + time(usage.ru_stime)
    }

    func cores() -> Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

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
