import Foundation
import Mustache

/// Renders page jobs through the theme's templates, on every core.
struct PageRenderer: Sendable {
    let library: TemplateLibrary

    /// The rendered pages by output path, or a ``BuildError`` naming each template problem once.
    func render(_ jobs: [PageJob]) throws -> [String: Data] {
        let library = self.library
        let results = jobs.parallelMap { job -> Result<Data, TemplateError> in
            do {
                guard let template = try library.template(named: job.template) else {
                    throw TemplateError(
                        .missingPartial(name: job.template),
                        at: SourceLocation(path: "\(Theme.folderName)/\(job.template).mustache", line: 1, column: 1))
                }
                let value = try ValueEncoder().encode(job.model)
                return .success(Data(try template.renderBytes(value, partials: library)))
            } catch let error as TemplateError {
                return .failure(error)
            } catch {
                return .failure(
                    TemplateError(
                        .unreadable(detail: "\(error)"),
                        at: SourceLocation(path: job.output, line: 1, column: 1)))
            }
        }
        var pages: [String: Data] = [:]
        var problems: [Diagnostic] = []
        var seen: Set<String> = []
        for (job, result) in zip(jobs, results) {
            switch result {
            case .success(let data):
                pages[job.output] = data
            case .failure(let error):
                let diagnostic = Diagnostic(Self.message(error), at: error.location)
                if seen.insert(diagnostic.description).inserted { problems.append(diagnostic) }
            }
        }
        guard problems.isEmpty else { throw BuildError(step: "rendering", diagnostics: problems) }
        return pages
    }

    /// The error's message with the chain of partials that led to it.
    static func message(_ error: TemplateError) -> String {
        ([error.message] + error.includedFrom.map { "    included from \($0)" }).joined(separator: "\n")
    }
}
