import Foundation
import Mustache
import Zip

/// The CSV files of an export, from a folder or a zip archive: at its top, or inside its one
/// top folder (an export unzipped and zipped again). Messages name a file inside a zip as
/// `export.zip/diary.csv`.
struct ExportFiles {
    /// The export as named on the command line.
    let shown: String
    private let archive: ZipArchive?
    private let folder: URL?
    /// The folder inside the export that holds the files: "" or `name/`.
    private let prefix: String

    /// Opens `url` (shown as `shown`), looking for any of `names` to find where the files are.
    init(_ url: URL, shown: String, names: [String]) throws(Diagnostic) {
        self.shown = shown
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw Diagnostic("no such file or folder", file: shown)
        }
        let listed: [String]
        if isFolder.boolValue {
            archive = nil
            folder = url
            let top = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            listed =
                top
                + top.flatMap { name in
                    ((try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(name).path)) ?? [])
                        .map { "\(name)/\($0)" }
                }
        } else {
            do {
                let archive = try ZipArchive(path: url.path)
                self.archive = archive
                listed = archive.entryNames
            } catch {
                throw Diagnostic(error.message, file: shown)
            }
            folder = nil
        }
        prefix = Self.folderHolding(names, in: listed)
    }

    /// "" when the export has any of `names` at its top, else `name/` when one folder holds
    /// everything (but hidden files and the `__MACOSX` folder a Mac adds to zips) and one of them.
    static func folderHolding(_ names: [String], in listed: [String]) -> String {
        if listed.contains(where: names.contains) { return "" }
        let firstNames = listed.map { $0[..<($0.firstSlashIndex ?? $0.endIndex)] }
        let tops = Set(firstNames.filter { !$0.isHiddenName && $0 != "__MACOSX" })
        guard tops.count == 1, let top = tops.first else { return "" }
        let inside = Set(names.map { "\(top)/\($0)" })
        return listed.contains(where: inside.contains) ? "\(top)/" : ""
    }

    /// Where messages say the file `name` is.
    func shownPath(_ name: String) -> String {
        "\(shown)/\(prefix)\(name)"
    }

    /// The bytes of `name`, or nil when the export has no such file. Files over 64 MiB are refused.
    func data(_ name: String) throws(Diagnostic) -> Data? {
        let limit = DiskFile.sizeLimit
        if let archive {
            guard archive.entryNames.contains(prefix + name) else { return nil }
            do {
                return try archive.read(prefix + name, limit: limit)
            } catch {
                throw Diagnostic(error.message, file: shown)
            }
        }
        let url = folder!.appendingPathComponent(prefix + name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try DiskFile.read(url.path, limit: limit)
        } catch {
            throw Diagnostic(error.reason, file: shownPath(name))
        }
    }

    /// The CSV file `name` read as a table with `columns`, or nil when the export has no such file.
    func table(_ name: String, columns: [String]) throws(Diagnostic) -> CSVTable? {
        guard let data = try data(name) else { return nil }
        let table = try CSVTable(data, path: shownPath(name))
        try table.require(columns)
        return table
    }
}
