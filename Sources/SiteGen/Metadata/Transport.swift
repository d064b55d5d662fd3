import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How hard to try: attempts, backoff and per-request time-out.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts per request, the first included.
    public var attempts: Int
    /// The first backoff delay in seconds; it doubles each retry, with jitter.
    public var baseDelay: Double
    public var maxDelay: Double
    /// The longest `Retry-After` honoured, in seconds.
    public var maxRetryAfter: Double
    /// Seconds before a request with no answer is given up.
    public var timeout: Double

    public init(
        attempts: Int = 3, baseDelay: Double = 0.5, maxDelay: Double = 8, maxRetryAfter: Double = 60,
        timeout: Double = 15
    ) {
        self.attempts = attempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.timeout = timeout
    }
}

/// Sends requests with a bound on how many are in flight, retrying 429 (after
/// `Retry-After`), 5xx and time-outs with exponential backoff and jitter, and decodes
/// responses: the one fetch-and-decode path every provider uses.
public struct Transport: Sendable {
    public let client: any HTTPClient
    public let policy: RetryPolicy
    let limiter: Limiter

    public init(client: any HTTPClient, policy: RetryPolicy = RetryPolicy(), maxInFlight: Int = 8) {
        self.client = client
        self.policy = policy
        self.limiter = Limiter(limit: max(1, maxInFlight))
    }

    /// The body of a successful response to `request`.
    func data(_ request: URLRequest) async throws(MetadataError) -> Data {
        var request = request
        request.timeoutInterval = policy.timeout
        let url = Self.display(request.url)
        var lastError = MetadataError.network("no attempt made")
        for attempt in 1...max(1, policy.attempts) {
            var wait = backoff(attempt)
            do {
                await limiter.acquire()
                let result: HTTPResponse
                do {
                    result = try await client.send(request)
                } catch {
                    await limiter.release()
                    throw error
                }
                await limiter.release()
                let body = result.data
                let response = result.response
                switch response.statusCode {
                case 200..<300:
                    return body
                case 404:
                    throw MetadataError.notFound(url)
                case 429:
                    lastError = .http(status: 429, url: url)
                    if let after = retryAfter(response) { wait = after }
                case 500..<600:
                    lastError = .http(status: response.statusCode, url: url)
                default:
                    throw MetadataError.http(status: response.statusCode, url: url)
                }
            } catch let error as MetadataError {
                throw error
            } catch let error as URLError {
                lastError =
                    error.code == .timedOut ? .timedOut(url: url) : .network("\(error.localizedDescription) (\(url))")
            } catch {
                lastError = .network("\(error) (\(url))")
            }
            if attempt < policy.attempts {
                try? await Task.sleep(nanoseconds: UInt64(max(0, wait) * 1_000_000_000))
            }
        }
        throw lastError
    }

    /// Fetches and decodes JSON.
    func decode<Response: Decodable>(_ type: Response.Type, _ request: URLRequest) async throws(MetadataError)
        -> Response
    {
        let body = try await data(request)
        do {
            return try JSONDecoder().decode(Response.self, from: body)
        } catch {
            throw MetadataError.malformed("\(Self.display(request.url)): \(Self.describe(error))")
        }
    }

    /// A URL as messages show it: without its `api_key`, so no error prints a credential.
    static func display(_ url: URL?) -> String {
        guard let url else { return "?" }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let items = components.percentEncodedQueryItems, items.contains(where: { $0.name == "api_key" })
        else { return url.absoluteString }
        let kept = items.filter { $0.name != "api_key" }
        components.percentEncodedQueryItems = kept.isEmpty ? nil : kept
        return components.string ?? url.absoluteString
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        case DecodingError.dataCorrupted: "not valid JSON"
        default: "\(error)"
        }
    }

    /// Exponential backoff with jitter: base·2^(attempt-1), at most `maxDelay`, times 0.5–1.
    func backoff(_ attempt: Int) -> Double {
        min(policy.maxDelay, policy.baseDelay * pow(2, Double(attempt - 1))) * Double.random(in: 0.5...1)
    }

    /// `Retry-After` as seconds (a number or an HTTP date), capped.
    func retryAfter(_ response: HTTPURLResponse) -> Double? {
        guard let value = response.value(forHTTPHeaderField: "Retry-After")?.trimmingCharacters(in: .whitespaces) else {
            return nil
        }
        if let seconds = Double(value) { return min(max(0, seconds), policy.maxRetryAfter) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return min(max(0, date.timeIntervalSinceNow), policy.maxRetryAfter)
    }
}

/// A counting semaphore for async code: at most `limit` holders at once.
actor Limiter {
    let limit: Int
    private var inUse = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        self.limit = limit
    }

    func acquire() async {
        if inUse < limit {
            inUse += 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty {
            inUse -= 1
        } else {
            waiters.removeFirst().resume()
        }
    }
}
