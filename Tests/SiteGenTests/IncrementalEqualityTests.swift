import Foundation
import Testing

@testable import SiteGen

/// `sitegen serve` updates only what an edit touches; these tests make hundreds of random
/// edits of every kind and check, after each, that the served files are exactly those of a
/// full build of the folder as it now is.
@Suite("Incremental updates equal full builds")
struct IncrementalEqualityTests {
    @Test("random edits of every kind, each followed by a comparison with a full build", arguments: [1, 2, 3])
    func randomEdits(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let state = RandomSite(random: &random)
        let kinds = try Self.check(state, random: &random, steps: 120)
        #expect(kinds.kinds.count == RandomSite.editKinds.count, "\(kinds.kinds)")
        // Most edits are updates, not full builds (a full build is the fallback, and would hide bugs).
        #expect(kinds.incremental > 60, "\(kinds.incremental) of 120 edits were incremental")
    }

    @Test(
        "tag lists longer than the related reviews' window, over 48 months (jump links by year): edits moving reviews",
        arguments: [4, 5])
    func longTagLists(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let kinds = ["date", "tags", "new file", "deleted file", "draft", "rating", "title"]
        let state = RandomSite(
            random: &random, reviews: 2 * SiteIndex.defaultRelatedWindow + 100, tagPool: ["noir", "rain"], kinds: kinds,
            years: 2021...2024)
        let result = try Self.check(state, random: &random, steps: 40)
        #expect(result.kinds.count == kinds.count, "\(result.kinds)")
        #expect(result.incremental > 30, "\(result.incremental) of 40 edits were incremental")
        let tagPage = String(decoding: result.files["tags/noir/index.html"] ?? Data(), as: UTF8.self)
        #expect(tagPage.contains(">2023</a>") && !tagPage.contains(">March 2023</a>"))
    }

    @Test("a FIFO in place of a section's _index.md stops the update with the build's error")
    func fifoSectionIndex() throws {
        let folder = try ScratchFolder()
        let (builder, site) = try filmSite(
            in: folder,
            [
                "content/movies/_index.md": "---\ntitle: Films\n---\nIntro.\n",
                "content/movies/heat.md": "---\ntitle: Heat\ndate: 2024-02-01\n---\nA review.\n",
            ])
        let index = folder.url.appendingPathComponent("content/movies/_index.md")
        try FileManager.default.removeItem(at: index)
        #expect(mkfifo(index.path, 0o644) == 0)
        let built = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        #expect(built?.diagnostics.first?.message.contains("FIFO") == true)
        let updated = #expect(throws: BuildError.self) { _ = try site.updating(["content/movies/_index.md"]) }
        #expect(updated.map { "\($0)" } == built.map { "\($0)" })
    }

    @Test("a broken metadata entry stops the update with the build's error, its step included")
    func brokenMetadataEntry() throws {
        let folder = try ScratchFolder()
        let (builder, site) = try filmSite(
            in: folder, ["content/movies/heat.md": "---\ntitle: Heat\ndate: 2024-02-01\ntmdb: 949\n---\nA review.\n"])
        try folder.write("metadata/movies/tmdb-949.json", "{\"title\": ")
        let built = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        #expect(built?.step == "reading the metadata cache")
        let updated = #expect(throws: BuildError.self) { _ = try site.updating(["metadata/movies/tmdb-949.json"]) }
        #expect(updated.map { "\($0)" } == built.map { "\($0)" })
        #expect(updated.map { "\($0)" }?.hasPrefix("metadata/movies/tmdb-949.json:") == true)

        // A second review naming it: the entry's problem is said once, by both drivers.
        try folder.write(
            "content/movies/heat-again.md", "---\ntitle: Heat again\ndate: 2024-02-02\ntmdb: 949\n---\nA.\n")
        let twice = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        #expect(twice?.diagnostics.count == 1)
        #expect(twice.map { "\($0)" } == built.map { "\($0)" })
        let both = #expect(throws: BuildError.self) {
            _ = try site.updating(["metadata/movies/tmdb-949.json", "content/movies/heat-again.md"])
        }
        #expect(both.map { "\($0)" } == built.map { "\($0)" })
    }

    @Test(
        "with a broken metadata entry, an update lists it once though its review is read twice, and reports a clash first",
        arguments: ["slug: gone", "slug: heat"])
    func brokenMetadataEntryWithOtherChanges(alien: String) throws {
        // Heat links to Alien: when Alien moves, Heat is read again.
        let folder = try ScratchFolder()
        let (builder, site) = try filmSite(
            in: folder,
            [
                "content/movies/heat.md":
                    "---\ntitle: Heat\ndate: 2024-02-01\ntmdb: 949\n---\nSee [Alien](alien.md).\n",
                "content/movies/alien.md": "---\ntitle: Alien\ndate: 2024-01-01\n---\nA review.\n",
            ])
        try folder.write("metadata/movies/tmdb-949.json", "{\"title\": ")
        try folder.write("content/movies/alien.md", "---\ntitle: Alien\ndate: 2024-01-01\n\(alien)\n---\nA review.\n")
        let built = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        // A new address of its own: the entry's error, once; Heat's address: the clash, as a build loads first.
        #expect(built?.step == (alien == "slug: gone" ? "reading the metadata cache" : "loading the site"))
        #expect(built?.diagnostics.count == 1)
        let updated = #expect(throws: BuildError.self) {
            _ = try site.updating(["metadata/movies/tmdb-949.json", "content/movies/alien.md"])
        }
        #expect(updated.map { "\($0)" } == built.map { "\($0)" })
    }

    @Test(
        "a file of static/ where a review's own image goes is refused as a build refuses it; once gone, the image is back"
    )
    func staticFileOverOwnImage() throws {
        let folder = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        try folder.write("site.yml", "title: Images\nbase_url: https://example.org/\n")
        try folder.write(
            "content/movies/heat/index.md", "---\ntitle: Heat\ndate: 2024-02-01\nimage: poster.png\n---\nA review.\n")
        try folder.write("content/movies/alien.md", "---\ntitle: Alien\ndate: 2024-01-01\n---\nA review.\n")
        try TestImage.png(width: 300, height: 450, seed: 1).write(
            to: folder.url.appendingPathComponent("content/movies/heat/poster.png"))
        let builder = SiteBuilder(
            options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")))
        let site = try LiveSite.build(builder)
        let image = try #require(site.files.keys.filter { $0.hasPrefix("movies/heat/poster") }.min())

        // Saved where a size of the image is published: the build's error, from the update too.
        try folder.write("static/\(image)", "mine")
        let built = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        #expect(
            built?.diagnostics.map(\.description)
                == [
                    "static/\(image):1:1: static/\(image) would replace an image sitegen publishes for content/movies/heat/index.md: rename or remove it"
                ])
        let updated = #expect(throws: BuildError.self) { _ = try site.updating(["static/\(image)"]) }
        #expect(updated?.diagnostics == built?.diagnostics)

        // Removed again: the image is still there, as a full build has it.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("static/\(image)"))
        let fixed = try site.updating(["static/\(image)"])
        #expect(fixed.files == (try LiveSite.build(builder)).files)
        #expect(fixed.files[image] == site.files[image])

        // The other way: the file is there first, and a review's image comes to that place.
        let alien = image.replacingOccurrences(of: "movies/heat/", with: "movies/alien/")
        try folder.write("static/\(alien)", "mine")
        let withFile = try fixed.updating(["static/\(alien)"])
        #expect(withFile.files[alien] == Data("mine".utf8))
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("content/movies/alien"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: folder.url.appendingPathComponent("content/movies/alien.md"),
            to: folder.url.appendingPathComponent("content/movies/alien/index.md"))
        try folder.write(
            "content/movies/alien/index.md", "---\ntitle: Alien\ndate: 2024-01-01\nimage: poster.png\n---\nA review.\n")
        // The same pixels, so the same file names as Heat's.
        try TestImage.png(width: 300, height: 450, seed: 1).write(
            to: folder.url.appendingPathComponent("content/movies/alien/poster.png"))
        let movedIn = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        let changes: Set<String> = [
            "content/movies/alien.md", "content/movies/alien/index.md", "content/movies/alien/poster.png",
        ]
        let incremental = #expect(throws: BuildError.self) { _ = try withFile.updating(changes) }
        #expect(movedIn?.diagnostics.contains { $0.message.contains("static/\(alien) would replace an image") } == true)
        #expect(incremental?.diagnostics == movedIn?.diagnostics)
    }

    @Test("static/robots.txt and site.yml's image added, changed or removed while serving: as a full build has them")
    func staticFilesThePagesSpeakOf() throws {
        let folder = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        try folder.write("site.yml", "title: Cards\nbase_url: https://example.org/\nimage: card.png\n")
        try folder.write("content/movies/alien.md", "---\ntitle: Alien\ndate: 2024-01-01\n---\nA review.\n")
        let card = folder.url.appendingPathComponent("static/card.png")
        try FileManager.default.createDirectory(
            at: card.deletingLastPathComponent(), withIntermediateDirectories: true)
        try TestImage.png(width: 100, height: 50, seed: 1).write(to: card)
        let builder = SiteBuilder(
            options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")))
        var site = try LiveSite.build(builder)
        #expect(site.files["robots.txt"].map { String(decoding: $0, as: UTF8.self) }?.contains("Allow: /") == true)

        // The site's own robots.txt comes, changes and goes: served as a full build has it.
        for text in ["User-agent: *\nDisallow: /drafts/\n", "User-agent: *\nDisallow: /\n", nil] {
            if let text {
                try folder.write("static/robots.txt", text)
            } else {
                try FileManager.default.removeItem(at: folder.url.appendingPathComponent("static/robots.txt"))
            }
            site = try site.updating(["static/robots.txt"])
            #expect(site.files == (try LiveSite.build(builder)).files)
            #expect(
                site.files["robots.txt"].map { String(decoding: $0, as: UTF8.self) }?.contains("Disallow")
                    == (text != nil))
        }
        // The image of site.yml replaced by a larger one: every page says its new size.
        try TestImage.png(width: 300, height: 200, seed: 2).write(to: card)
        site = try site.updating(["static/card.png"])
        #expect(site.files == (try LiveSite.build(builder)).files)
        let home = String(decoding: try #require(site.files["index.html"]), as: UTF8.self)
        #expect(home.contains("<meta property=\"og:image:width\" content=\"300\">"), "\(home)")
        // And removed: the build's error.
        try FileManager.default.removeItem(at: card)
        let built = #expect(throws: BuildError.self) { _ = try LiveSite.build(builder) }
        let updated = #expect(throws: BuildError.self) { _ = try site.updating(["static/card.png"]) }
        #expect(
            built?.diagnostics.map(\.description) == [
                "site.yml:3:8: \"image\" names static/card.png, which does not exist"
            ])
        #expect(updated?.diagnostics == built?.diagnostics)
    }

    @Test("more tags than a page of the tag index holds (30 here): edits that add, drop and move them")
    func pagedTagIndex() throws {
        var random = SplitMix(seed: 6)
        let kinds = ["tags", "new file", "deleted file", "draft", "title"]
        let pool = (1...48).map { "t\($0)" } + ["가을", "나무", "Zed", "ábside", "42"]
        let state = RandomSite(random: &random, reviews: 40, tagPool: pool, kinds: kinds)
        let result = try Self.check(state, random: &random, steps: 40)
        #expect(result.kinds.count == kinds.count, "\(result.kinds)")
        #expect(result.incremental > 30, "\(result.incremental) of 40 edits were incremental")
        #expect(result.files["tags/page/2/index.html"] != nil)
    }

    @Test("a second page of the tag index comes with the 31st tag and goes with it, as in a full build")
    func tagIndexPageComesAndGoes() throws {
        let folder = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        try folder.write("site.yml", "title: Tags\nbase_url: https://example.org/\nlist_page_size: 3\n")
        for number in 1...30 {
            try folder.write(
                "content/movies/r\(number).md",
                "---\ntitle: R\(number)\ndate: 2024-01-01\ntags: [t\(number)]\n---\nA.\n")
        }
        let builder = SiteBuilder(
            options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")))
        let site = try LiveSite.build(builder)
        #expect(site.files["tags/page/2/index.html"] == nil)

        try folder.write("content/movies/new.md", "---\ntitle: New\ndate: 2024-01-02\ntags: [zz]\n---\nA.\n")
        let added = try site.updating(["content/movies/new.md"])
        #expect(differences(added.files, try LiveSite.build(builder).files).isEmpty)
        #expect(String(decoding: added.files["tags/page/2/index.html"] ?? Data(), as: UTF8.self).contains(">zz</a>"))
        #expect(added.lastUpdate.kind != .full)

        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("content/movies/r1.md"))
        let removed = try added.updating(["content/movies/r1.md"])
        #expect(differences(removed.files, try LiveSite.build(builder).files).isEmpty)
        #expect(removed.files["tags/page/2/index.html"] == nil)
    }

    @Test("the 25th Han initial thins a list's jump links, and a rename or removal changes them, as in a full build")
    func hanJumpLinks() throws {
        let folder = try ScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        try folder.write("site.yml", "title: Han\nbase_url: https://example.org/\nlist_page_size: 4\n")
        let characters = (0..<27).map { String(Unicode.Scalar(0x4E00 + 11 * $0)!) }
        for number in 0..<24 {
            try folder.write(
                "content/movies/r\(number).md",
                "---\ntitle: \(characters[number])\ndate: 2024-01-01\ntags: [\(characters[number])]\n---\nA.\n")
        }
        let builder = SiteBuilder(
            options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")))
        let jumps = { (files: [String: Data]) in
            String(decoding: files["movies/by-title/index.html"] ?? Data(), as: UTF8.self)
                .components(separatedBy: "#initial-").count - 1
        }
        var site = try LiveSite.build(builder)
        #expect(jumps(site.files) == 24)
        for (step, edit) in [
            (24, "title: \(characters[24])"), (25, "title: \(characters[25])"), (3, "title: \(characters[26])"),
        ] {
            try folder.write(
                "content/movies/r\(step).md", "---\n\(edit)\ndate: 2024-01-02\ntags: [x\(step)]\n---\nA.\n")
            site = try site.updating(["content/movies/r\(step).md"])
            #expect(differences(site.files, try LiveSite.build(builder).files).isEmpty)
            #expect(site.lastUpdate.kind != .full)
        }
        #expect(jumps(site.files) == 13)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("content/movies/r0.md"))
        site = try site.updating(["content/movies/r0.md"])
        #expect(differences(site.files, try LiveSite.build(builder).files).isEmpty)
        #expect(jumps(site.files) == 13)
        for number in 1...2 {
            try FileManager.default.removeItem(at: folder.url.appendingPathComponent("content/movies/r\(number).md"))
            site = try site.updating(["content/movies/r\(number).md"])
            #expect(differences(site.files, try LiveSite.build(builder).files).isEmpty)
        }
        #expect(jumps(site.files) == 23)
    }

    /// Makes `steps` random edits of `state`'s site, comparing the served files with a full build
    /// after each; returns the kinds of edit made, how many were updated without a full build,
    /// and the last site's files.
    static func check(_ state: RandomSite, random: inout SplitMix, steps: Int) throws -> (
        kinds: [String: Int], incremental: Int, files: [String: Data]
    ) {
        var state = state
        let folder = try ScratchFolder()
        for (path, text) in state.files() {
            let url = folder.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try RandomSite.bytes(text).write(to: url)
        }
        let builder = SiteBuilder(
            options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")))
        var site = try LiveSite.build(builder)
        var kinds: [String: Int] = [:]
        var incremental = 0
        // The files of the last finished update, and whether the site is an unfinished one.
        var before = site.files
        var chained = false
        for step in 0..<steps {
            let edit = state.edit(&random)
            kinds[edit.kind, default: 0] += 1
            for (path, text) in edit.files {
                let url = folder.url.appendingPathComponent(path)
                if let text {
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try RandomSite.bytes(text).write(to: url)
                } else {
                    try FileManager.default.removeItem(at: url)
                }
            }
            // The update as the server makes it: the pages it touches left pending, each made
            // alone when asked for, then all at once. Every fourth update is left unfinished, as
            // when another change comes while its pages are made: the next goes on from it.
            let deferred = try site.deferredUpdate(Set(edit.files.keys))
            let completed = try deferred.completed()
            for path in deferred.pending.keys {
                #expect(try deferred.page(path) == completed.files[path], "step \(step), \(edit.kind): \(path)")
            }
            let made = deferred.files.filter { deferred.pending[$0.key] == nil }
            #expect(made == completed.files.filter { made[$0.key] != nil }, "step \(step), \(edit.kind)")
            #expect(Set(completed.files.keys) == Set(deferred.files.keys).union(deferred.pending.keys))
            #expect(Set(completed.lastUpdate.changedFiles).isSubset(of: deferred.lastUpdate.changedFiles))
            if completed.lastUpdate.kind != .full { incremental += 1 }
            let full = try LiveSite.build(builder)
            let wrong = differences(completed.files, full.files)
            #expect(wrong.isEmpty, "step \(step), \(edit.kind): \(wrong)")
            let changed = Set(before.keys).union(completed.files.keys).filter { before[$0] != completed.files[$0] }
            if chained {
                // A file the unfinished update changed and this one changed back counts as changed.
                #expect(Set(completed.lastUpdate.changedFiles).isSuperset(of: changed), "step \(step), \(edit.kind)")
            } else {
                #expect(completed.lastUpdate.changedFiles == changed.sorted(), "step \(step), \(edit.kind)")
            }
            if !wrong.isEmpty { break }
            chained = step % 4 == 3 && !deferred.pending.isEmpty
            site = chained ? deferred : completed
            if !chained { before = completed.files }
        }
        return (kinds, incremental, site.files)
    }
}

/// The paths whose bytes differ.
/// `files` under a `site.yml` in `folder`, the builder of that site and the site built for `serve`.
private func filmSite(in folder: borrowing ScratchFolder, _ files: [String: String]) throws -> (SiteBuilder, LiveSite) {
    try folder.write("site.yml", "title: Films\nbase_url: https://example.org/\n")
    for (path, text) in files { try folder.write(path, text) }
    let builder = SiteBuilder(options: .init(source: folder.url, output: folder.url.appendingPathComponent("public")))
    return (builder, try LiveSite.build(builder))
}

private func differences(_ one: [String: Data], _ two: [String: Data]) -> [String] {
    Set(one.keys).union(two.keys).filter { one[$0] != two[$0] }.sorted()
}

/// A small deterministic random number generator (SplitMix64), so a failing seed fails again.
struct SplitMix: RandomNumberGenerator {
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

/// A site of two sections with reviews whose fields edits change at random.
struct RandomSite {
    struct Entry {
        var section: String
        var file: String
        var title: String
        var date: String
        var rating: String?
        var tags: [String]
        var slug: String?
        var draft: Bool
        var tmdb: Int?
        var body: String
        /// The seed of the review's own image (`image` in its front matter), if any.
        var image: Int?
        /// Whether the review is a page bundle (`<file>/index.md`, its image `<file>/poster.png`).
        var bundle = false
        /// `updated` (always after `date`, which is before 2025): the sitemap dates the page by it.
        var updated: String? = nil
        /// The `file` of the review the body links to by its source path.
        var link: String?
    }

    var entries: [Entry] = []
    var counter = 0
    var pageSize = 2
    var siteTitle = "Random Reviews"
    var language = "en"
    var sectionTitle = "Films"
    var template = 0
    var overview = 0
    /// The `file` of the review the plain page links to by its source path.
    var aboutLink: String?
    /// Files of `static/`: some where fetched posters are published, which the posters win over.
    var statics: [String: String] = [:]

    static let editKinds = [
        "body", "rating", "title", "date", "tags", "slug", "draft", "new file", "deleted file", "renamed file",
        "_index.md", "template", "site.yml", "metadata entry", "image", "bundle", "link", "updated", "static file",
    ]
    static let tagPool = ["noir", "seoul", "rain", "family", "C", "C++", "Sci-Fi", "\u{FB01}nal", "final", "ＳＦ"]
    static let titles = ["Alien", "alien", "Brazil", "Zodiac", "기생충", "살인의 추억", "Part 2", "Part 10", "Élan", "Heat"]

    /// The tags reviews get, and the kinds of edit made.
    let tagPool: [String]
    let kinds: [String]
    /// The years reviews are dated in (before 2025, the year of `updated`).
    let years: ClosedRange<Int>

    init(
        random: inout SplitMix, reviews: Int = 24, tagPool: [String] = RandomSite.tagPool,
        kinds: [String] = RandomSite.editKinds, years: ClosedRange<Int> = 2024...2024
    ) {
        self.tagPool = tagPool
        self.kinds = kinds
        self.years = years
        for _ in 0..<reviews { entries.append(newEntry(&random)) }
        for index in [0, 5, 11] { entries[index].link = entries[index + 1].file }
        aboutLink = entries[2].file
    }

    mutating func newEntry(_ random: inout SplitMix) -> Entry {
        counter += 1
        return Entry(
            section: Bool.random(using: &random) ? "movies" : "books", file: "r\(counter)",
            title: Self.titles.randomElement(using: &random)! + " \(Int.random(in: 0..<4, using: &random))",
            date: date(&random), rating: Self.rating(&random),
            tags: Array(tagPool.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random))),
            slug: nil, draft: false, tmdb: Bool.random(using: &random) ? Int.random(in: 1...3, using: &random) : nil,
            body: "Words \(counter).", image: Int.random(in: 0..<3, using: &random) == 0 ? counter : nil)
    }

    func date(_ random: inout SplitMix) -> String {
        String(
            format: "%d-%02d-%02d", Int.random(in: years, using: &random), Int.random(in: 1...12, using: &random),
            Int.random(in: 1...28, using: &random))
    }

    static func rating(_ random: inout SplitMix) -> String? {
        Int.random(in: 0...10, using: &random) == 0 ? nil : String(Double(Int.random(in: 0...10, using: &random)) / 2)
    }

    func path(_ entry: Entry) -> String {
        entry.bundle ? "content/\(entry.section)/\(entry.file)/index.md" : "content/\(entry.section)/\(entry.file).md"
    }

    /// Where the entry's image is, as its front matter names it and as a path in the site.
    func imagePath(_ entry: Entry) -> (written: String, path: String) {
        entry.bundle
            ? ("poster.png", "content/\(entry.section)/\(entry.file)/poster.png")
            : ("\(entry.file).png", "content/\(entry.section)/\(entry.file).png")
    }

    /// The entry's files: the review, and its image (as a stand-in text, see ``bytes(_:)``).
    func files(of entry: Entry) -> [String: String] {
        var files = [path(entry): text(entry)]
        if let seed = entry.image { files[imagePath(entry).path] = "\u{1}png \(seed)" }
        return files
    }

    /// The bytes of a file's text: a PNG for the stand-in `"\u{1}png <seed>"`.
    static func bytes(_ text: String) -> Data {
        guard text.hasPrefix("\u{1}png "), let seed = Int(text.dropFirst(5)) else { return Data(text.utf8) }
        return TestImage.png(width: 260 + seed % 3 * 20, height: 390, seed: seed)
    }

    func text(_ entry: Entry) -> String {
        var lines = ["title: \"\(entry.title)\"", "date: \(entry.date)"]
        if let rating = entry.rating { lines.append("rating: \(rating)") }
        if !entry.tags.isEmpty { lines.append("tags: [\(entry.tags.map { "\"\($0)\"" }.joined(separator: ", "))]") }
        if let slug = entry.slug { lines.append("slug: \(slug)") }
        if entry.draft { lines.append("draft: true") }
        if let updated = entry.updated { lines.append("updated: \(updated)") }
        if let tmdb = entry.tmdb, entry.section == "movies" { lines.append("tmdb: \(tmdb)") }
        if entry.image != nil { lines.append("image: \(imagePath(entry).written)") }
        let link = linkText(from: entry.bundle ? "../../" : "../", to: entry.link)
        return "---\n\(lines.joined(separator: "\n"))\n---\n\(entry.body)\n\nMore of it\(link).\n"
    }

    /// A link to the review whose `file` is `link`, by its source path from `prefix` (the
    /// way from the linking file's folder up to `content/`).
    func linkText(from prefix: String, to link: String?) -> String {
        guard let target = entries.first(where: { $0.file == link }) else { return "" }
        let file = target.bundle ? "\(target.file)/index.md" : "\(target.file).md"
        return ", and [more](\(prefix)\(target.section)/\(file)#top)"
    }

    var about: String {
        "---\ntitle: About\n---\nHello\(linkText(from: "", to: aboutLink)).\n"
    }

    func files() -> [String: String] {
        var files = [
            "site.yml": siteYAML, "content/movies/_index.md": sectionIndex, "content/about.md": about,
            "static/robots.txt": "User-agent: *\n",
            // A section without reviews: its feed is dated by the rest of the site.
            "content/shows/_index.md": "---\ntitle: Shows\nkind: tv\n---\nNone yet.\n",
        ]
        files.merge(statics) { $1 }
        for entry in entries { files.merge(self.files(of: entry)) { $1 } }
        for id in 1...3 {
            files["metadata/movies/tmdb-\(id).json"] = metadata(id)
            files["metadata/images/tmdb-\(id)-w342.svg"] =
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><title>\(id)</title></svg>\n"
        }
        return files
    }

    var siteYAML: String {
        "title: \(siteTitle)\nbase_url: https://example.org/r/\nlanguage: \(language)\npage_size: \(pageSize)\nlist_page_size: 3\n"
    }

    var sectionIndex: String { "---\ntitle: \(sectionTitle)\nkind: movie\n---\nAll the films.\n" }

    func metadata(_ id: Int) -> String {
        """
        {"kind": "movie", "source": "tmdb", "id": "\(id)", "title": "Film \(id)", "overview": "Overview \(overview)",
         "year": \(2000 + id), "genres": ["Drama", "Genre \(id)"], "directors": ["Director \(id)"],
         "images": [{"file": "images/tmdb-\(id)-w342.svg", "width": 342, "height": 513, "size": "w342"}]}

        """
    }

    /// One random edit: its kind and the files it writes (nil removes one).
    mutating func edit(_ random: inout SplitMix) -> (kind: String, files: [String: String?]) {
        let kind = kinds.randomElement(using: &random)!
        guard !entries.isEmpty || kind == "new file" else { return edit(&random) }
        let index = Int.random(in: 0..<max(1, entries.count), using: &random)
        let before = allFiles()
        switch kind {
        case "body": entries[index].body = "Rewritten \(Int.random(in: 0...999, using: &random))."
        case "rating": entries[index].rating = Self.rating(&random)
        case "title": entries[index].title = Self.titles.randomElement(using: &random)! + " \(counter)"
        case "date": entries[index].date = date(&random)
        case "updated":
            entries[index].updated =
                Bool.random(using: &random)
                ? String(format: "2025-%02d-01", Int.random(in: 1...12, using: &random)) : nil
        case "tags":
            entries[index].tags = Array(
                tagPool.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)))
        case "slug":
            counter += 1
            entries[index].slug = entries[index].slug == nil ? "slug-\(counter)" : nil
        case "draft":
            entries[index].draft.toggle()
            // A link to a draft is an error: the links to it go.
            if entries[index].draft { unlink(entries[index].file) }
        case "link":
            let published = entries.filter { !$0.draft && $0.file != entries[index].file }
            entries[index].link = Bool.random(using: &random) ? published.randomElement(using: &random)?.file : nil
            if Int.random(in: 0..<4, using: &random) == 0 { aboutLink = published.randomElement(using: &random)?.file }
        case "new file":
            entries.append(newEntry(&random))
        case "deleted file":
            let entry = entries.remove(at: index)
            unlink(entry.file)
        case "renamed file":
            counter += 1
            let old = entries[index].file
            entries[index].file = "renamed\(counter)"
            for other in entries.indices where entries[other].link == old { entries[other].link = entries[index].file }
            if aboutLink == old { aboutLink = entries[index].file }
        case "image":
            // Add an image, replace its pixels (only the image file changes), or drop it (field and file).
            counter += 1
            let drop = entries[index].image != nil && Int.random(in: 0..<3, using: &random) == 0
            entries[index].image = drop ? nil : counter
        case "bundle": entries[index].bundle.toggle()
        case "_index.md":
            sectionTitle = sectionTitle == "Films" ? "Cinema" : "Films"
            return (kind, ["content/movies/_index.md": sectionIndex])
        case "template":
            template += 1
            return (
                kind,
                [
                    "Templates/card.mustache":
                        "<article class=\"card v\(template)\"><a href=\"{{url}}\">{{title}}</a> {{year}}</article>\n"
                ]
            )
        case "site.yml":
            switch Int.random(in: 0..<4, using: &random) {
            case 0, 1: siteTitle = "Reviews \(counter)"
            case 2: pageSize = pageSize == 2 ? 3 : 2
            default: language = language == "en" ? "ko" : "en"
            }
            return (kind, ["site.yml": siteYAML])
        case "static file":
            // Saved, changed or removed: a plain file, or one where a fetched poster is published.
            counter += 1
            let path = ["static/notes.txt", "static/images/tmdb-\(Int.random(in: 1...3, using: &random))-w342.svg"]
                .randomElement(using: &random)!
            statics[path] = statics[path] != nil && Bool.random(using: &random) ? nil : "static \(counter)\n"
            return (kind, [path: statics[path]])
        case "metadata entry":
            overview += 1
            let id = Int.random(in: 1...3, using: &random)
            return (kind, ["metadata/movies/tmdb-\(id).json": metadata(id)])
        default: break
        }
        // The files that changed, appeared or went away.
        let after = allFiles()
        var changes: [String: String?] = [:]
        for path in before.keys where after[path] == nil { changes.updateValue(nil, forKey: path) }
        for (path, text) in after where before[path] != text { changes[path] = text }
        if changes.isEmpty, entries.indices.contains(index) { changes[path(entries[index])] = text(entries[index]) }
        return (kind, changes)
    }

    /// The files of every review and of the plain page.
    func allFiles() -> [String: String] {
        var files = ["content/about.md": about]
        for entry in entries { files.merge(self.files(of: entry)) { $1 } }
        return files
    }

    /// Takes out every link to the review whose `file` is `file` (it went away or is a draft).
    mutating func unlink(_ file: String) {
        for index in entries.indices where entries[index].link == file { entries[index].link = nil }
        if aboutLink == file { aboutLink = nil }
    }
}
