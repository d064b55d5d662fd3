#if canImport(Glibc)
    import Glibc
#endif

/// One inotify event.
struct WatchEvent {
    let watch: Int32
    let mask: UInt32
    let name: String

    func has(_ flags: Int32) -> Bool { mask & UInt32(flags) != 0 }

    /// A file was created or written to and may still be open: more of the save may follow.
    var isWriting: Bool { !has(IN_ISDIR) && has(IN_CREATE | IN_MODIFY) }

    /// A file's save is over: it was closed after writing, moved into place, or went away.
    var isComplete: Bool { !has(IN_ISDIR) && has(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE) }

    /// The events in the first `count` bytes of `buffer`, as `read` returned them.
    static func parse(_ buffer: [UInt8], count: Int) -> [WatchEvent] {
        var events: [WatchEvent] = []
        var offset = 0
        while offset + MemoryLayout<inotify_event>.size <= count {
            let (watch, mask, length) = buffer.withUnsafeBytes { raw in
                let event = raw.load(fromByteOffset: offset, as: inotify_event.self)
                return (event.wd, event.mask, Int(event.len))
            }
            let nameStart = offset + MemoryLayout<inotify_event>.size
            let nameBytes = buffer[nameStart..<min(count, nameStart + length)].prefix { $0 != 0 }
            events.append(WatchEvent(watch: watch, mask: mask, name: String(decoding: nameBytes, as: UTF8.self)))
            offset = nameStart + length
        }
        return events
    }
}
