import SiteGenCLI
import Testing

@Suite("Argument parsing")
struct ArgumentsTests {
    let spec = ArgumentSpec(
        flags: ["--drafts"], options: ["--port", "--source"], repeatable: ["--only"],
        positional: 0...1)

    @Test("flags, options with a space or =, repeatable options and positionals")
    func parsesEverything() throws {
        let arguments = try Arguments(
            ["--drafts", "--port", "8080", "--source=site", "--only", "a.md", "--only=b.md", "file"], spec: spec)
        #expect(arguments.has("--drafts"))
        #expect(arguments.value("--port") == "8080")
        #expect(arguments.value("--source") == "site")
        #expect(arguments.values["--only"] == ["a.md", "b.md"])
        #expect(arguments.positional == ["file"])
    }

    @Test("-- ends options, so a file may start with a dash")
    func doubleDash() throws {
        let arguments = try Arguments(["--", "--drafts"], spec: spec)
        #expect(arguments.positional == ["--drafts"])
        #expect(!arguments.has("--drafts"))
    }

    @Test("-h is --help, and --help skips the positional count check")
    func help() throws {
        let arguments = try Arguments(["-h", "a", "b", "c"], spec: spec)
        #expect(arguments.has("--help"))
    }

    @Test(
        "usage errors name the problem",
        arguments: [
            (["--nope"], "unknown option --nope"),
            (["--port"], "option --port needs a value"),
            (["--drafts=yes"], "option --drafts takes no value"),
            (["--port", "1", "--port", "2"], "option --port given twice"),
            (["a", "b"], "unexpected argument b"),
        ])
    func usageErrors(words: [String], message: String) {
        #expect(throws: UsageError(message)) { try Arguments(words, spec: spec) }
    }

    @Test("a missing positional argument is a usage error")
    func missingPositional() {
        let spec = ArgumentSpec(positional: 1...1)
        #expect(throws: UsageError("missing argument")) { try Arguments([], spec: spec) }
    }

    @Test("integers are checked against their range")
    func integers() throws {
        let arguments = try Arguments(["--port", "70000"], spec: spec)
        #expect(throws: UsageError("--port must be a whole number from 0 to 65535, not \"70000\"")) {
            try arguments.integer("--port", in: 0...65535)
        }
        #expect(try Arguments(["--port", "0"], spec: spec).integer("--port", in: 0...65535) == 0)
    }
}
