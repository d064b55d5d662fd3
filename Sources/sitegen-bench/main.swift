import Foundation
import SiteGenCLI

exit(await Bench.main(Array(CommandLine.arguments.dropFirst())))
