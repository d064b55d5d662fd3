/// One `sitegen` subcommand.
public protocol Command: Sendable {
    /// The word that selects it: `build`, `serve`, `template`…
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The full help text, starting with the usage line.
    static var help: String { get }
    static var arguments: ArgumentSpec { get }

    /// Reads the parsed command line, throwing ``UsageError`` when it makes no sense.
    init(_ arguments: Arguments) throws(UsageError)

    /// Does the work; returns the exit code.
    func run(_ environment: CommandEnvironment) async throws -> Int32
}

/// What a command may touch beyond its arguments: the console, the environment
/// variables and the current folder.
public struct CommandEnvironment: Sendable {
    public var console: Console
    public var variables: [String: String]
    public var currentDirectory: String

    public init(console: Console, variables: [String: String], currentDirectory: String) {
        self.console = console
        self.variables = variables
        self.currentDirectory = currentDirectory
    }
}
