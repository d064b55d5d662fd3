import Foundation
import Mustache
import Synchronization

/// Renders page jobs through the theme's templates, on every core.
struct PageRenderer: Sendable {
    let library: TemplateLibrary

    /// Renders every job and hands each page's bytes to `deliver` as soon as they are made,
    /// from any thread, so pages need not all be held at once. Throws a ``BuildError``
    /// naming each template problem once, with the first page it was met on (in path order)
    /// and how many others, or the first error `deliver` threw (after which the remaining
    /// pages are not rendered). A limit that takes long to reach (the steps, the output's
    /// size) stops the rendering too: each page would take as long to fail.
    func render(_ jobs: [PageJob], deliver: @Sendable (PageJob, Data) throws(BuildError) -> Void) throws(BuildError) {
        try render(jobs, job: { $0 }, deliver: deliver)
    }

    /// Renders the job `job` makes of each of `items`, making it only when its turn comes, so
    /// that only the pages being rendered have models in memory.
    func render<Item: Sendable>(
        _ items: [Item], job makeJob: @Sendable (Item) -> PageJob,
        deliver: @Sendable (PageJob, Data) throws(BuildError) -> Void
    ) throws(BuildError) {
        try render(
            items, job: makeJob, deliverBytes: { job, bytes throws(BuildError) in try deliver(job, Data(bytes)) })
    }

    /// ``render(_:job:deliver:)``, lending each page's bytes to `deliver` where they were
    /// rendered, for a caller that only writes them: at 100,000 reviews, copying every page
    /// into its own `Data` first moved 2.9 GB through fresh memory.
    func render<Item: Sendable>(
        _ items: [Item], job makeJob: @Sendable (Item) -> PageJob,
        deliverBytes deliver: @Sendable (PageJob, UnsafeRawBufferPointer) throws(BuildError) -> Void
    ) throws(BuildError) {
        let library = self.library
        let stopped = Mutex<BuildError?>(nil)
        let exhausted = Atomic<Bool>(false)
        // Pages differ in cost (a feed or the sitemap against a review page): short runs keep
        // both cores busy to the end.
        let failures = items.parallelMap(chunksPerCore: 256) { item -> (error: TemplateError, page: String)? in
            if exhausted.load(ordering: .relaxed) || stopped.withLock({ $0 != nil }) { return nil }
            let job = makeJob(item)
            let delivered = Self.render(job, library) { bytes in
                Result { () throws(BuildError) in try deliver(job, bytes) }
            }
            switch delivered {
            case .success(.success): break
            case .success(.failure(let error)): stopped.withLock { $0 = $0 ?? error }
            case .failure(let error):
                if Self.isCostly(error.reason) { exhausted.store(true, ordering: .relaxed) }
                return (error, job.output)
            }
            return nil
        }
        if let error = stopped.withLock({ $0 }) { throw error }
        // Each problem once (a mistake in the review template fails every review page), in the
        // order first met, with the pages it failed.
        var problems: [(error: TemplateError, pages: [String])] = []
        var places: [String: Int] = [:]
        for (error, page) in failures.compactMap({ $0 }) {
            // A costly limit is met at a slightly different place on each page that meets it.
            let key = Self.isCostly(error.reason) ? error.message : Self.diagnostic(error).description
            if let place = places[key] {
                problems[place].pages.append(page)
            } else {
                places[key] = problems.count
                problems.append((error, [page]))
            }
        }
        guard problems.isEmpty else {
            throw BuildError(
                step: "rendering",
                diagnostics: problems.map {
                    Self.diagnostic($0.error, pages: $0.pages, othersSkipped: Self.isCostly($0.error.reason))
                })
        }
    }

    /// Whether a page takes long to fail for this reason (it rendered up to a limit).
    static func isCostly(_ reason: TemplateError.Reason) -> Bool {
        switch reason {
        case .tooManySteps, .outputTooLarge: true
        default: false
        }
    }

    /// The rendered pages by output path (for a site held in memory).
    func render(_ jobs: [PageJob]) throws -> [String: Data] {
        let pages = Mutex<[String: Data]>([:])
        try render(jobs) { job, data in pages.withLock { $0[job.output] = data } }
        return pages.withLock { $0 }
    }

    /// One page's bytes.
    func render(_ job: PageJob) throws(BuildError) -> Data {
        switch Self.render(job, library, { Data($0) }) {
        case .success(let data): return data
        case .failure(let error):
            throw BuildError(step: "rendering", diagnostics: [Self.diagnostic(error, pages: [job.output])])
        }
    }

    /// A template error as the build reports it, where it happened, and (given) on which
    /// pages: the first in path order, and how many others, and whether the rendering of the
    /// remaining pages stopped at it.
    static func diagnostic(_ error: TemplateError, pages: [String] = [], othersSkipped: Bool = false) -> Diagnostic {
        var lines = [error.message] + error.includedFromLines
        if let first = pages.min(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let others = pages.count - 1
            let more = others == 0 ? "" : " (and \(others) other page\(others == 1 ? "" : "s"))"
            lines.append("    rendering \(Diagnostic.shown(first))\(more)")
            if othersSkipped {
                lines.append("    the rendering of the remaining pages stopped here: each could take as long to fail")
            }
        }
        return Diagnostic(lines.joined(separator: "\n"), at: error.location)
    }
}

private extension PageRenderer {
    /// Renders `job` and lends its bytes to `body` (valid during the call only).
    static func render<Made>(
        _ job: PageJob, _ library: TemplateLibrary, _ body: (UnsafeRawBufferPointer) -> Made
    ) -> Result<Made, TemplateError> {
        if let document = job.model as? any DocumentModel {
            var text = document.text()
            return .success(text.withUTF8 { body(UnsafeRawBufferPointer($0)) })
        }
        do {
            guard let template = try library.template(named: job.template) else {
                throw TemplateError(
                    .missingPartial(name: job.template),
                    at: SourceLocation(path: "\(Theme.folderName)/\(job.template).mustache", line: 1, column: 1))
            }
            return .success(
                try template.withRenderedBytes(job.model.templateValue, partials: library) {
                    body(UnsafeRawBufferPointer($0))
                })
        } catch let error as TemplateError {
            return .failure(error)
        } catch {
            return .failure(
                TemplateError(
                    .unreadable(detail: "\(error)"), at: SourceLocation(path: job.output, line: 1, column: 1)))
        }
    }
}
