import Foundation
import SiteGen

/// `sitegen theme eject`: the default theme copied into the site's `Templates/` for editing.
struct ThemeCommand: Command {
    static let name = "theme"
    static let summary = "Copy the built-in theme into Templates/ to edit it (theme eject)"
    static let help = """
        Usage: sitegen theme eject [--source DIR] [--force]

        Copies the default theme built into sitegen (its Mustache templates and
        assets/) into the site's Templates/ folder, where each file takes the place of
        the built-in one of the same name. Edit them there; delete one to go back to the
        built-in file. Files copied this way no longer follow sitegen's own theme when
        sitegen is updated.

        A file already in Templates/ is never replaced without --force: the command
        lists them and copies nothing.

        Options:
          --source DIR   The site folder (default: the current folder)
          --force        Replace files already in Templates/ with the default theme's
          -h, --help     Show this help

        """
    static let arguments = ArgumentSpec(flags: ["--force"], options: ["--source"], positional: 1...1)

    let source: String?
    let force: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positional[0] == "eject" else {
            throw UsageError("unknown theme action \"\(arguments.positional[0])\" (the one there is: eject)")
        }
        source = arguments.value("--source")
        force = arguments.has("--force")
    }

    func run(_ environment: CommandEnvironment) async throws -> Int32 {
        let here = URL(fileURLWithPath: environment.currentDirectory, isDirectory: true)
        let site = (source.map { URL(fileURLWithPath: $0, relativeTo: here) } ?? here).standardizedFileURL
        let written: [String]
        do {
            written = try ThemeEjector.eject(into: site, force: force)
        } catch {
            throw CommandError("sitegen theme eject: \(error)")
        }
        let shown = source.map { ($0 as NSString).appendingPathComponent(Theme.folderName) } ?? Theme.folderName
        environment.console.line(
            "Copied the default theme's \(written.count) files into \(shown)/: edit them there; "
                + "a file you delete falls back to the built-in one.")
        return ExitCode.success
    }
}
