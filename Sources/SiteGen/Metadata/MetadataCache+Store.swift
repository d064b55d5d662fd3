import Foundation
import Synchronization

/// Writing an entry and its images into the cache.
extension MetadataCache {
    /// Stores an entry with its images; replaces the old entry only when everything is written:
    /// every file is written beside its place first, then the images are renamed into place
    /// (under new names when they would replace other bytes the old entry or another one
    /// names) and the entry last, and the old entry's images it no longer names are removed (only files in
    /// `images/`, never an entry, and never one another entry names). A folder of the cache
    /// that is a link out of it is refused before anything is written.
    ///
    /// All of it happens holding the site's `.sitegen/fetch.lock` (made by the first store), and
    /// the old entry is read holding it: two fetches at once each replace the entry as the other
    /// left it, so neither removes an image the entry on disk names.
    ///
    /// An entry already there that cannot be read (it may hold edits by hand with a typo) is
    /// replaced only when `refreshing`; else the store fails with its error.
    func store(
        _ metadata: WorkMetadata, images: [(CachedImage, Data)], for lookup: Lookup, refreshing: Bool
    ) throws(MetadataError) {
        if let placeProblem { throw .cacheWrite(placeProblem.message) }
        let entryFolder = (lookup.path as NSString).deletingLastPathComponent
        for relative in [entryFolder, "images"] {
            guard !SafePath.linkLeadsOut(relative, in: folder) else {
                throw .cacheWrite("\(Self.folderName)/\(relative) is a link to a place outside \(Self.folderName)/")
            }
            do {
                try Directory.make(folder.appendingPathComponent(relative).path)
            } catch {
                throw .cacheWrite("cannot make \(Self.folderName)/\(relative): \(ErrorText.describe(error))")
            }
        }
        do {
            try locked { () throws(MetadataError) in
                try commit(metadata, images: images, for: lookup, refreshing: refreshing)
            }
        } catch let error as MetadataError {
            throw error
        } catch {
            throw .cacheWrite(ErrorText.describe(error))
        }
    }
}

private extension MetadataCache {
    /// Runs `body` holding the site's fetch lock; without a site (a cache folder of its own) or
    /// with a `.sitegen` that leads out of the site, unlocked.
    func locked(_ body: () throws(MetadataError) -> Void) throws {
        guard let site, StateFolder.refusal(in: site) == nil else { return try body() }
        let path = site.appendingPathComponent(StateFolder.name).appendingPathComponent("fetch.lock").path
        try FileLock.holding(path, shared: false, waiting: {}, body)
    }

    /// The cache folders whose leftovers this process has removed, each once.
    static let cleaned = Mutex<Set<String>>([])

    /// ``store(_:images:for:refreshing:)``'s writes, holding the lock.
    func commit(
        _ metadata: WorkMetadata, images: [(CachedImage, Data)], for lookup: Lookup, refreshing: Bool
    ) throws(MetadataError) {
        // What a fetch killed while writing left (its temporary files), once per folder and run.
        for relative in [(lookup.path as NSString).deletingLastPathComponent, "images"] {
            let path = folder.appendingPathComponent(relative).path
            if Self.cleaned.withLock({ $0.insert(path).inserted }) { AtomicFile.removeLeftovers(in: path) }
        }
        let old: WorkMetadata?
        do {
            old = try entry(for: lookup)
        } catch {
            guard refreshing else { throw .unreadableEntry(error) }
            old = nil
        }
        // An image the old entry names is never replaced by other bytes: those go under a name of
        // their own, so until the new entry is in place the old one names its own images (a
        // fetch stopped or failed in between leaves it whole). Nor is one another entry names
        // (two share one after an edit by hand: the other would show this work's image).
        let named = Set(old?.images.map(\.file) ?? [])
        var images = images
        let differing = images.indices.filter { index in
            let existing = try? bytes(of: images[index].0.file)
            return existing != images[index].1 && (existing != nil || named.contains(images[index].0.file))
        }
        let elsewhere =
            differing.isEmpty
            ? [] : owners.named(differing.map { images[$0].0.file }, byEntriesBut: lookup.path, in: self)
        for index in differing where named.contains(images[index].0.file) || elsewhere.contains(images[index].0.file) {
            let (image, data) = images[index]
            let name = image.file as NSString
            images[index].0.file =
                "\(name.deletingPathExtension)-\(String(ContentHash(data).high, radix: 16)).\(name.pathExtension)"
        }
        var stored = metadata
        stored.images = images.map(\.0)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var files: [(String, Data)] = images.map { ($0.0.file, $0.1) }
        do {
            files.append((lookup.path, try encoder.encode(stored) + Data("\n".utf8)))
        } catch {
            throw .cacheWrite("cannot encode \(lookup.path): \(ErrorText.describe(error))")
        }
        var staged: [AtomicFile.Staged] = []
        for (relative, data) in files {
            guard SafePath.segments(of: relative) != nil else {
                throw .cacheWrite(
                    "refused to write \(Self.folderName)/\(relative): it leads out of \(Self.folderName)/")
            }
            do {
                staged.append(try AtomicFile.Staged(data, for: folder.appendingPathComponent(relative)))
            } catch {
                throw .cacheWrite("cannot write \(Self.folderName)/\(relative): \(ErrorText.describe(error))")
            }
        }
        for (file, (relative, _)) in zip(staged, files) {
            do {
                try file.commit()
            } catch {
                throw .cacheWrite("cannot write \(Self.folderName)/\(relative): \(ErrorText.describe(error))")
            }
        }
        let kept = Set(stored.images.map(\.file))
        let gone = (old?.images ?? []).map(\.file).filter { !kept.contains($0) && $0.hasPathPrefix("images/") }
        let others = gone.isEmpty ? [] : owners.named(gone, byEntriesBut: lookup.path, in: self)
        owners.stored(lookup.path, naming: kept)
        for file in gone where !others.contains(file) {
            if let url = SafePath.resolve(file, in: folder) { try? FileManager.default.removeItem(at: url) }
        }
    }
}
