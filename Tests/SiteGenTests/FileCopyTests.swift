import Foundation
import Testing

@testable import SiteGen

#if canImport(Glibc)
    import Glibc
#endif

/// Copying a large file a chunk at a time, fingerprinted on the way.
@Suite("File copy")
struct FileCopyTests {
    /// Bytes over two chunks long, ending partway into a third.
    static let bytes = Data(
        (0..<(2 * FileCopy.chunkSize + 1234)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) })

    /// `body` with `data` written to a file in a new folder, opened for reading.
    func withSource(_ data: Data, _ body: (borrowing ScratchFolder, Int32) throws -> Void) throws {
        let folder = try ScratchFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try data.write(to: folder.url.appendingPathComponent("source.bin"))
        let descriptor = open(folder.url.appendingPathComponent("source.bin").path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try body(folder, descriptor)
    }

    @Test("a copy has the source's bytes and their fingerprint, for sizes around the chunk's")
    func copies() throws {
        for count in [0, 1, 31, 64, FileCopy.chunkSize, FileCopy.chunkSize + 1, Self.bytes.count] {
            let data = Self.bytes.prefix(count)
            try withSource(data) { folder, source in
                let target = folder.url.appendingPathComponent("copy.bin").path
                let (stamp, hash) = try FileCopy.copy(source, size: count, to: target)
                #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == data, "\(count) bytes")
                #expect(hash == ContentHash(data), "\(count) bytes")
                #expect(stamp == FileStamp.of(target), "\(count) bytes")
                #expect(try FileCopy.hash(source, size: count) == ContentHash(data), "\(count) bytes")
                #expect(try FileCopy.hash(source, size: count, ifSameAs: target) == ContentHash(data))
            }
        }
    }

    @Test("the file there is the same only with the same bytes")
    func comparesWithFileThere() throws {
        try withSource(Self.bytes) { folder, source in
            let other = folder.url.appendingPathComponent("other.bin")
            var changed = Self.bytes
            changed[FileCopy.chunkSize + 5] ^= 0x40
            try changed.write(to: other)
            #expect(try FileCopy.hash(source, size: Self.bytes.count, ifSameAs: other.path) == nil)
            try Self.bytes.prefix(100).write(to: other)
            #expect(try FileCopy.hash(source, size: Self.bytes.count, ifSameAs: other.path) == nil)
            #expect(try FileCopy.hash(source, size: Self.bytes.count, ifSameAs: other.path + ".missing") == nil)
        }
    }

    @Test("a source shorter than its size when opened stops the copy, and no copy is left")
    func sourceShrank() throws {
        try withSource(Self.bytes) { folder, source in
            let target = folder.url.appendingPathComponent("copy.bin").path
            // Cut short after it was opened and its size taken.
            #expect(truncate(folder.url.appendingPathComponent("source.bin").path, 1000) == 0)
            let failure = #expect(throws: FileCopy.Failure.self) {
                _ = try FileCopy.copy(source, size: Self.bytes.count, to: target)
            }
            guard case .changed? = failure else {
                Issue.record("expected .changed, got \(String(describing: failure))")
                return
            }
            #expect(!FileManager.default.fileExists(atPath: target))
        }
    }

    @Test("a target already there is never written through, and the error names it")
    func targetThere() throws {
        try withSource(Self.bytes) { folder, source in
            let target = folder.url.appendingPathComponent("copy.bin")
            try Data("mine".utf8).write(to: target)
            let failure = #expect(throws: FileCopy.Failure.self) {
                _ = try FileCopy.copy(source, size: Self.bytes.count, to: target.path)
            }
            guard case .writing(let error)? = failure else {
                Issue.record("expected .writing, got \(String(describing: failure))")
                return
            }
            #expect(error.path == target.path && error.reason == "File exists")
            #expect(try Data(contentsOf: target) == Data("mine".utf8))
        }
    }
}
