import Foundation

/// The pages an update leaves to be made: what is left to do for each, making one when it is
/// asked for, and making them all.
extension LiveSite {
    /// What is left to do for a page an update touched.
    enum PendingPage: Sendable {
        /// Present the page again; render it when its model or template differs from the job
        /// its bytes were made from, or in any case when `always` (its templates changed).
        case present(PageKey, always: Bool)
        /// Render this job (a new model or a new template).
        case render(PageJob)

        /// This entry and `later` (made by a later step of the same update) as one.
        func merged(with later: PendingPage) -> PendingPage {
            switch (self, later) {
            case (.render, .render): later
            case (.render, .present(let key, _)), (.present(let key, _), .render): .present(key, always: true)
            case (.present(_, let always), .present(let key, let alsoAlways)):
                .present(key, always: always || alsoAlways)
            }
        }
    }

    /// This site with every pending page made: presented again where it has to be, and
    /// rendered where its model or templates changed. Its ``Update/changedFiles`` and
    /// ``Work`` count the whole update. Throws the rendering errors.
    public func completed() throws -> LiveSite {
        try completed(unless: { false })!
    }

    /// ``completed()``, or nil as soon as `stop` says so (checked between short runs of pages):
    /// the site stays as it is, and the next update goes on from it.
    public func completed(unless stop: () -> Bool) throws -> LiveSite? {
        guard !pending.isEmpty else { return self }
        let entries = Array(pending)
        let jobs = self.jobs
        let renderer = PageRenderer(library: library)
        var files = self.files
        var newJobs = jobs
        var changed = lastUpdate.changedFiles.filter { pending[$0] == nil }
        var work = lastWork
        for start in stride(from: 0, to: entries.count, by: Self.completionRun) {
            if stop() { return nil }
            let run = entries[start..<min(start + Self.completionRun, entries.count)]
            let made = Array(run).parallelMap { output, page -> (job: PageJob, renders: Bool) in
                let job = self.job(for: page)
                guard case .present(_, always: false) = page, let old = jobs[output], old.template == job.template
                else { return (job, true) }
                return (job, !old.model.isEqual(to: job.model))
            }
            let redo = made.filter(\.renders).map(\.job)
            for (path, data) in try renderer.render(redo) where files[path] != data {
                files[path] = data
                changed.append(path)
            }
            for (job, _) in made { newJobs[job.output] = job }
            work.presented += run.count { if case .present = $0.value { true } else { false } }
            work.rendered += redo.count
        }
        return LiveSite(
            files: files, lastUpdate: Update(kind: lastUpdate.kind, changedFiles: changed.sorted()), lastWork: work,
            builder: builder, content: content, presentation: presentation, library: library, jobs: newJobs,
            pending: [:], lastReading: lastReading)
    }

    /// How many pending pages ``completed(unless:)`` makes between two looks at `stop`
    /// (about 15 ms of work on two cores).
    static let completionRun = 128

    /// The bytes of the page or file at `output` (a pending page made now), nil when the site has none there.
    public func page(_ output: String) throws -> Data? {
        guard let entry = pending[output] else { return files[output] }
        return try PageRenderer(library: library).render(job(for: entry))
    }

    /// The job a pending page is made from.
    func job(for entry: PendingPage) -> PageJob {
        switch entry {
        case .render(let job): job
        case .present(let key, _): SitePresenter.job(key, presentation)
        }
    }

    /// `pending` with `page` for `output`, merged with what a previous step of the update left there.
    static func marking(_ pending: inout [String: PendingPage], _ output: String, _ page: PendingPage) {
        pending[output] = pending[output].map { $0.merged(with: page) } ?? page
    }
}
