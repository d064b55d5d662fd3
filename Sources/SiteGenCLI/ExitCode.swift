/// The exit codes `sitegen` uses.
public enum ExitCode {
    public static let success: Int32 = 0
    /// The build, render or fetch failed; the messages say why.
    public static let failure: Int32 = 1
    /// The command line was not understood (BSD `EX_USAGE`).
    public static let usage: Int32 = 64
}
