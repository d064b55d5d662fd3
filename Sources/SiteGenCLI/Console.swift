import Foundation

/// Where commands write: standard output and standard error, or a capture in tests.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    /// Whether standard error is a terminal (progress bars, colours).
    public var isTerminal: Bool

    public init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
        isTerminal: Bool = false
    ) {
        self.out = out
        self.err = err
        self.isTerminal = isTerminal
    }

    /// The process's own standard output and error, written as given (no newline added).
    public static let standard = Console(
        out: { FileHandle.standardOutput.write(Data($0.utf8)) },
        err: { FileHandle.standardError.write(Data($0.utf8)) },
        isTerminal: isatty(STDERR_FILENO) == 1)

    /// Writes a line to standard error.
    public func error(_ text: String) { err(text + "\n") }

    /// Writes a line to standard output.
    public func line(_ text: String) { out(text + "\n") }
}
