import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The build manifest (`.sitegen/`) lets a build with nothing changed stop early. It must
/// never be trusted into wrong output: after any single edit, a build that had the manifest
/// gives exactly the files of a clean build.
@Suite("Build manifest")
struct BuildManifestTests {
    /// One edit to the site folder.
    struct Edit: Sendable, CustomStringConvertible {
        let description: String
        let apply: @Sendable (URL) throws -> Void
    }

    static let edits: [Edit] = [
        Edit(description: "a review's body") {
            try write($0, "content/movies/heat.md", review("title: Heat\ndate: 2024-02-01", body: "Changed."))
        },
        Edit(description: "a review's rating, same size") {
            try write($0, "content/movies/heat.md", review("title: Heat\ndate: 2024-02-01\nrating: 4", body: "Words."))
        },
        Edit(description: "a new review") {
            try write($0, "content/movies/new.md", review("title: New\ndate: 2024-03-01"))
        },
        Edit(description: "a deleted review") {
            try FileManager.default.removeItem(at: $0.appendingPathComponent("content/movies/heat.md"))
        },
        Edit(description: "a new empty section folder") {
            try FileManager.default.createDirectory(
                at: $0.appendingPathComponent("content/books"), withIntermediateDirectories: true)
        },
        Edit(description: "a template") {
            try write(
                $0, "Templates/review.mustache",
                "{{<layout}}{{$content}}<p>{{review.title}}</p>{{/content}}{{/layout}}\n")
        },
        Edit(description: "site.yml") { try write($0, "site.yml", "title: Renamed\nbase_url: https://example.org/\n") },
        Edit(description: "a static file") { try write($0, "static/robots.txt", "User-agent: nobody\n") },
        Edit(description: "a metadata entry") {
            try write($0, "metadata/movies/tmdb-7.json", entry(overview: "Another overview."))
        },
        Edit(description: "a cached image") {
            try write(
                $0, "metadata/images/tmdb-7-w342.svg",
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><title>B</title></svg>\n")
        },
        Edit(description: "a file of the output edited by hand") {
            try write($0, "public/movies/heat/index.html", "defaced")
        },
        Edit(description: "a file of the output deleted by hand") {
            try FileManager.default.removeItem(at: $0.appendingPathComponent("public/index.html"))
        },
        Edit(description: "a damaged manifest") { folder in
            let manifests = folder.appendingPathComponent(".sitegen")
            for name in try FileManager.default.contentsOfDirectory(atPath: manifests.path) {
                try Data("sitegen-build-manifest 1\nnonsense\n".utf8).write(to: manifests.appendingPathComponent(name))
            }
        },
        Edit(description: "a manifest grown past any real one (4 GiB, sparse)") { folder in
            let manifests = folder.appendingPathComponent(".sitegen")
            for name in try FileManager.default.contentsOfDirectory(atPath: manifests.path) {
                #expect(truncate(manifests.appendingPathComponent(name).path, 4 << 30) == 0)
            }
        },
        Edit(description: "a killed build's staged pages left in the output") { folder in
            try write(folder, "public/.sitegen-staging/0", "<p>A draft's text</p>")
        },
        Edit(description: "a review edited with its old size and modification time put back") { folder in
            let url = folder.appendingPathComponent("content/movies/heat.md")
            var info = stat()
            stat(url.path, &info)
            try write(folder, "content/movies/heat.md", review("title: Heat\ndate: 2024-02-01", body: "Sword."))
            var times = [info.st_atim, info.st_mtim]
            utimensat(AT_FDCWD, url.path, &times, 0)
        },
    ]

    @Test("after any single edit, a build with the manifest gives exactly a clean build's files", arguments: edits)
    func editThenBuild(_ edit: Edit) async throws {
        let site = try TemporaryFolder(manifestSite)
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let again = TestConsole()
        #expect(await again.run(["build"], in: site.url) == 0)
        #expect(again.out.hasSuffix(" (nothing changed since the last build)\n"), "\(again.out)")

        try edit.apply(site.url)
        let cached = TestConsole()
        #expect(await cached.run(["build"], in: site.url) == 0, "\(cached.err)")
        #expect(!cached.out.contains("nothing changed"), "\(edit): \(cached.out)")
        #expect(
            !FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public/.sitegen-staging").path))
        #expect(await TestConsole().run(["build", "--output", "clean"], in: site.url) == 0)
        let built = try visible(site.url.appendingPathComponent("public"))
        let clean = try visible(site.url.appendingPathComponent("clean"))
        #expect(built.keys.sorted() == clean.keys.sorted(), "\(edit)")
        for (path, data) in clean where built[path] != data {
            Issue.record("\(edit): \(path) differs from a clean build")
        }
        // And the next build, with nothing changed again, stops early.
        let last = TestConsole()
        #expect(await last.run(["build"], in: site.url) == 0)
        #expect(last.out.hasSuffix(" (nothing changed since the last build)\n"), "\(edit): \(last.out)")
    }

    @Test("the day of the build moving past a review left out, or back before one published, builds again")
    func dayMoves() async throws {
        let site = try TemporaryFolder(
            manifestSite.merging(["content/movies/soon.md": review("title: Soon\ndate: 2024-06-01")]) { $1 })
        // (day, built again?, soon published?)
        let steps: [(String, Bool, Bool)] = [
            ("2024-07-01", true, true), ("2024-07-02", false, true),
            // Back before Soon's date: a cached build kept it published.
            ("2024-05-01", true, false), ("2024-05-02", false, false), ("2024-02-01", false, false),
            ("2024-06-01", true, true), ("2024-01-31", true, false),
        ]
        for (day, builds, published) in steps {
            let console = TestConsole()
            #expect(await console.run(["build"], in: site.url, variables: ["SITEGEN_TODAY": day]) == 0)
            #expect(console.out.hasSuffix(" (nothing changed since the last build)\n") == !builds, "\(day)")
            let clean = "clean-\(day)"
            #expect(
                await TestConsole().run(["build", "--output", clean], in: site.url, variables: ["SITEGEN_TODAY": day])
                    == 0)
            let built = try visible(site.url.appendingPathComponent("public"))
            #expect(built == (try visible(site.url.appendingPathComponent(clean))), "\(day)")
            #expect((built["movies/soon/index.html"] != nil) == published, "\(day)")
        }
    }

    @Test("a .sitegen that is a file: the build is made, and a warning says why nothing is kept")
    func stateFolderIsAFile() async throws {
        let site = try TemporaryFolder(manifestSite.merging([".sitegen": "notes\n"]) { $1 })
        for _ in 0..<2 {
            let console = TestConsole()
            #expect(await console.run(["build"], in: site.url) == 0)
            #expect(!console.out.contains("nothing changed"), "\(console.out)")
            let lines = console.err.split(separator: "\n").filter { $0.contains("manifest") }
            #expect(lines.count == 1, "\(console.err)")
            let line = String(lines.first ?? "")
            #expect(line.hasPrefix(".sitegen/build-"), "\(line)")
            #expect(
                line.hasSuffix(
                    ".manifest: warning: the build manifest cannot be kept (a file is where a folder is needed), "
                        + "so no build can tell that nothing changed, and each one does all its work again: make "
                        + ".sitegen a folder sitegen can write to"), "\(line)")
        }
        #expect(try String(contentsOf: site.url.appendingPathComponent(".sitegen"), encoding: .utf8) == "notes\n")
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public/index.html").path))
    }

    @Test(
        "two builds at once (the built binary): both succeed, one after the other, and the output is a clean build's")
    func buildsAtOnce() async throws {
        var files = manifestSite
        for number in 0..<150 {
            files["content/movies/film-\(number).md"] = review(
                "title: Film \(number)\ndate: 2023-01-\(10 + number % 19)\ntags: [t\(number % 7)]",
                body: String(repeating: "Words, and more words. ", count: 40))
        }
        let site = try TemporaryFolder(files)
        let binary = try BuiltBinary("sitegen")
        #expect(try binary.run(["build"], in: site.url).status == 0)
        for round in 0..<4 {
            try write(
                site.url, "content/movies/heat.md", review("title: Heat\ndate: 2024-02-01", body: "Round \(round)."))
            // Each on a thread of its own: a test must not hold the shared pool's threads while it waits.
            let (url, environment) = (site.url, ProcessInfo.processInfo.environment)
            async let one = binary.runDetached(["build"], in: url, environment: environment)
            async let two = binary.runDetached(["build"], in: url, environment: environment)
            let results = try await [one, two]
            for result in results { #expect(result.status == 0, "round \(round): \(result.err)") }
            // The second to start found the first one's output and manifest.
            #expect(results.filter { $0.outText.contains("(nothing changed since the last build)") }.count == 1)
            #expect(
                !FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public/.sitegen-staging").path)
            )
            #expect(try binary.run(["build", "--output", "clean-\(round)"], in: site.url).status == 0)
            let built = try visible(site.url.appendingPathComponent("public"))
            let clean = try visible(site.url.appendingPathComponent("clean-\(round)"))
            #expect(built == clean, "round \(round)")
        }
    }

    @Test("the manifest is kept out of the output, in .sitegen/, one per output folder with its lock")
    func location() async throws {
        let site = try TemporaryFolder(manifestSite)
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        #expect(await TestConsole().run(["build", "--output", "other"], in: site.url) == 0)
        let names = try FileManager.default.contentsOfDirectory(
            atPath: site.url.appendingPathComponent(".sitegen").path)
        let manifests = names.filter { $0.hasPrefix("build-") && $0.hasSuffix(".manifest") }
        #expect(manifests.count == 2)
        // Beside each, the lock that keeps two builds into its output folder apart; nothing else.
        let locks = manifests.map { String($0.dropLast(".manifest".count)) + ".lock" }
        #expect(Set(names) == Set(manifests + locks))
        #expect(try visible(site.url.appendingPathComponent("public")).keys.allSatisfy { !$0.contains("manifest") })
    }

    @Test("builds into many output folders keep the manifests of the eight written last; locks and other files stay")
    func manifestsPruned() async throws {
        let site = try TemporaryFolder(manifestSite)
        let state = site.url.appendingPathComponent(".sitegen")
        #expect(await TestConsole().run(["build"], in: site.url) == 0)
        let own = try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasSuffix(".manifest") }
        #expect(own.count == 1)
        // Ten manifests of other output folders, older by the minute, each with its lock; a link
        // and a folder named like manifests, and a file of another kind.
        for number in 0..<10 {
            let url = state.appendingPathComponent("build-old\(number).manifest")
            try Data("sitegen-build-manifest 2\n".utf8).write(to: url)
            try Data().write(to: state.appendingPathComponent("build-old\(number).lock"))
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -60 * Double(number + 1))], ofItemAtPath: url.path)
        }
        #expect(symlink("build-old9.manifest", state.appendingPathComponent("build-link.manifest").path) == 0)
        try FileManager.default.createDirectory(
            at: state.appendingPathComponent("build-folder.manifest"), withIntermediateDirectories: false)
        try Data("x".utf8).write(to: state.appendingPathComponent("notes.manifest"))
        #expect(await TestConsole().run(["build", "--output", "other"], in: site.url) == 0)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: state.path))
        let made = ["build-link.manifest", "build-folder.manifest", "notes.manifest"] + own
        let newest = names.filter { $0.hasSuffix(".manifest") && !$0.hasPrefix("build-old") && !made.contains($0) }
        #expect(newest.count == 1)
        // Kept: the two builds' own, the six other manifests written last; the oldest four went.
        #expect(names.contains(own[0]))
        for number in 0..<10 {
            #expect(names.contains("build-old\(number).manifest") == (number < 6), "\(number)")
            #expect(names.contains("build-old\(number).lock"), "\(number)")
        }
        #expect(names.isSuperset(of: ["build-link.manifest", "build-folder.manifest", "notes.manifest"]))
        // The first output folder's manifest still ends its next build early.
        let console = TestConsole()
        #expect(await console.run(["build"], in: site.url) == 0)
        #expect(console.out.hasSuffix(" (nothing changed since the last build)\n"), "\(console.out)")
    }
}

private func write(_ folder: URL, _ path: String, _ text: String) throws {
    let url = folder.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
}

/// The visible files below `folder`.
private func visible(_ folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path)
    where !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
        let url = folder.appendingPathComponent(path)
        if (try FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType) == .typeRegular {
            files[path] = try Data(contentsOf: url)
        }
    }
    return files
}

private func review(_ frontMatter: String, body: String = "A review.") -> String {
    "---\n\(frontMatter)\n---\n\(body)\n"
}

private func entry(overview: String) -> String {
    """
    {"kind": "movie", "source": "tmdb", "id": "7", "title": "Se7en", "overview": "\(overview)", "year": 1995,
     "genres": ["Crime"], "directors": ["David Fincher"],
     "images": [{"file": "images/tmdb-7-w342.svg", "width": 342, "height": 513, "size": "w342"}]}

    """
}

private let manifestSite: [String: String] = [
    "site.yml": "title: Manifest Reviews\nbase_url: https://example.org/\n",
    "content/movies/heat.md": review("title: Heat\ndate: 2024-02-01", body: "Words."),
    "content/movies/seven.md": review("title: Se7en\ndate: 2024-01-01\ntmdb: 7\ntags: [crime]"),
    "metadata/movies/tmdb-7.json": entry(overview: "Two detectives."),
    "metadata/images/tmdb-7-w342.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"><title>A</title></svg>\n",
    "static/robots.txt": "User-agent: *\n",
]
