import Foundation
import Mustache
import SiteGen

/// `sitegen template FILE --data DATA.json [--partials DIR]`: renders one template for theme authors.
struct TemplateCommand: Command {
    static let name = "template"
    static let summary = "Render one template with JSON data (for theme authors)"
    static let help = """
        Usage: sitegen template FILE --data DATA.json [--partials DIR]

        Renders the Mustache template FILE with the JSON in DATA.json (any JSON value)
        and writes exactly the result to standard output, adding nothing.

        Options:
          --data DATA.json   The data to render with (required)
          --partials DIR     Where partials and parents named x are read from, as
                             DIR/x.mustache (default: FILE's folder)
          -h, --help         Show this help

        A missing partial, bad JSON or a template error prints a message naming the
        file, line and column on standard error and exits with status 1.

        """
    static let arguments = ArgumentSpec(options: ["--data", "--partials"], positional: 1...1)

    let file: String
    let data: String
    let partials: String?

    init(_ arguments: Arguments) throws(UsageError) {
        guard let data = arguments.value("--data") else { throw UsageError("--data DATA.json is required") }
        self.file = arguments.positional[0]
        self.data = data
        self.partials = arguments.value("--partials")
    }

    func run(_ environment: CommandEnvironment) async throws -> Int32 {
        let base = URL(fileURLWithPath: environment.currentDirectory, isDirectory: true)
        let fileURL = URL(fileURLWithPath: file, relativeTo: base)
        let value = try JSONValue.read(data, relativeTo: base)
        let bytes: Data
        do {
            bytes = try FileSystem.disk.read(fileURL.path, FileSystem.textSizeLimit, nil)
        } catch {
            throw CommandError("\(file): cannot read template: \(error.reason)")
        }
        let folderPath = partials ?? file.parentPath
        let folderURL = URL(fileURLWithPath: folderPath.isEmpty ? "." : folderPath, relativeTo: base)
        if let partials {
            // Said at once, rather than as a partial it does not find there.
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folderURL.path, isDirectory: &isFolder) else {
                throw CommandError("\(partials): no such folder for --partials")
            }
            guard isFolder.boolValue else { throw CommandError("\(partials): --partials names a file, not a folder") }
        }
        let folder = TemplateFolder(displayPath: folderPath, url: folderURL)
        let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let template = try Template(utf8: Array(bytes), name: name, path: file)
        let library = TemplateLibrary(missingPartials: .fail, loader: folder.loader)
        environment.console.out(try template.render(value, partials: library))
        return ExitCode.success
    }
}
