import Foundation

/// The files of a built site: how many, their total size and the largest one published (the
/// output folder's hidden record, `.sitegen-output`, counts in the total but is not published).
struct OutputSummary {
    var files = 0
    var bytes = 0
    var largest = (path: "", bytes: 0)

    /// Every regular file under `folder`.
    init(folder: URL) {
        let keys: [URLResourceKey] = [.fileSizeKey, .isRegularFileKey]
        let base = folder.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) else { return }
        for case let url as URL in walker {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else {
                continue
            }
            let size = values.fileSize ?? 0
            files += 1
            bytes += size
            if size > largest.bytes, !url.lastPathComponent.hasPrefix(".") {
                largest = (String(url.standardizedFileURL.path.dropFirst(base.count + 1)), size)
            }
        }
    }
}

/// Human-readable figures.
enum Show {
    static func seconds(_ value: Double) -> String {
        value < 10 ? String(format: "%.2f s", value) : String(format: "%.1f s", value)
    }

    static func milliseconds(_ value: Double) -> String {
        String(format: "%.0f ms", value * 1000)
    }

    /// Bytes as KB, MB or GB (powers of 1000, as `ls -l --si`).
    static func bytes(_ value: Int) -> String {
        let amount = Double(value)
        if amount >= 1e9 { return String(format: "%.2f GB", amount / 1e9) }
        if amount >= 1e6 { return String(format: "%.1f MB", amount / 1e6) }
        if amount >= 1e3 { return String(format: "%.1f KB", amount / 1e3) }
        return "\(value) B"
    }

    /// Kilobytes (`ru_maxrss`) as MB.
    static func memory(_ kilobytes: Int) -> String {
        String(format: "%.0f MB", Double(kilobytes) * 1024 / 1e6)
    }

    static func count(_ value: Int) -> String {
        value.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
