import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reading and copying a large file a chunk at a time, its fingerprint taken on the way, so
/// that a build never holds a site's video or PDF whole (nor twice, to compare it).
enum FileCopy {
    /// The bytes read at a time: a multiple of 32, as ``ContentHash/Stream`` needs.
    static let chunkSize = 1024 * 1024

    /// Why a copy stopped.
    enum Failure: Error {
        /// The source could not be read (the system's reason).
        case reading(String)
        /// The source ended before its size when it was opened: it changed while it was read.
        case changed
        /// The copy could not be written.
        case writing(OutputFailure)
    }

    /// The fingerprint of the `size` bytes of the open file `source`, read from its start.
    static func hash(_ source: Int32, size: Int) throws(Failure) -> ContentHash {
        var stream = ContentHash.Stream(count: size)
        try chunks(of: source, size: size) { part throws(Failure) in stream.take(part) }
        return stream.hash!
    }

    /// The fingerprint of the regular file at `path` (at most `limit` bytes), read a chunk at
    /// a time; nil when it cannot be read or changes while it is.
    static func hash(ofFileAt path: String, limit: Int) -> ContentHash? {
        guard let (descriptor, size) = try? DiskFile.openChecked(path, limit: limit, within: nil) else { return nil }
        defer { close(descriptor) }
        return try? hash(descriptor, size: size)
    }

    /// The fingerprint of the `size` bytes of `source` when the regular file at `path` holds
    /// exactly those bytes; nil when it holds others or cannot be read.
    static func hash(_ source: Int32, size: Int, ifSameAs path: String) throws(Failure) -> ContentHash? {
        guard let (other, otherSize) = try? DiskFile.openChecked(path, limit: Int.max, within: nil) else { return nil }
        defer { close(other) }
        guard otherSize == size else { return nil }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 32)
        defer { buffer.deallocate() }
        var stream = ContentHash.Stream(count: size)
        var same = true
        var offset = 0
        try chunks(of: source, size: size) { part throws(Failure) in
            guard same else { return }
            let read = try? fill(buffer, from: other, at: offset, count: part.count)
            same = read == part.count && memcmp(buffer.baseAddress!, part.baseAddress!, part.count) == 0
            offset += part.count
            stream.take(part)
        }
        return same ? stream.hash : nil
    }

    /// Copies the `size` bytes of `source` into a new file at `target` (never one already
    /// there); returns the new file's stamp and the bytes' fingerprint. A failed copy leaves
    /// no file at `target`.
    static func copy(_ source: Int32, size: Int, to target: String) throws(Failure) -> (FileStamp, ContentHash) {
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .writing(OutputFailure(path: target, code: errno)) }
        defer { close(descriptor) }
        var stream = ContentHash.Stream(count: size)
        do throws(Failure) {
            try chunks(of: source, size: size) { part throws(Failure) in
                stream.take(part)
                if let code = DiskFile.writeAll(descriptor, part) {
                    throw .writing(OutputFailure(path: target, code: code))
                }
            }
            guard let stamp = FileStamp.of(descriptor: descriptor) else {
                throw .writing(OutputFailure(path: target, code: errno))
            }
            return (stamp, stream.hash!)
        } catch {
            unlink(target)
            throw error
        }
    }

    /// Hands `body` the `size` bytes of `source` from its start, in full chunks of
    /// ``chunkSize`` bytes but the last (an empty file: one empty part).
    private static func chunks(
        of source: Int32, size: Int, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: min(max(size, 1), chunkSize), alignment: 32)
        defer { buffer.deallocate() }
        var offset = 0
        repeat {
            let want = min(buffer.count, size - offset)
            let count: Int
            do {
                count = try fill(buffer, from: source, at: offset, count: want)
            } catch {
                throw .reading(error.reason)
            }
            guard count == want else { throw .changed }
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            offset += count
        } while offset < size
    }

    /// Reads `count` bytes of `descriptor` at `offset` into the start of `buffer`, fewer only
    /// where the file ends; returns how many.
    private static func fill(
        _ buffer: UnsafeMutableRawBufferPointer, from descriptor: Int32, at offset: Int, count: Int
    ) throws(FileSystemError) -> Int {
        var total = 0
        while total < count {
            let read = pread(descriptor, buffer.baseAddress! + total, count - total, off_t(offset + total))
            if read < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(path: "", code: errno)
            }
            if read == 0 { break }
            total += read
        }
        return total
    }
}
