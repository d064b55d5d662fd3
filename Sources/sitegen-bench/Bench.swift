import Foundation
import SiteGenCLI

/// `sitegen-bench`: measurements that go into the README, never pass/fail tests.
enum Bench {
    static let usage = """
        Usage: sitegen-bench <benchmark> [options]

        Benchmarks:
          template FILE --data DATA.json [--partials DIR] --iterations N
              Compile FILE once, render it N times on one thread, print renders/s.
          build [--reviews N] [--words W|MIN-MAX] [--page-size P] [--seed S] [--tags T] [--edit]
                [--repeat K] [--binary SITEGEN] [--max-memory MB] [--output-in DIR]
                [--keep DIR | --write-site DIR]
              Generate a site of N reviews (default 1000, 500-700 words, page size 6, three tags
              each out of 12, or out of T made-up tags with --tags) and time,
              each in a fresh process, a full build into an empty folder, a rebuild with nothing
              changed and, with --edit, a rebuild after one review changed. --write-site DIR
              only writes the site (for sitegen build or Benchmarks/hugo), --keep DIR keeps it.
              --binary times that sitegen's build command instead of the SiteBuilder steps;
              --max-memory stops a build whose resident memory passes MB megabytes;
              --output-in DIR builds into a new folder made (and removed) in DIR, such as
              /dev/shm, to time sitegen without the disk's file system.
          serve [--source DIR | --reviews N] [--words W|MIN-MAX] [--page-size P] [--tags T] [--repeat K]
                [--only KIND,...] [--binary SITEGEN] [--wrk-seconds S]
              Run sitegen serve on a site (default 10000 generated reviews) and time save to
              served for each kind of edit, then wrk requests/s on a review page.
          images [--count N] [--width W] [--height H] [--keep DIR]
              Generate N page bundles with a W x H JPEG each (100 of 2000 x 3000), time the
              first build and builds with the images cached.

        """

    static func main(_ arguments: [String]) async -> Int32 {
        guard let name = arguments.first else {
            FileHandle.standardError.write(Data(usage.utf8))
            return ExitCode.usage
        }
        // `sitegen-bench build --help` prints the usage instead of starting a long benchmark.
        if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
            print(usage, terminator: "")
            return ExitCode.success
        }
        do {
            switch name {
            case "template":
                try TemplateBenchmark(Array(arguments.dropFirst())).run()
            case "build":
                try BuildBenchmark(Array(arguments.dropFirst())).run()
            case "build-child":
                try BuildChild(Array(arguments.dropFirst())).run()
            case "serve":
                try ServeBenchmark(Array(arguments.dropFirst())).run()
            case "images":
                try ImageBenchmark(Array(arguments.dropFirst())).run()
            case "--help", "-h":
                print(usage, terminator: "")
            default:
                throw UsageError("unknown benchmark \"\(name)\"")
            }
            return ExitCode.success
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("sitegen-bench: \(error.message)\n\(usage)".utf8))
            return ExitCode.usage
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return ExitCode.failure
        }
    }
}
