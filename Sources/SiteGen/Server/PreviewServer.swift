import Allocator
import EventHTTP
import Foundation
import Synchronization

/// `sitegen serve`: the site built in memory and served over HTTP, rebuilt when a file
/// changes, with pages that reload themselves. A failed rebuild keeps the last good site
/// and shows the errors over it until a rebuild succeeds; a site that has not built yet is
/// served as its errors, and built in full after each change until it builds.
public final class PreviewServer: Sendable {
    /// Messages for the person at the terminal.
    public typealias Log = @Sendable (String) -> Void
    /// Called after each rebuild is served, with the update or the errors that stopped it.
    public typealias RebuildObserver = @Sendable (LiveSite.Update?, String?) -> Void

    /// Errors being shown: one fact, in the form each case serves it.
    private enum Failure {
        /// The site has not built: every address gets this page of its errors.
        case unbuilt(page: SharedBytes)
        /// A rebuild failed: the last good site is served with its errors over each page
        /// (this overlay, added as each page is asked for).
        case rebuild(overlay: [UInt8])
    }

    private struct State {
        /// Nil until the site first builds.
        var site: LiveSite?
        var served: [String: ServedFile] = [:]
        /// Counts the sites served, so a page made for one is not kept for the next.
        var generation = 0
        /// The pending pages of `site` made so far (their entries in `served`, if any, are
        /// their bytes before the update).
        var made: [String: ServedFile] = [:]

        /// The last build's errors, shown until a build succeeds.
        var failure: Failure?

        /// Serves `site` from now on: pages made for the one before are dropped.
        mutating func take(_ site: LiveSite) {
            self.site = site
            generation += 1
            made = [:]
        }
        /// Paths whose change failed to build, retried with the next change.
        var failedPaths: Set<String> = []
        /// The wait before trying again a rebuild that failed for lack of open files (doubled
        /// each time, up to ``longestRetryDelay``); nil when none failed so.
        var retryDelay: Double?
        var stopped = false
        var clients: [ObjectIdentifier: HTTPExchange] = [:]
        var started = false
        var heartbeat: Heartbeat?
        var onRebuild: RebuildObserver?
        var onWarnings: (@Sendable ([Diagnostic]) -> Void)?
        var beforeCompleting: (@Sendable () -> Void)?
        /// The warnings shown so far, by file.
        var ledger = WarningLedger()
    }

    /// The address the pages name as theirs (their canonical address, the feed's): where the
    /// server listens, or its loopback address when it listens on every interface, as no
    /// browser opens `0.0.0.0` (Chrome refuses it).
    public let url: String
    /// When it listens on every interface: the addresses other devices open it at.
    public let networkURLs: [String]
    private let builder: SiteBuilder
    /// Watching from before the first build, so that a save during it is not missed: its
    /// events wait until ``start()``.
    private let watcher: Watcher
    private let log: Log
    private let state: Mutex<State>
    private let http: HTTPServer
    private let rebuilds = DispatchQueue(label: "sitegen.rebuild")
    /// Rebuilds asked for and not yet started: one waiting stops the pages of the current one
    /// being made, and goes on from where it stopped.
    private let waiting = Atomic<Int>(0)

    /// How often each live-reload stream gets a comment, so that it is never idle long enough
    /// to be closed (``HTTPLimits/idleSeconds``) while nothing is rebuilt: a browser reconnects
    /// a few seconds later, and a save in between would reload nothing.
    private let heartbeatSeconds: Double

    /// Binds the port, then builds the site for its address. A folder without `site.yml` is an
    /// error (nothing here is a site); a site that does not build is served as its errors.
    public convenience init(options: SiteBuilder.Options, host: String, port: Int, log: @escaping Log) throws {
        try self.init(options: options, host: host, port: port, limits: HTTPLimits(), heartbeatSeconds: 25, log: log)
    }

    /// ``init(options:host:port:log:)`` with other limits, and something to do once the files
    /// are watched and before the first build (tests).
    init(
        options: SiteBuilder.Options, host: String, port: Int, limits: HTTPLimits, heartbeatSeconds: Double,
        log: @escaping Log, beforeFirstBuild: () throws -> Void = {}
    ) throws {
        self.log = log
        self.heartbeatSeconds = heartbeatSeconds
        let relay = Relay()
        http = try HTTPServer(host: host, port: port, limits: limits, log: log) { request, exchange in
            guard let server = relay.server else {
                return exchange.respond(status: 503, headers: [("Retry-After", "1")], body: Array("Starting\n".utf8))
            }
            server.handle(request, exchange)
        }
        url = Self.url(host: host, port: http.port, allInterfaces: http.allInterfaces)
        let port = http.port
        networkURLs =
            http.allInterfaces.map { family in
                InterfaceAddresses.list(ipv6: family == .ipv6).map {
                    Self.url(host: $0, port: port, allInterfaces: nil)
                }
            } ?? []
        watcher = try Watcher(
            root: options.source.path,
            watched: ["content", Theme.folderName, "static", SiteConfig.fileName, MetadataCache.folderName]
        ) { paths in
            relay.server?.rebuild(paths)
        }
        var options = options
        options.baseURL = BaseURL(url)
        builder = SiteBuilder(options: options)
        try beforeFirstBuild()
        do {
            let site = try LiveSite.build(builder)
            state = Mutex(
                State(
                    site: site, served: Self.serve(site.files, overlay: nil),
                    ledger: WarningLedger(site.content.warnings)))
        } catch {
            let config = options.source.appendingPathComponent(SiteConfig.fileName).path
            guard let kind = DiskFile.kind(config), kind != .folder else { throw error }
            state = Mutex(State(site: nil, failure: .unbuilt(page: LiveReload.errorPage("\(error)"))))
            log("\(Self.unbuilt)\n\(error)")
        }
        relay.server = self
        // The first build's scratch goes back to the system before anything is served.
        Allocator.releaseFreeMemory()
    }

    /// `http://host:port/`, an IPv6 address in brackets; the loopback address of the family
    /// for every interface.
    static func url(host: String, port: Int, allInterfaces: AllInterfaces?) -> String {
        let shown =
            switch allInterfaces {
            case .ipv4?: "127.0.0.1"
            case .ipv6?: "[::1]"
            case nil: host.contains(":") ? "[\(host)]" : host
            }
        return "http://\(shown):\(port)/"
    }

    /// Called after each rebuild is served (tests and the benchmark wait on it).
    public var onRebuild: RebuildObserver? {
        get { state.withLock { $0.onRebuild } }
        set { state.withLock { $0.onRebuild = newValue } }
    }

    /// Called with warnings not shown before: those of the first build when the site did not
    /// build at the start (those of a site that did are ``warnings``), then those each rebuild
    /// brings (an edit that adds an unknown field, or dates a review after today).
    public var onWarnings: (@Sendable ([Diagnostic]) -> Void)? {
        get { state.withLock { $0.onWarnings } }
        set { state.withLock { $0.onWarnings = newValue } }
    }

    /// Called once the pages an update touches are served and before they are all made
    /// (tests hold the rebuild there).
    var beforeCompleting: (@Sendable () -> Void)? {
        get { state.withLock { $0.beforeCompleting } }
        set { state.withLock { $0.beforeCompleting = newValue } }
    }

    /// The port being served.
    public var port: Int { http.port }

    /// Problems found while loading the site that do not stop it (a review with nothing cached…).
    public var warnings: [Diagnostic] { state.withLock { $0.site?.content.warnings ?? [] } }

    /// The log's line before the errors while the site has not built.
    static let unbuilt = "The site did not build; serving its errors until a change builds it:"

    /// Starts serving and watching.
    public func start() throws {
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        http.start()
        watcher.start()
        let heartbeat = Heartbeat(every: heartbeatSeconds) { [weak self] in
            self?.send(Array(": keep-alive\n\n".utf8))
        }
        state.withLock { $0.heartbeat = heartbeat }
    }

    /// The bytes sent for the files served (for tests).
    var servedBytes: Int { state.withLock { $0.served.values.reduce(0) { $0 + $1.count } } }

    /// The page served at `path` and the site's bytes for it (for tests).
    func heldPage(_ path: String) -> (served: Data?, built: Data?) {
        state.withLock { ($0.served[path]?.page, $0.site?.files[path]) }
    }

    /// The folders being watched, relative to the site folder (for tests).
    var watchedFolders: [String] { watcher.watchedFolders }

    /// Stops watching, closes every connection and frees the port.
    public func stop() {
        let heartbeat = state.withLock { state in
            state.stopped = true
            return state.heartbeat
        }
        watcher.stop()
        heartbeat?.cancel()
        http.stop()
    }

    /// Rebuilds after `paths` changed (relative to the site folder), then tells every page.
    /// The pages an update touches are served as soon as everything is read and checked,
    /// each made when first asked for, while the rest are made; a rendering error then puts
    /// the last good site back, as any failed rebuild does. A change that comes while the
    /// rest are being made stops that: its rebuild goes on from there, and reports both.
    public func rebuild(_ paths: Set<String>) {
        waiting.add(1, ordering: .sequentiallyConsistent)
        rebuilds.async { [self] in
            waiting.subtract(1, ordering: .sequentiallyConsistent)
            // What the replaced site and the rebuild's scratch held goes back to the system
            // once the pages are served, so the server does not stay at its largest rebuild's size.
            defer { Allocator.releaseFreeMemory() }
            let clock = ContinuousClock()
            let start = clock.now
            let (site, retry) = state.withLock { ($0.site, $0.failedPaths) }
            guard let site else { return buildAfresh(since: start) }
            // The files this rebuild serves anew before it has finished: a failure serves them as
            // they were (every other file still is; the errors are added to each page as asked for).
            var shown: [String] = []
            // The warnings shown before this rebuild, kept again if it fails (only this queue
            // changes them).
            let ledger = state.withLock { $0.ledger }
            do {
                // Only this queue sets or clears the errors, so they can be read before the
                // files are prepared (on every core, while requests are still answered).
                let hadErrors = state.withLock { $0.failure != nil }
                let deferred = try site.deferredUpdate(paths.union(retry))
                let warnings = state.withLock { $0.ledger.record(deferred.lastReading) }
                if !deferred.pending.isEmpty {
                    shown = deferred.lastUpdate.changedFiles
                    show(deferred, changed: shown, replacingAll: false)
                    broadcast("reload")
                    beforeCompleting?()
                }
                guard let updated = try deferred.completed(unless: { waiting.load(ordering: .relaxed) > 0 }) else {
                    state.withLock { $0.failedPaths = [] }
                    report(warnings)
                    return
                }
                let changed = updated.lastUpdate.changedFiles
                show(updated, changed: changed, replacingAll: false)
                state.withLock {
                    $0.failedPaths = []
                    $0.retryDelay = nil
                }
                let elapsed = clock.now - start
                // After a failed rebuild every page changes as served (the errors leave it).
                let cleared = hadErrors ? "; the errors are fixed" : ""
                let files = changed.count == 1 ? "1 file" : "\(changed.count) files"
                log("Rebuilt (\(files) changed\(cleared)) in \(Self.milliseconds(elapsed)) ms")
                report(warnings)
                if deferred.pending.isEmpty, !changed.isEmpty || hadErrors {
                    broadcast(updated.lastUpdate.onlyStylesheets && !hadErrors ? "css" : "reload")
                }
                onRebuild?(updated.lastUpdate, nil)
            } catch {
                let message = "\(error)"
                let overlay = Array(LiveReload.overlayHTML(message).utf8)
                let files = site.files
                let restored = shown.parallelMap { path in
                    (path, files[path].map { ServedFile(path: path, data: $0, overlay: nil) })
                }
                state.withLock { state in
                    state.take(site)
                    state.failure = .rebuild(overlay: overlay)
                    state.ledger = ledger
                    state.failedPaths.formUnion(paths)
                    for (path, file) in restored { state.served[path] = file }
                }
                log("Rebuild failed; still serving the last good site:\n\(message)")
                broadcast("reload")
                onRebuild?(nil, message)
                retryIfTransient(message)
            }
        }
    }

    /// The longest wait before trying again a rebuild that failed for lack of open files.
    static let longestRetryDelay = 30.0

    /// Tries the failed rebuild again, without a save, when it failed for lack of open files
    /// (the process's limit, reached while many connections were open): once they close it
    /// succeeds, where the errors would have stayed until the next save. Waits 1 s, then twice
    /// as long each time it fails so again, up to ``longestRetryDelay``.
    private func retryIfTransient(_ message: String) {
        let transient = [EMFILE, ENFILE].contains { message.contains(String(cString: strerror($0))) }
        let delay: Double? = state.withLock { state in
            guard transient, !state.stopped else {
                state.retryDelay = nil
                return nil
            }
            let delay = min((state.retryDelay ?? 0.5) * 2, Self.longestRetryDelay)
            state.retryDelay = delay
            return delay
        }
        guard let delay else { return }
        log("Trying again in \(Int(delay)) s: the rebuild ran out of open files")
        rebuilds.asyncAfter(deadline: .now() + delay) { [self] in
            guard !state.withLock({ $0.stopped }) else { return }
            rebuild([])
        }
    }

    /// Hands `warnings` to ``onWarnings``, if there are any.
    private func report(_ warnings: [Diagnostic]) {
        guard !warnings.isEmpty else { return }
        state.withLock { $0.onWarnings }?(warnings)
    }

    /// Builds the site that has not built yet, and serves it or its errors.
    private func buildAfresh(since start: ContinuousClock.Instant) {
        do {
            let site = try LiveSite.build(builder)
            show(site, changed: [], replacingAll: true)
            state.withLock {
                $0.failedPaths = []
                $0.retryDelay = nil
            }
            let elapsed = ContinuousClock.now - start
            log("Built (\(site.files.count) files; the errors are fixed) in \(Self.milliseconds(elapsed)) ms")
            state.withLock { $0.ledger = WarningLedger(site.content.warnings) }
            report(site.content.warnings)
            broadcast("reload")
            onRebuild?(site.lastUpdate, nil)
        } catch {
            let message = "\(error)"
            let page = LiveReload.errorPage(message)
            state.withLock { $0.failure = .unbuilt(page: page) }
            log("\(Self.unbuilt)\n\(message)")
            broadcast("reload")
            onRebuild?(nil, message)
            retryIfTransient(message)
        }
    }

    /// Serves `site`: the files at `changed` anew (a pending page is made when asked for),
    /// or every file when `replacingAll` (a site built in full); the errors' overlay is gone.
    private func show(_ site: LiveSite, changed: [String], replacingAll: Bool) {
        let files = site.files
        let served = replacingAll ? Self.serve(files, overlay: nil) : nil
        let made = replacingAll ? [] : changed.filter { site.pending[$0] == nil }
        let fresh = made.parallelMap { path in
            (path, files[path].map { ServedFile(path: path, data: $0, overlay: nil) })
        }
        state.withLock { state in
            state.take(site)
            state.failure = nil
            if let served {
                state.served = served
            } else {
                for (path, file) in fresh { state.served[path] = file }
            }
        }
    }
}

private extension PreviewServer {
    static func serve(_ files: [String: Data], overlay: String?) -> [String: ServedFile] {
        Dictionary(
            uniqueKeysWithValues: Array(files).parallelMap {
                ($0.key, ServedFile(path: $0.key, data: $0.value, overlay: overlay))
            })
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    func handle(_ request: HTTPRequest, _ exchange: HTTPExchange) {
        // Every resource allows GET and HEAD only; evhttp answers methods it does not know with 501.
        guard request.method == "GET" || request.method == "HEAD" else {
            return exchange.respond(
                status: 405, headers: [("Allow", "GET, HEAD"), ("Content-Type", "text/plain")],
                body: Array("405 Method Not Allowed\n".utf8))
        }
        if request.target == LiveReload.eventsPath || request.target.hasPrefix(LiveReload.eventsPath + "?") {
            // HEAD gets the stream's headers and ends: a stream left open held the connection.
            guard request.method == "GET" else {
                return exchange.respond(
                    status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")],
                    body: [])
            }
            return subscribe(exchange)
        }
        // The site only while it has pending pages: most requests need just the served files.
        let (served, site, generation, failure) = state.withLock {
            ($0.served, $0.site.flatMap { $0.pending.isEmpty ? nil : $0 }, $0.generation, $0.failure)
        }
        let overlay: [UInt8]?
        switch failure {
        case .unbuilt(let errorPage)?:
            // A malformed target is one whatever the site holds.
            if case .bad = RequestPath.resolve(request.target, exists: { _ in false }) {
                return badRequest(exchange)
            }
            // Every other path: the site has no files yet, and its own 404 page is one of them.
            return exchange.respond(
                status: 500,
                headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")],
                body: errorPage)
        case .rebuild(let shown)?: overlay = shown
        case nil: overlay = nil
        }
        // A page the last update left pending is made for the first request that asks for it
        // (with the errors of a failed rebuild over it, as over every page).
        let file = { (path: String) -> ServedFile? in
            guard let site, site.pending[path] != nil else { return served[path]?.overlaid(overlay) }
            if let made = self.state.withLock({ $0.generation == generation ? $0.made[path] : nil }) {
                return made.overlaid(overlay)
            }
            do {
                guard let data = try site.page(path) else { return nil }
                let made = ServedFile(path: path, data: data, overlay: nil)
                self.state.withLock { if $0.generation == generation { $0.made[path] = made } }
                return made.overlaid(overlay)
            } catch {
                // The rebuild fails on it too, and puts the last good site back.
                return ServedFile(path: path, data: site.files[path] ?? Data(), overlay: "\(error)")
            }
        }
        switch RequestPath.resolve(request.target, exists: { served[$0] != nil || site?.pending[$0] != nil }) {
        case .bad:
            badRequest(exchange)
        case .redirect(let location):
            exchange.respond(
                status: 301, headers: [("Location", location), ("Content-Type", "text/plain")],
                body: Array("Moved to \(location)\n".utf8))
        case .file(let path):
            guard let file = file(path) else {
                let notFound = file("404.html")
                return exchange.respond(
                    status: 404, headers: [("Content-Type", notFound?.contentType ?? "text/plain")],
                    body: notFound?.body ?? SharedBytes(Array("404 Not Found\n".utf8)))
            }
            var headers = [
                ("Content-Type", file.contentType), ("ETag", file.etag), ("Cache-Control", "no-cache"),
                ("Accept-Ranges", "bytes"),
            ]
            if let header = request.headers["if-none-match"], IfNoneMatch.matches(header, etag: file.etag) {
                return exchange.respond(
                    status: 304, headers: [("ETag", file.etag), ("Cache-Control", "no-cache")], body: [])
            }
            // A range is read for GET only (RFC 9110, 14.2), and only of the file as it is now.
            guard request.method == "GET", let header = request.headers["range"],
                IfRange.allowsRange(request.headers["if-range"], etag: file.etag)
            else {
                return exchange.respond(status: 200, headers: headers, body: file.body)
            }
            switch ByteRange.of(header, length: file.count) {
            case .whole:
                exchange.respond(status: 200, headers: headers, body: file.body)
            case .part(let part):
                headers.append(("Content-Range", "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(file.count)"))
                exchange.respond(status: 206, headers: headers, body: file.body, part: part)
            case .unsatisfiable:
                exchange.respond(
                    status: 416,
                    headers: [("Content-Range", "bytes */\(file.count)"), ("Content-Type", "text/plain")],
                    body: Array("416 Range Not Satisfiable\n".utf8))
            }
        }
    }

    func badRequest(_ exchange: HTTPExchange) {
        exchange.respond(status: 400, headers: [("Content-Type", "text/plain")], body: Array("400 Bad Request\n".utf8))
    }

    /// Keeps the connection open and sends an event after each rebuild.
    func subscribe(_ exchange: HTTPExchange) {
        let id = ObjectIdentifier(exchange)
        state.withLock { $0.clients[id] = exchange }
        exchange.startStream(
            status: 200,
            headers: [
                ("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"), ("X-Accel-Buffering", "no"),
            ]
        ) { [weak self] in
            _ = self?.state.withLock { $0.clients.removeValue(forKey: id) }
        }
        exchange.send(Array(": connected\n\n".utf8))
    }

    func broadcast(_ event: String) {
        send(Array("event: \(event)\ndata: \(event)\n\n".utf8))
    }

    /// Sends `message` on every live-reload stream.
    func send(_ message: [UInt8]) {
        let clients = state.withLock { Array($0.clients.values) }
        for client in clients { client.send(message) }
    }
}

/// A repeating timer on a queue of its own, until cancelled.
private final class Heartbeat: @unchecked Sendable {
    /// Only set up here and cancelled: a dispatch source may be cancelled from any thread.
    private let timer: DispatchSourceTimer

    init(every seconds: Double, _ beat: @escaping @Sendable () -> Void) {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "sitegen.heartbeat"))
        timer.schedule(deadline: .now() + seconds, repeating: seconds)
        timer.setEventHandler(handler: beat)
        timer.resume()
    }

    func cancel() {
        timer.cancel()
    }
}

/// Lets the HTTP handler reach the server it was made for, once the server exists.
private final class Relay: Sendable {
    private struct Reference {
        weak var server: PreviewServer?
    }

    private let reference = Mutex(Reference())

    var server: PreviewServer? {
        get { reference.withLock { $0.server } }
        set { reference.withLock { $0.server = newValue } }
    }
}
