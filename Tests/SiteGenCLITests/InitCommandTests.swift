import Foundation
import SiteGen
import Testing

@Suite("sitegen init and sitegen theme eject")
struct InitCommandTests {
    static let today = ["SITEGEN_TODAY": "2026-11-30"]
    static let written = [
        ".gitignore", "content/books/_index.md", "content/books/frankenstein.md", "content/movies/_index.md",
        "content/movies/metropolis.md", "site.yml",
    ]

    static let blankTitle = "--title cannot be empty, nor only spaces and control characters"

    @Test("a new site builds at once, without warnings, and says what to do next")
    func newSiteBuilds() async throws {
        let folder = try TemporaryFolder()
        let console = TestConsole()
        #expect(
            await console.run(
                ["init", "my site", "--title", "Kim's \"Reviews\""], in: folder.url, variables: Self.today) == 0)
        #expect(console.err == "")
        #expect(
            console.out == """
                Created a new site in my site/: site.yml, .gitignore, content/movies/_index.md, \
                content/movies/metropolis.md, content/books/_index.md, content/books/frankenstein.md.
                Next: cd 'my site', then sitegen serve to preview it at http://127.0.0.1:1313/, \
                sitegen new movie "Title" to start a review, sitegen build to make public/ for publishing.

                """)
        let site = folder.url.appendingPathComponent("my site")
        #expect(try files(in: site).keys.sorted() == Self.written)
        // A folder named like an option is written so that cd does not take it for one.
        let dashed = TestConsole()
        #expect(await dashed.run(["init", "--", "-x"], in: folder.url, variables: Self.today) == 0)
        #expect(dashed.out.contains("\nNext: cd ./-x, then sitegen serve"), "\(dashed.out)")
        let config = try String(contentsOf: site.appendingPathComponent("site.yml"), encoding: .utf8)
        #expect(config.contains("\ntitle: \"Kim's \\\"Reviews\\\"\"\n"))
        #expect(
            try String(contentsOf: site.appendingPathComponent(".gitignore"), encoding: .utf8).contains(
                "public/\n.sitegen/\n"))
        let sample = try String(
            contentsOf: site.appendingPathComponent("content/movies/metropolis.md"), encoding: .utf8)
        #expect(sample.contains("\ndate: 2026-11-30\n"))

        let build = TestConsole()
        #expect(await build.run(["build"], in: site) == 0)
        #expect(build.err == "")
        let output = try files(in: site.appendingPathComponent("public"))
        let film = String(decoding: try #require(output["movies/metropolis/index.html"]), as: UTF8.self)
        #expect(film.contains(#"<a href="/books/frankenstein/">the novel of the other section</a>"#))
        #expect(film.contains("<title>Metropolis"))
        let home = String(decoding: try #require(output["index.html"]), as: UTF8.self)
        #expect(home.contains("Kim&#39;s &quot;Reviews&quot;"))
    }

    @Test("a non-empty folder is refused; --force adds only the missing files and names the skipped ones")
    func nonEmptyFolder() async throws {
        let mine = "title: Mine\nbase_url: https://mine.example/\n"
        let folder = try TemporaryFolder(["site.yml": mine, "content/movies/metropolis.md": "my own words\n"])
        let refused = TestConsole()
        #expect(await refused.run(["init"], in: folder.url, variables: Self.today) == 1)
        #expect(refused.out == "")
        #expect(
            refused.err
                == "sitegen init: \(folder.url.standardizedFileURL.path) is not empty (content, site.yml): choose an "
                + "empty or new folder, or use --force to add the files it lacks (existing files are never changed)\n")
        #expect(try files(in: folder.url).keys.sorted() == ["content/movies/metropolis.md", "site.yml"])

        let forced = TestConsole()
        #expect(await forced.run(["init", "--force"], in: folder.url, variables: Self.today) == 0)
        #expect(
            forced.out.hasPrefix(
                """
                skipped site.yml: it is already there
                skipped content/movies/metropolis.md: it is already there
                Created a new site in this folder: .gitignore, content/movies/_index.md, content/books/_index.md, \
                content/books/frankenstein.md.
                Next: sitegen serve
                """))
        let after = try files(in: folder.url)
        #expect(after.keys.sorted() == Self.written)
        #expect(after["site.yml"] == Data(mine.utf8))
        #expect(after["content/movies/metropolis.md"] == Data("my own words\n".utf8))

        let again = TestConsole()
        #expect(await again.run(["init", "--force"], in: folder.url, variables: Self.today) == 0)
        #expect(again.out.hasSuffix("Nothing to add: this folder already has every file sitegen init writes.\n"))
        #expect(try files(in: folder.url) == after)
    }

    @Test("hidden files such as .git do not make a folder non-empty; a file in the way of a folder is an error")
    func hiddenAndBlocked() async throws {
        let folder = try TemporaryFolder([".git/HEAD": "ref: refs/heads/main\n"])
        #expect(await TestConsole().run(["init"], in: folder.url, variables: Self.today) == 0)
        #expect(try files(in: folder.url).keys.count == Self.written.count + 1)

        // A file where a folder goes, at the top or further down: refused before anything is written.
        for (file, first) in [("content", "content/movies/_index.md"), ("content/movies", "content/movies/_index.md")] {
            let blocked = try TemporaryFolder([file: "a file where a folder goes\n"])
            let console = TestConsole()
            #expect(await console.run(["init", "--force"], in: blocked.url, variables: Self.today) == 1)
            #expect(
                console.err
                    == "sitegen init: \(blocked.url.standardizedFileURL.path)/\(file): a file is where the folder for "
                    + "\(first) goes; move it away (nothing was written)\n")
            #expect(try files(in: blocked.url).keys.sorted() == [file])
        }
    }

    @Test("a system folder, or one inside its trees, is refused even with --force, as build refuses it")
    func systemFolders() async throws {
        // Only folders where nothing can be written anyway (/proc), so a regression writes nothing.
        let folder = try TemporaryFolder()
        let link = folder.url.appendingPathComponent("proc-link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/proc")
        for (target, reason) in [
            (link.path, "it is a system folder"), ("/proc/sitegen-site", "it is inside a system folder (/proc)"),
        ] {
            let console = TestConsole()
            #expect(await console.run(["init", target, "--force"], in: folder.url) == 1)
            #expect(
                console.err == "sitegen init: \(target): refused: \(reason); make the site in a folder of its own\n")
            #expect(console.out == "")
        }
    }

    @Test("bad options exit 64 with the usage; a bad SITEGEN_TODAY exits 1 naming it")
    func badOptions() async throws {
        let folder = try TemporaryFolder()
        for (arguments, message) in [
            (
                ["init", "--base-url", "example.org"],
                "--base-url must be an absolute http or https URL, not \"example.org\""
            ),
            (
                ["init", "--base-url", "https://example.org//"],
                "--base-url cannot have an empty, \".\" or \"..\" part in its path, as \"https://example.org//\" has: "
                    + "every link of the site starts with that path, and //assets/ would be another host's, /../ another folder"
            ),
            (
                ["init", "--language", "pt_BR"],
                "--language must be a language tag such as en, de, pt-BR or zh-Hant, not \"pt_BR\" (write pt-BR)"
            ),
            (["init", "a", "b"], "unexpected argument b"),
            // Titles the build would read as empty.
            (["init", ""], "the folder cannot be an empty name: leave it out to make the site in this folder"),
            (["init", "--title", " \u{3000} "], Self.blankTitle),
            (["init", "--title", "\u{1}\n\u{7F}"], Self.blankTitle),
            (["init", "--title", "\u{85}" + String(Unicode.Scalar(0xFDD0)!)], Self.blankTitle),
        ] {
            let console = TestConsole()
            #expect(await console.run(arguments, in: folder.url) == 64)
            #expect(console.err.hasPrefix("sitegen init: \(message)\nUsage: sitegen init [DIR]"))
        }
        let console = TestConsole()
        #expect(await console.run(["init"], in: folder.url, variables: ["SITEGEN_TODAY": "30/11/2026"]) == 1)
        #expect(console.err == "sitegen init: SITEGEN_TODAY must be a date written YYYY-MM-DD, not \"30/11/2026\"\n")
        #expect(try files(in: folder.url).isEmpty)
        let help = TestConsole()
        #expect(await help.run(["init", "--help"], in: folder.url) == 0)
        #expect(help.out.hasPrefix("Usage: sitegen init [DIR] [--title TITLE]"))
    }

    @Test(
        "theme eject copies the built-in theme, which then renders the same site; it never overwrites without --force")
    func themeEject() async throws {
        let folder = try TemporaryFolder()
        #expect(await TestConsole().run(["init"], in: folder.url, variables: Self.today) == 0)
        let builtIn = try TemporaryFolder()
        #expect(await TestConsole().run(["build", "--output", builtIn.url.path], in: folder.url) == 0)
        let eject = TestConsole()
        #expect(await eject.run(["theme", "eject"], in: folder.url) == 0)
        let theme = try files(in: folder.url.appendingPathComponent("Templates"))
        #expect(
            eject.out
                == "Copied the default theme's \(theme.count) files into Templates/: edit them there; "
                + "a file you delete falls back to the built-in one.\n")
        #expect(theme.keys.contains("layout.mustache") && theme.keys.contains("assets/site.css"))
        #expect(theme.keys.sorted() == ThemeEjector.files.map(\.path))
        let ejected = try TemporaryFolder()
        #expect(await TestConsole().run(["build", "--output", ejected.url.path], in: folder.url) == 0)
        let visible = { (files: [String: Data]) in files.filter { !$0.key.hasPrefix(".") } }
        #expect(try visible(files(in: ejected.url)) == visible(files(in: builtIn.url)))
        #expect(try files(in: ejected.url).keys.contains("movies/metropolis/index.html"))

        try Data("mine".utf8).write(to: folder.url.appendingPathComponent("Templates/review.mustache"))
        let refused = TestConsole()
        #expect(await refused.run(["theme", "eject"], in: folder.url) == 1)
        #expect(refused.err.hasPrefix("sitegen theme eject: already there: Templates/404.mustache, "))
        #expect(refused.err.hasSuffix("nothing was copied (use --force to replace them with the default theme's)\n"))
        #expect(
            try String(contentsOf: folder.url.appendingPathComponent("Templates/review.mustache"), encoding: .utf8)
                == "mine")
        #expect(await TestConsole().run(["theme", "eject", "--force"], in: folder.url) == 0)
        #expect(try files(in: folder.url.appendingPathComponent("Templates")) == theme)
    }

    @Test(
        "theme eject never writes through a link out of the site (Templates/ or a folder in it); one inside is followed",
        arguments: [[], ["--force"]])
    func themeEjectLinks(options: [String]) async throws {
        let scratch = try TemporaryFolder(["outside/keep.txt": "mine"])
        let site = scratch.url.appendingPathComponent("site")
        #expect(await TestConsole().run(["init", "site"], in: scratch.url, variables: Self.today) == 0)
        try FileManager.default.createDirectory(
            at: site.appendingPathComponent("inner"), withIntermediateDirectories: true)
        let templates = site.appendingPathComponent("Templates")
        let outside = scratch.url.appendingPathComponent("outside")
        for (link, shown) in [("Templates", "Templates"), ("Templates/assets", "Templates/assets/favicon.svg")] {
            if link != "Templates" {
                try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
            }
            try FileManager.default.createSymbolicLink(
                at: site.appendingPathComponent(link), withDestinationURL: outside)
            let console = TestConsole()
            #expect(await console.run(["theme", "eject"] + options, in: site) == 1)
            #expect(
                console.err
                    == "sitegen theme eject: \(shown): refused: it leads out of the site folder (or nowhere) "
                    + "through a link; nothing was copied\n")
            #expect(try files(in: outside) == ["keep.txt": Data("mine".utf8)])
            try FileManager.default.removeItem(at: templates)
        }
        try FileManager.default.createSymbolicLink(
            at: templates, withDestinationURL: site.appendingPathComponent("inner"))
        #expect(await TestConsole().run(["theme", "eject"] + options, in: site) == 0)
        #expect(try files(in: site.appendingPathComponent("inner")).keys.contains("layout.mustache"))
    }

    @Test(
        "theme eject refuses a link into the output, a hidden folder or the site's own files, as a build would",
        arguments: [[], ["--force"]])
    func themeEjectLinksInside(options: [String]) async throws {
        let scratch = try TemporaryFolder()
        let site = scratch.url.appendingPathComponent("site")
        #expect(await TestConsole().run(["init", "site"], in: scratch.url, variables: Self.today) == 0)
        #expect(await TestConsole().run(["build"], in: site, variables: Self.today) == 0)
        for folder in [".git", "static/assets"] {
            try FileManager.default.createDirectory(
                at: site.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Data("my own".utf8).write(to: site.appendingPathComponent("static/assets/site.css"))
        let templates = site.appendingPathComponent("Templates")
        let cases: [(link: String, target: String, message: String)] = [
            (
                "Templates", "public",
                "Templates: refused: it is a link into public, a folder sitegen wrote a site into: "
                    + "its files would be published again inside themselves"
            ),
            (
                "Templates/assets", ".git",
                "Templates/assets: refused: it is a link into .git, which is hidden: "
                    + "sitegen never reads hidden files and folders"
            ),
            (
                "Templates/assets", "static/assets",
                "Templates/assets: refused: it is a link into static, which holds the site's own files: "
                    + "the theme's files would join or replace them"
            ),
            (
                "Templates", "content",
                "Templates: refused: it is a link into content, which holds the site's own files: "
                    + "the theme's files would join or replace them"
            ),
        ]
        for (link, target, message) in cases {
            if link != "Templates" {
                try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
            }
            try FileManager.default.createSymbolicLink(
                at: site.appendingPathComponent(link), withDestinationURL: site.appendingPathComponent(target))
            let before = try files(in: site.appendingPathComponent(target))
            let console = TestConsole()
            #expect(await console.run(["theme", "eject"] + options, in: site) == 1, "\(link) -> \(target)")
            #expect(console.err == "sitegen theme eject: \(message); nothing was copied\n")
            #expect(try files(in: site.appendingPathComponent(target)) == before, "\(link) -> \(target)")
            try FileManager.default.removeItem(at: templates)
        }
        // The site folder itself, and public/ before any build wrote it.
        try FileManager.default.removeItem(at: site.appendingPathComponent("public"))
        try FileManager.default.createDirectory(
            at: site.appendingPathComponent("public"), withIntermediateDirectories: true)
        for (target, message) in [
            (
                ".",
                "Templates: refused: it is a link to the site folder itself, which a build would not read a theme from"
            ),
            (
                "public",
                "Templates: refused: it is a link into public, the folder a build writes the site into (and removes files from)"
            ),
        ] {
            try FileManager.default.createSymbolicLink(
                at: templates, withDestinationURL: site.appendingPathComponent(target))
            let console = TestConsole()
            #expect(await console.run(["theme", "eject"] + options, in: site) == 1, "\(target)")
            #expect(console.err == "sitegen theme eject: \(message); nothing was copied\n")
            try FileManager.default.removeItem(at: templates)
        }
        #expect(try files(in: site.appendingPathComponent("public")).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("layout.mustache").path))
    }

    @Test("init --force never writes through a link out of the folder, nor stops halfway at a broken one")
    func initForceLinks() async throws {
        let scratch = try TemporaryFolder(["outside/keep.txt": "mine", "site/notes.txt": "mine"])
        let site = scratch.url.appendingPathComponent("site")
        let content = site.appendingPathComponent("content")
        for target in [scratch.url.appendingPathComponent("outside").path, "nowhere"] {
            try FileManager.default.createSymbolicLink(atPath: content.path, withDestinationPath: target)
            let console = TestConsole()
            #expect(await console.run(["init", "--force"], in: site, variables: Self.today) == 1)
            #expect(
                console.err
                    == "sitegen init: content/movies/_index.md: refused: it leads out of \(site.path) (or nowhere) "
                    + "through a link; nothing was written\n")
            #expect(try files(in: site).keys.sorted() == ["notes.txt"])
            #expect(try files(in: scratch.url.appendingPathComponent("outside")) == ["keep.txt": Data("mine".utf8)])
            try FileManager.default.removeItem(at: content)
        }
    }

    @Test(
        "theme eject refuses a file where a folder goes, or a folder where a file goes, before copying; a failure midway removes what it copied"
    )
    func ejectBlocked() async throws {
        let folder = try TemporaryFolder([
            "site.yml": "title: T\nbase_url: https://example.org/\n", "Templates/assets": "mine",
        ])
        let templates = folder.url.appendingPathComponent("Templates")
        let file = TestConsole()
        #expect(await file.run(["theme", "eject"], in: folder.url) == 1)
        #expect(
            file.err
                == "sitegen theme eject: Templates/assets is a file where the theme needs a folder: nothing was copied "
                + "(move it out of the way)\n")
        #expect(try files(in: templates) == ["assets": Data("mine".utf8)])

        try FileManager.default.removeItem(at: templates.appendingPathComponent("assets"))
        try folder.write("Templates/assets/site.css/notes.txt", "mine")
        let folderInTheWay = TestConsole()
        #expect(await folderInTheWay.run(["theme", "eject", "--force"], in: folder.url) == 1)
        #expect(
            folderInTheWay.err
                == "sitegen theme eject: Templates/assets/site.css is a folder where the theme has a file: nothing was "
                + "copied (move it out of the way)\n")
        #expect(try files(in: templates) == ["assets/site.css/notes.txt": Data("mine".utf8)])

        // A folder it cannot write to: the files copied before are removed again.
        try FileManager.default.removeItem(at: templates.appendingPathComponent("assets"))
        try FileManager.default.createDirectory(
            at: templates.appendingPathComponent("assets"), withIntermediateDirectories: true)
        let runner = try Unprivileged(folder.url)
        #expect(chmod(templates.appendingPathComponent("assets").path, 0o555) == 0)
        let denied = try runner.run(["theme", "eject"])
        #expect(denied.status == 1)
        #expect(
            denied.err.hasSuffix(
                "/Templates/assets/favicon.svg: cannot create: Permission denied (the file copied before it was removed)\n"
            ),
            "\(denied.err)")
        #expect(try files(in: templates).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: templates.path) == ["assets"])

        // With --force: a file it replaced before the failure is put back as it was.
        try folder.write("Templates/404.mustache", "my 404")
        chmod(templates.appendingPathComponent("404.mustache").path, 0o666)
        let forced = try runner.run(["theme", "eject", "--force"])
        #expect(forced.status == 1)
        #expect(
            forced.err.hasSuffix(
                "/Templates/assets/favicon.svg: cannot write: Permission denied (the file it replaced was put back)\n"),
            "\(forced.err)")
        #expect(try files(in: templates) == ["404.mustache": Data("my 404".utf8)])
    }

    @Test("theme needs the eject action and a site folder")
    func themeErrors() async throws {
        let folder = try TemporaryFolder()
        let unknown = TestConsole()
        #expect(await unknown.run(["theme", "pack"], in: folder.url) == 64)
        #expect(unknown.err.hasPrefix("sitegen theme: unknown theme action \"pack\" (the one there is: eject)\nUsage:"))
        let noSite = TestConsole()
        #expect(await noSite.run(["theme", "eject"], in: folder.url) == 1)
        #expect(
            noSite.err
                == "sitegen theme eject: no site.yml in \(folder.url.standardizedFileURL.path): run this in a site "
                + "folder, or name one with --source\n")
    }
}

/// Every regular file below `folder`, by relative path.
func files(in folder: URL) throws -> [String: Data] {
    var found: [String: Data] = [:]
    for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
        let url = folder.appendingPathComponent(path)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
            found[path] = try Data(contentsOf: url)
        }
    }
    return found
}
