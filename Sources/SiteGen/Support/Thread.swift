#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body` on a new POSIX thread (joinable with `pthread_join`), for loops that block:
/// the HTTP event loop and the file watcher.
func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    pthread_create(
        &thread, nil,
        { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
    return thread
}

private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
