import Foundation

/// Makes the output folder hold exactly `files`, all at once or not at all: a whole site
/// already in memory, written through one ``OutputTransaction``.
public struct OutputWriter: Sendable {
    public let folder: URL
    /// Write into a folder sitegen did not make, replacing and removing its files.
    public let force: Bool

    public init(folder: URL, force: Bool = false) {
        self.folder = folder
        self.force = force
    }

    public typealias Report = OutputTransaction.Report

    /// Writes `files` (output path → bytes) into the folder.
    public func write(_ files: [String: Data]) throws -> Report {
        let transaction = try OutputTransaction(output: folder, force: force)
        do {
            for (path, data) in files.sorted(by: { $0.key < $1.key }) {
                try transaction.put(data, at: path)
            }
            return try transaction.commit()
        } catch {
            transaction.discard()
            throw error
        }
    }
}
