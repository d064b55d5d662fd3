import Foundation
import SiteGenCLI
import Testing

@Suite("sitegen command dispatch")
struct SiteGenToolTests {
    let here = FileManager.default.temporaryDirectory

    @Test("--help lists the commands and exits 0")
    func help() async {
        let console = TestConsole()
        #expect(await console.run(["--help"], in: here) == 0)
        #expect(console.out.hasPrefix("sitegen \(SiteGenTool.version): a static site generator"))
        #expect(console.out.contains("  template  Render one template with JSON data"))
        #expect(console.err.isEmpty)
    }

    @Test("help COMMAND shows that command's help")
    func helpForCommand() async {
        let console = TestConsole()
        #expect(await console.run(["help", "template"], in: here) == 0)
        #expect(console.out.hasPrefix("Usage: sitegen template FILE --data DATA.json [--partials DIR]"))
    }

    @Test("--version prints the version")
    func version() async {
        let console = TestConsole()
        #expect(await console.run(["--version"], in: here) == 0)
        #expect(console.out == "sitegen \(SiteGenTool.version)\n")
    }

    @Test("no command prints the usage on standard error and exits 64")
    func noCommand() async {
        let console = TestConsole()
        #expect(await console.run([], in: here) == 64)
        #expect(console.out.isEmpty)
        #expect(console.err.contains("Usage: sitegen <command> [options]"))
    }

    @Test("an unknown command is a usage error")
    func unknownCommand() async {
        let console = TestConsole()
        #expect(await console.run(["biuld"], in: here) == 64)
        #expect(console.err.hasPrefix("sitegen: unknown command \"biuld\"\n"))
        // Help for it too, rather than the general usage and success.
        for help in ["help", "--help"] {
            let asked = TestConsole()
            #expect(await asked.run([help, "biuld"], in: here) == 64)
            #expect(asked.err.hasPrefix("sitegen: unknown command \"biuld\"\nsitegen \(SiteGenTool.version): a static"))
            #expect(asked.err.contains("Usage: sitegen <command> [options]"))
            #expect(asked.out.isEmpty)
        }
    }

    @Test("an unknown option prints the command's usage and exits 64")
    func unknownOption() async {
        let console = TestConsole()
        #expect(await console.run(["template", "x.mustache", "--data", "d.json", "--colour"], in: here) == 64)
        #expect(console.err.hasPrefix("sitegen template: unknown option --colour\nUsage: sitegen template FILE"))
    }

    @Test("a missing required option is a usage error")
    func missingData() async {
        let console = TestConsole()
        #expect(await console.run(["template", "x.mustache"], in: here) == 64)
        #expect(console.err.hasPrefix("sitegen template: --data DATA.json is required\n"))
    }
}
