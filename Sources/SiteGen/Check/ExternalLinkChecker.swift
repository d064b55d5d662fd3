import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `sitegen check --external`: asks for each link to another site with HEAD, then with GET
/// when HEAD fails or is refused (some servers answer HEAD with 403, 404 or 405), at most
/// `concurrency` requests at once, each given up after `timeout` seconds. A URL that answered
/// with success within the last day is taken from the cache file instead of asked again;
/// failures are always asked again.
public struct ExternalLinkChecker: Sendable {
    public let client: any HTTPClient
    /// `.sitegen/external-links.json` in the site folder.
    public let cacheFile: URL
    public let concurrency: Int
    public let timeout: Double
    /// How long a success is believed: a day.
    public static let maxAge: TimeInterval = 24 * 60 * 60

    public init(client: any HTTPClient, cacheFile: URL, concurrency: Int = 8, timeout: Double = 10) {
        self.client = client
        self.cacheFile = cacheFile
        self.concurrency = concurrency
        self.timeout = timeout
    }

    /// How one URL answered.
    public struct Outcome: Sendable, Equatable {
        /// Nil when it is fine; else why not (`HTTP 404`, `timed out after 10 s`…).
        public let problem: String?
        /// Taken from the cache, not asked.
        public let cached: Bool
    }

    /// The cache file's name in `.sitegen/`.
    public static let cacheName = "external-links.json"

    /// Checks every URL; the cache file is updated with the successes.
    public func check(_ urls: [String], now: Date = Date()) async -> [String: Outcome] {
        // An answer dated after now (a clock set back since) is as stale as an old one.
        var cache = readCache().filter { (0..<Self.maxAge).contains(now.timeIntervalSince1970 - $0.value) }
        var outcomes: [String: Outcome] = [:]
        var asked: [String] = []
        for url in urls {
            if cache[url] != nil { outcomes[url] = Outcome(problem: nil, cached: true) } else { asked.append(url) }
        }
        let limiter = Limiter(limit: max(1, concurrency))
        let answers = await withTaskGroup(of: Answer.self) { group in
            for url in asked {
                group.addTask {
                    await limiter.acquire()
                    let problem = await self.problem(url)
                    await limiter.release()
                    return Answer(url: url, problem: problem)
                }
            }
            var answers: [Answer] = []
            for await answer in group { answers.append(answer) }
            return answers
        }
        for answer in answers {
            outcomes[answer.url] = Outcome(problem: answer.problem, cached: false)
            // A link that carries a user name or password is asked each time rather than kept
            // in a file, which would hold the password in plain text.
            if answer.problem == nil, !Self.carriesCredentials(answer.url) {
                cache[answer.url] = now.timeIntervalSince1970
            }
        }
        writeCache(cache)
        return outcomes
    }
}

private extension ExternalLinkChecker {
    static func carriesCredentials(_ url: String) -> Bool {
        guard let components = URLComponents(string: url) else { return false }
        return components.user != nil || components.password != nil
    }

    /// One URL's answer (a struct, not a tuple, across the task group: see ``MetadataProvider/Found``).
    struct Answer: Sendable {
        let url: String
        let problem: String?
    }

    /// Nil when `url` answers HEAD, or else GET, with a success (after redirects); else why
    /// not. GET is tried only after an HTTP error: a server that cannot be reached for HEAD
    /// cannot be for GET either.
    func problem(_ url: String) async -> String? {
        guard let address = URL(string: url), address.host != nil else { return "not a valid URL" }
        let head = await ask(address, method: "HEAD")
        guard case .status = head else { return head.problem }
        return await ask(address, method: "GET").problem
    }

    /// How a request went.
    enum Reply: Sendable {
        case fine
        case status(Int)
        case failed(String)

        var problem: String? {
            switch self {
            case .fine: nil
            case .status(let code): "HTTP \(code)"
            case .failed(let reason): reason
            }
        }
    }

    func ask(_ url: URL, method: String) async -> Reply {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = timeout
        request.setValue("sitegen/\(SiteGenVersion.current) (link check)", forHTTPHeaderField: "User-Agent")
        do {
            let response = try await client.send(request).response
            return (200..<400).contains(response.statusCode) ? .fine : .status(response.statusCode)
        } catch let error as URLError where error.code == .timedOut {
            return .failed("no answer within \(Self.seconds(timeout)) s")
        } catch {
            return .failed("cannot connect: \(ErrorText.reason(error))")
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// URL → when it last answered with success (seconds since 1970); empty when the file is
    /// missing or damaged (a cache, never a reason to fail).
    func readCache() -> [String: Double] {
        guard let data = try? DiskFile.read(cacheFile.path),
            let decoded = try? JSONDecoder().decode([String: Double].self, from: data)
        else { return [:] }
        return decoded
    }

    func writeCache(_ cache: [String: Double]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(cache) else { return }
        try? FileManager.default.createDirectory(
            at: cacheFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Only a shortcut for the next check: a cache that cannot be written is no error.
        try? AtomicFile.write(data, to: cacheFile)
    }
}
