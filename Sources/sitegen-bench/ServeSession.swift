import Foundation
import Mustache

#if canImport(Glibc)
    import Glibc
#endif

/// The edits `sitegen-bench serve` makes to the site being served: each one prepared (what
/// to GET and what it must show), then saved while the clock runs.
struct ServeSession {
    let site: URL
    let seed: UInt64
    /// The review that most edits change (the newest film, or the newest review of the first section).
    var target: ReviewFile
    /// Old reviews to delete and rename, oldest first.
    var spare: [String]
    var created = 0

    /// What to GET after an edit, and what the answer must be.
    struct Expectation {
        let path: String
        let status: Int
        let contains: String?
    }

    /// An edit ready to be saved.
    struct Edit {
        let expectation: Expectation
        let save: () throws -> Void
    }

    /// The edit `kind` number `number`; nil when the site has nothing it could change.
    mutating func edit(_ kind: EditKind, number: Int) throws -> Edit? {
        let marker = "bench-\(kind.rawValue)-\(number)"
        var file = target
        let site = self.site
        switch kind {
        case .body:
            file.appendToBody("Edited for the benchmark: \(marker).")
        case .rating:
            let ratings = ["1.5", "2", "2.5", "3", "4.5", "1", "5", "0.5"]
            let current = file.field("rating")
            let rating = ratings.filter { $0 != current }[number % (ratings.count - 1)]
            file.set("rating", rating)
            return commit(file, Expectation(path: file.page, status: 200, contains: "\(rating) out of 5 stars"))
        case .title:
            let base = file.title.components(separatedBy: " bench-").first ?? file.title
            file.set("title", "\"\(base) \(marker)\"")
        case .date:
            let date = "2025-12-\(String(format: "%02d", 1 + number % 28))"
            file.set("date", date == file.field("date") ? "2025-11-30" : date)
            return commit(
                file, Expectation(path: file.page, status: 200, contains: "datetime=\"\(file.field("date")!)\""))
        case .tags:
            file.set("tags", "[drama, memory, \(marker)]")
        case .slug:
            file.set("slug", "\(file.name)-\(marker)")
            return commit(file, Expectation(path: file.page, status: 200, contains: HTML.escape(file.title)))
        case .draftOn:
            file.set("draft", "true")
            return commit(file, Expectation(path: file.page, status: 404, contains: nil))
        case .draftOff:
            file.set("draft", nil)
            return commit(file, Expectation(path: file.page, status: 200, contains: HTML.escape(file.title)))
        case .newFile:
            created += 1
            var taken: Set<String> = []
            let review = SyntheticReview(index: 1_000_000 + created, seed: seed, words: 500...700, taken: &taken)
            let source = "content/\(target.section)/\(marker).md"
            return Edit(
                expectation: Expectation(
                    path: "/\(target.section)/\(marker)/", status: 200, contains: HTML.escape(review.title))
            ) {
                try ReviewFile.save(Data(review.text.utf8), to: site.appendingPathComponent(source))
            }
        case .deleteFile:
            guard !spare.isEmpty else { return nil }
            let victim = try ReviewFile(site: site, source: spare.removeFirst())
            return Edit(expectation: Expectation(path: victim.page, status: 404, contains: nil)) {
                try FileManager.default.removeItem(at: site.appendingPathComponent(victim.source))
            }
        case .renameFile:
            guard !spare.isEmpty else { return nil }
            var moved = try ReviewFile(site: site, source: spare.removeFirst())
            guard moved.field("slug") == nil else { return nil }
            let from = moved.source
            moved.source = "content/\(moved.section)/\(moved.name)-\(marker).md"
            let to = moved.source
            let expectation = Expectation(path: moved.page, status: 200, contains: HTML.escape(moved.title))
            return Edit(expectation: expectation) {
                guard rename(site.appendingPathComponent(from).path, site.appendingPathComponent(to).path) == 0 else {
                    throw BenchError("cannot rename \(from)")
                }
            }
        case .sectionIndex:
            return try append(
                "\nEdited for the benchmark: \(marker).\n", to: "content/\(target.section)/_index.md",
                expect: Expectation(path: "/\(target.section)/", status: 200, contains: marker))
        case .template:
            let path = "Templates/review.mustache"
            guard let text = try? String(contentsOf: site.appendingPathComponent(path), encoding: .utf8),
                let end = text.range(of: "</article>", options: .backwards)
            else { return nil }
            let edited = text.replacingCharacters(in: end, with: "<!-- \(marker) -->\n</article>")
            return Edit(expectation: Expectation(path: target.page, status: 200, contains: marker)) {
                try ReviewFile.save(Data(edited.utf8), to: site.appendingPathComponent(path))
            }
        case .siteYML:
            let url = site.appendingPathComponent("site.yml")
            var lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
            lines.removeAll { $0.hasPrefix("description:") }
            lines.insert("description: Edited for the benchmark, \(marker).", at: 1)
            let text = lines.joined(separator: "\n")
            return Edit(expectation: Expectation(path: "/", status: 200, contains: marker)) {
                try ReviewFile.save(Data(text.utf8), to: url)
            }
        case .metadata:
            guard let path = metadataPath,
                let data = FileManager.default.contents(atPath: site.appendingPathComponent(path).path),
                var entry = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { return nil }
            entry["overview"] = "Edited for the benchmark: \(marker). " + ((entry["overview"] as? String) ?? "")
            let edited = try JSONSerialization.data(withJSONObject: entry, options: [.prettyPrinted, .sortedKeys])
            return Edit(expectation: Expectation(path: target.page, status: 200, contains: marker)) {
                try ReviewFile.save(edited, to: site.appendingPathComponent(path))
            }
        case .staticFile:
            return try append(
                "# \(marker)\n", to: "static/robots.txt",
                expect: Expectation(path: "/robots.txt", status: 200, contains: marker))
        }
        return commit(file, Expectation(path: file.page, status: 200, contains: marker))
    }

    /// The target's metadata cache file, when it names one by id.
    var metadataPath: String? {
        if let id = target.field("tmdb") { return "metadata/movies/tmdb-\(id).json" }
        if let isbn = target.field("isbn") { return "metadata/books/isbn-\(isbn.filter(\.isNumber)).json" }
        return nil
    }

    /// Makes `file` the target and saves it when the edit runs.
    private mutating func commit(_ file: ReviewFile, _ expectation: Expectation) -> Edit {
        target = file
        let site = self.site
        return Edit(expectation: expectation) { try file.save(in: site) }
    }

    private func append(_ text: String, to path: String, expect: Expectation) throws -> Edit? {
        let url = site.appendingPathComponent(path)
        guard let old = FileManager.default.contents(atPath: url.path) else { return nil }
        return Edit(expectation: expect) { try ReviewFile.save(old + Data(text.utf8), to: url) }
    }
}
