internal import CZip
import Foundation

/// A zip archive read with libzip: its entry names and, one at a time, an entry's bytes up to
/// a limit. The only file that sees libzip; no libzip type leaves it.
///
/// Opening refuses an archive that is not a zip, is damaged, holds more than `maxEntries`
/// entries, or names an entry with a path that would leave the folder it is unpacked into
/// (`../x`, `/etc/x`, `C:\x`), even though nothing here unpacks to disk.
public final class ZipArchive {
    /// Every entry's name, in the archive's order (folders end with `/`).
    public let entryNames: [String]
    private let handle: OpaquePointer

    /// Opens the archive at `path` for reading.
    public init(path: String, maxEntries: Int = 100_000) throws(ZipError) {
        var code: Int32 = 0
        guard let handle = zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &code) else {
            throw ZipError(Self.describeOpening(code: code))
        }
        let count = zip_get_num_entries(handle, 0)
        guard count <= maxEntries else {
            zip_discard(handle)
            throw ZipError("the archive has \(count) entries; more than \(maxEntries) are refused")
        }
        var names: [String] = []
        names.reserveCapacity(Int(max(count, 0)))
        for index in 0..<max(count, 0) {
            guard let name = zip_get_name(handle, zip_uint64_t(index), ZIP_FL_ENC_GUESS) else {
                let message = Self.describe(zip_get_error(handle))
                zip_discard(handle)
                throw ZipError(message)
            }
            let text = String(cString: name)
            guard Self.staysInside(text) else {
                zip_discard(handle)
                throw ZipError(
                    "the entry \"\(text)\" has a path that leads out of the folder it would be unpacked into: refused")
            }
            names.append(text)
        }
        self.handle = handle
        self.entryNames = names
    }

    deinit { zip_discard(handle) }

    /// The unpacked bytes of the entry `name`; refuses an entry larger than `limit` bytes,
    /// whether its header says so or its data turns out longer.
    public func read(_ name: String, limit: Int) throws(ZipError) -> Data {
        guard let index = entryNames.firstIndex(of: name) else { throw ZipError("the archive has no \"\(name)\"") }
        let size = limit > 0 && limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
        let tooLarge = ZipError("\"\(name)\" unpacks to more than \(size): refused")
        var info = zip_stat_t()
        zip_stat_init(&info)
        guard zip_stat_index(handle, zip_uint64_t(index), 0, &info) == 0 else {
            throw ZipError("\"\(name)\": \(Self.describe(zip_get_error(handle)))")
        }
        if info.valid & UInt64(ZIP_STAT_SIZE) != 0 && info.size > UInt64(limit) { throw tooLarge }
        guard let file = zip_fopen_index(handle, zip_uint64_t(index), 0) else {
            throw ZipError("\"\(name)\": \(Self.describe(zip_get_error(handle)))")
        }
        defer { zip_fclose(file) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { zip_fread(file, $0.baseAddress!, zip_uint64_t($0.count)) }
            if count < 0 { throw ZipError("\"\(name)\": \(Self.describe(zip_file_get_error(file)))") }
            if count == 0 { return data }
            guard data.count + Int(count) <= limit else { throw tooLarge }
            data.append(contentsOf: chunk[0..<Int(count)])
        }
    }

    /// Writes a new zip archive at `path` (which must not exist) holding `entries`, deflated.
    /// Names are stored as given, so tests can make hostile archives too.
    public static func create(at path: String, entries: [(name: String, bytes: Data)]) throws(ZipError) {
        var code: Int32 = 0
        guard let handle = zip_open(path, ZIP_CREATE | ZIP_EXCL, &code) else {
            throw ZipError(describe(code: code))
        }
        for entry in entries {
            // libzip reads the buffer when the archive is closed, and frees it then (freep: 1).
            let buffer = malloc(max(entry.bytes.count, 1))!
            entry.bytes.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), count: entry.bytes.count)
            guard let source = zip_source_buffer(handle, buffer, zip_uint64_t(entry.bytes.count), 1) else {
                free(buffer)
                let message = describe(zip_get_error(handle))
                zip_discard(handle)
                throw ZipError(message)
            }
            guard zip_file_add(handle, entry.name, source, ZIP_FL_ENC_UTF_8) >= 0 else {
                zip_source_free(source)
                let message = describe(zip_get_error(handle))
                zip_discard(handle)
                throw ZipError("\"\(entry.name)\": \(message)")
            }
        }
        guard zip_close(handle) == 0 else {
            let message = describe(zip_get_error(handle))
            zip_discard(handle)
            throw ZipError(message)
        }
    }
}

/// A zip archive that cannot be read or written, in words.
public struct ZipError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

private extension ZipArchive {
    /// Whether an entry name, unpacked into a folder, stays inside it. Read as UTF-8 bytes, as
    /// a file system reads it: as Characters, a slash or backslash followed by a combining mark
    /// is one Character, which is not "/" (`../\u{301}x` would hold no `..` part).
    static func staysInside(_ name: String) -> Bool {
        let bytes = name.utf8
        guard bytes.first != UInt8(ascii: "/"), !bytes.contains(UInt8(ascii: "\\")), !bytes.contains(0) else {
            return false
        }
        if name.count >= 2, name.dropFirst().first == ":", name.first?.isLetter == true { return false }
        return !bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).contains {
            $0.elementsEqual("..".utf8)
        }
    }

    /// Why an archive cannot be opened for reading, in words for this case where libzip's
    /// are misleading ("File already exists" for two entries of one name).
    static func describeOpening(code: Int32) -> String {
        switch code {
        case ZIP_ER_EXISTS: "two entries of the archive have the same name"
        case ZIP_ER_OPNOTSUPP, ZIP_ER_SEEK: "not a regular file: a zip archive is read from a file"
        case ZIP_ER_INCONS: "the archive is damaged: its parts disagree"
        default: describe(code: code)
        }
    }

    static func describe(code: Int32) -> String {
        if code == ZIP_ER_NOZIP { return "not a zip file" }
        if let words = words(code) { return words }
        var error = zip_error_t()
        zip_error_init_with_code(&error, code)
        defer { zip_error_fini(&error) }
        return String(cString: zip_error_strerror(&error))
    }

    static func describe(_ error: UnsafeMutablePointer<zip_error_t>?) -> String {
        guard let error else { return "unknown zip error" }
        if zip_error_code_zip(error) == ZIP_ER_NOZIP { return "not a zip file" }
        if let words = words(zip_error_code_zip(error)) { return words }
        return String(cString: zip_error_strerror(error))
    }

    /// Plain words where libzip's speak of its own API ("No password provided").
    static func words(_ code: Int32) -> String? {
        switch code {
        case ZIP_ER_NOPASSWD, ZIP_ER_WRONGPASSWD, ZIP_ER_ENCRNOTSUPP:
            "the entry is encrypted: export it again without a password"
        default: nil
        }
    }
}
