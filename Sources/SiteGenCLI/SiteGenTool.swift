import Foundation
import SiteGen

/// The `sitegen` command line: picks the subcommand, runs it, and turns errors into
/// messages and exit codes.
public enum SiteGenTool {
    public static let version = SiteGenVersion.current

    static let commands: [any Command.Type] = [
        InitCommand.self, NewCommand.self, BuildCommand.self, ServeCommand.self, FetchCommand.self,
        ImportCommand.self, CheckCommand.self, ThemeCommand.self, TemplateCommand.self,
    ]

    /// Runs `sitegen` with `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String], environment: CommandEnvironment) async -> Int32 {
        let console = environment.console
        guard let first = arguments.first else {
            console.err(usage)
            return ExitCode.usage
        }
        switch first {
        case "--help", "-h", "help":
            guard arguments.count > 1 else {
                console.out(usage)
                return ExitCode.success
            }
            guard let command = command(named: arguments[1]) else {
                console.error("sitegen: unknown command \"\(arguments[1])\"")
                console.err(usage)
                return ExitCode.usage
            }
            console.out(command.help)
            return ExitCode.success
        case "--version":
            console.line("sitegen \(version)")
            return ExitCode.success
        default:
            break
        }
        guard let type = command(named: first) else {
            console.error("sitegen: unknown command \"\(first)\"")
            console.err(usage)
            return ExitCode.usage
        }
        return await run(type, Array(arguments.dropFirst()), environment: environment)
    }

    /// Runs the real process: its arguments, environment, folder and standard streams.
    public static func main() async -> Int32 {
        let environment = CommandEnvironment(
            console: .standard, variables: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath)
        return await run(Array(CommandLine.arguments.dropFirst()), environment: environment)
    }

    static var usage: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let list = commands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
        return """
            sitegen \(version): a static site generator for book and film reviews

            Usage: sitegen <command> [options]

            Commands:
            \(list.joined(separator: "\n"))

            Options:
              -h, --help     Show help (also: sitegen help <command>)
              --version      Show the version

            """
    }
}

private extension SiteGenTool {
    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    static func run(_ type: any Command.Type, _ words: [String], environment: CommandEnvironment) async -> Int32 {
        let console = environment.console
        let command: any Command
        do {
            let arguments = try Arguments(words, spec: type.arguments)
            if arguments.has("--help") {
                console.out(type.help)
                return ExitCode.success
            }
            command = try type.init(arguments)
        } catch {
            console.error("sitegen \(type.name): \(error.message)")
            console.err(type.help)
            return ExitCode.usage
        }
        do {
            return try await command.run(environment)
        } catch let error as UsageError {
            console.error("sitegen \(type.name): \(error.message)")
            return ExitCode.usage
        } catch {
            // sitegen's errors are messages; Foundation's are a domain and a number, so those
            // are put in words with the file they name.
            let message =
                ErrorText.isFoundationError(error) ? "sitegen \(type.name): \(ErrorText.describe(error))" : "\(error)"
            console.error(message)
            return ExitCode.failure
        }
    }
}
