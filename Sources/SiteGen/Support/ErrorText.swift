import Foundation

/// Words for errors that come from Foundation or the system, for messages people read:
/// the reason ("Permission denied"), never a domain and a code number.
public enum ErrorText {
    /// Why `error` happened, in words.
    public static func reason(_ error: any Error) -> String {
        if let error = error as? FileSystemError { return error.reason }
        if let error = error as? POSIXError { return String(cString: strerror(error.code.rawValue)) }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        if nsError.domain == NSCocoaErrorDomain, let reason = cocoaReasons[nsError.code] { return reason }
        // Through `Any`: on Linux the compiler takes every error for an NSError and would call
        // both tests foregone, though at run time they are not.
        if !(type(of: error as Any) is NSError.Type), let description = (error as Any) as? CustomStringConvertible {
            return description.description
        }
        return nsError.localizedFailureReason ?? nsError.localizedDescription
    }

    /// Whether `error` comes from Foundation or the system (whose own descriptions are a
    /// domain and a number), rather than from sitegen (whose descriptions are messages).
    public static func isFoundationError(_ error: any Error) -> Bool {
        error is CocoaError || error is POSIXError || error is URLError || type(of: error as Any) is NSError.Type
    }

    /// `path: reason` when Foundation named the file, else the reason.
    public static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        let path =
            nsError.userInfo[NSFilePathErrorKey] as? String ?? (nsError.userInfo[NSURLErrorKey] as? URL)?.path
        let reason = reason(error)
        guard let path, !(error is FileSystemError) else { return reason }
        return "\(path): \(reason)"
    }

    private static let cocoaReasons: [Int: String] = [
        CocoaError.fileNoSuchFile.rawValue: "No such file or directory",
        CocoaError.fileReadNoSuchFile.rawValue: "No such file or directory",
        CocoaError.fileReadNoPermission.rawValue: "Permission denied",
        CocoaError.fileWriteNoPermission.rawValue: "Permission denied",
        CocoaError.fileReadCorruptFile.rawValue: "the file is damaged",
        CocoaError.fileReadInapplicableStringEncoding.rawValue: "not text in the expected encoding",
        CocoaError.fileWriteOutOfSpace.rawValue: "No space left on device",
        CocoaError.fileWriteFileExists.rawValue: "File exists",
        CocoaError.fileWriteInvalidFileName.rawValue: "invalid file name",
        CocoaError.fileReadTooLarge.rawValue: "the file is too large",
        CocoaError.fileWriteVolumeReadOnly.rawValue: "Read-only file system",
        CocoaError.fileReadUnknown.rawValue: "cannot read it",
        CocoaError.fileWriteUnknown.rawValue: "cannot write it (a file in the way of a folder, or no permission?)",
        CocoaError.fileLocking.rawValue: "it is locked",
    ]
}
