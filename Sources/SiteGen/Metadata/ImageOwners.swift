import Foundation
import Synchronization

/// Which entries of a cache name which images, so that a store never removes an image that
/// another entry names (two entries share one only after an edit by hand, but a build then
/// stops at the one whose image went). Every entry is read once, by the first store that has
/// an image to remove, and the stores of the same cache keep it up to date: a `--refresh` of
/// the whole cache reads it once, not once per entry. An entry that cannot be read counts as
/// naming every image whose name its bytes hold.
final class ImageOwners: Sendable {
    private struct State {
        var read = false
        /// The images each entry names, by the entry's path in the cache.
        var images: [String: Set<String>] = [:]
        /// The entries that name each image.
        var owners: [String: Set<String>] = [:]
        /// The bytes of the entries that could not be read, by path.
        var unreadable: [String: Data] = [:]

        mutating func set(_ entry: String, naming files: Set<String>) {
            for file in images[entry] ?? [] { owners[file]?.remove(entry) }
            images[entry] = files
            for file in files { owners[file, default: []].insert(entry) }
            unreadable[entry] = nil
        }
    }

    /// The folders of entries, one per kind of work (``Lookup/path``).
    static let entryFolders = ["movies", "books", "tv"]

    private let state = Mutex(State())

    /// Those of `files` that an entry other than the one at `path` names, the entries read from
    /// `cache` the first time.
    func named(_ files: [String], byEntriesBut path: String, in cache: MetadataCache) -> Set<String> {
        state.withLock { state in
            if !state.read { Self.read(cache, into: &state) }
            return Set(
                files.filter { file in
                    !(state.owners[file] ?? []).subtracting([path]).isEmpty
                        || state.unreadable.contains { $0.key != path && $0.value.range(of: Data(file.utf8)) != nil }
                })
        }
    }

    /// Notes that the entry at `path` now names `files`.
    func stored(_ path: String, naming files: Set<String>) {
        state.withLock { state in
            if state.read { state.set(path, naming: files) }
        }
    }

    private static func read(_ cache: MetadataCache, into state: inout State) {
        state.read = true
        for folder in entryFolders {
            let place = cache.folder.appendingPathComponent(folder).path
            for name in (try? FileManager.default.contentsOfDirectory(atPath: place)) ?? []
            where name.hasSuffix(".json") && !name.hasPrefix(".") {
                let path = "\(folder)/\(name)"
                do {
                    if let entry = try cache.entry(at: path) { state.set(path, naming: Set(entry.images.map(\.file))) }
                } catch {
                    state.unreadable[path] = (try? cache.bytes(of: path)) ?? Data()
                }
            }
        }
    }
}
