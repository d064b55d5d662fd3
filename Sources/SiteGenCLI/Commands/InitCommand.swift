import Foundation
import SiteGen

/// `sitegen init [DIR]`: a new site that builds at once.
struct InitCommand: Command {
    static let name = "init"
    static let summary = "Start a new site: settings, two sections, sample reviews"
    static let help = """
        Usage: sitegen init [DIR] [--title TITLE] [--base-url URL] [--language TAG] [--force]

        Creates a site in DIR (default: the current folder; made if missing) that builds
        at once: a commented site.yml, content/movies/ and content/books/ each with an
        _index.md and a sample review, and a .gitignore for public/ and .sitegen/.

        A folder that holds anything but hidden files (a .git folder is fine) is refused
        unless --force, and even then no existing file is changed: only the missing ones
        are added, and the others are listed as skipped.

        Options:
          --title TITLE      The site's name (default: My Reviews)
          --base-url URL     The address it will be published at (default: https://example.org/)
          --language TAG     A BCP 47 tag (en, ko, de, pt-BR…): dates, numbers, the theme's
                             words and title order (default: en)
          --force            Add the missing files to a folder that is not empty
          -h, --help         Show this help

        Environment: SITEGEN_TODAY=YYYY-MM-DD dates the sample reviews (default: today).

        """
    static let arguments = ArgumentSpec(
        flags: ["--force"], options: ["--title", "--base-url", "--language"], positional: 0...1)

    let folder: String?
    let title: String
    let baseURL: BaseURL
    let language: SiteLanguage
    let force: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        folder = arguments.positional.first
        // An empty name (an unset shell variable, say) would be this folder, said as "/".
        if folder?.isEmpty == true {
            throw UsageError("the folder cannot be an empty name: leave it out to make the site in this folder")
        }
        title = arguments.value("--title") ?? "My Reviews"
        // Something a page can show: spaces, line breaks and control characters alone would make
        // a site.yml whose title the build reads as empty.
        guard title.unicodeScalars.contains(where: Self.isShown) else {
            throw UsageError("--title cannot be empty, nor only spaces and control characters")
        }
        let url = arguments.value("--base-url") ?? "https://example.org/"
        guard let baseURL = BaseURL(url) else {
            throw UsageError("--base-url \(BaseURL.refusal(of: url, example: false))")
        }
        self.baseURL = baseURL
        let code = arguments.value("--language") ?? "en"
        guard let language = SiteLanguage(code) else {
            throw UsageError("--language must be \(SiteLanguage.problem(with: code) ?? "a language tag")")
        }
        self.language = language
        force = arguments.has("--force")
    }

    /// Whether a title's character shows on a page: not white space, a control or format
    /// character, nor a noncharacter (which the build drops or replaces).
    static func isShown(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.properties.isWhitespace && !CharacterSet.whitespaces.contains(scalar)
            && !CharacterSet.controlCharacters.contains(scalar) && !scalar.properties.isNoncharacterCodePoint
    }

    func run(_ environment: CommandEnvironment) async throws -> Int32 {
        let here = URL(fileURLWithPath: environment.currentDirectory, isDirectory: true)
        let target = (folder.map { URL(fileURLWithPath: $0, relativeTo: here) } ?? here).standardizedFileURL
        let site = NewSite(
            title: title, baseURL: baseURL, language: language,
            today: try Self.today(environment))
        let report: NewSite.Report
        do {
            report = try site.create(in: target, force: force)
        } catch {
            throw CommandError("sitegen init: \(error)")
        }
        let console = environment.console
        let shown = folder.map { "\($0)/" } ?? "this folder"
        for path in report.skipped { console.line("skipped \(path): it is already there") }
        guard !report.created.isEmpty else {
            console.line("Nothing to add: \(shown) already has every file sitegen init writes.")
            return ExitCode.success
        }
        console.line("Created a new site in \(shown): \(report.created.joined(separator: ", ")).")
        // A folder whose name starts with "-" is written ./-x, or cd would read it as an option.
        let enter = folder.map { "cd \(Self.shellQuoted($0.hasPrefix("-") ? "./" + $0 : $0)), then " } ?? ""
        console.line(
            "Next: \(enter)sitegen serve to preview it at http://127.0.0.1:1313/, "
                + "sitegen new movie \"Title\" to start a review, sitegen build to make public/ for publishing.")
        return ExitCode.success
    }

    /// `text` as one word for a POSIX shell.
    static func shellQuoted(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./".contains($0)) }
        return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

extension Command {
    /// Today's date (`SITEGEN_TODAY`, else the local date); an error names a bad variable.
    static func today(_ environment: CommandEnvironment) throws(CommandError) -> Day {
        do {
            return try Today.date(environment: environment.variables)
        } catch {
            throw CommandError("sitegen \(name): \(error.message)")
        }
    }
}
