import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one HTTP request: URLSession in real use, anything in tests.
public protocol HTTPClient: Sendable {
    func send(_ request: URLRequest) async throws -> HTTPResponse
}

/// A response's body and head. A struct, not a tuple: async tuple results are miscompiled
/// by the Swift 6.3 optimizer (see ``MetadataProvider/Found``).
public struct HTTPResponse: Sendable {
    public let data: Data
    public let response: HTTPURLResponse

    public init(data: Data, response: HTTPURLResponse) {
        self.data = data
        self.response = response
    }
}

/// The real client: Foundation's URLSession (libcurl underneath on Linux), with two bounds
/// the session lacks: an answer may hold at most `limit` bytes (counted as they arrive, after
/// any decompression, so a 2 GB body or a gzip bomb is stopped, not held), and it must arrive
/// whole within the request's time-out (which URLSession counts only while nothing arrives,
/// so a server sending a byte a second would hold it forever).
public struct URLSessionHTTPClient: HTTPClient {
    /// The default `limit`: far above a poster (a few hundred KB) or an answer of JSON.
    public static let defaultLimit = 32 * 1024 * 1024

    private let session: URLSession
    private let tasks: TaskTable
    public let limit: Int

    public init(limit: Int = defaultLimit) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let tasks = TaskTable()
        self.tasks = tasks
        self.limit = limit
        session = URLSession(configuration: configuration, delegate: tasks, delegateQueue: nil)
    }

    public func send(_ request: URLRequest) async throws -> HTTPResponse {
        var request = request
        #if canImport(FoundationNetworking)
            // FoundationNetworking drops the fraction of a time-out: 0.5 s would time out at once.
            request.timeoutInterval = request.timeoutInterval.rounded(.up)
        #endif
        let (session, tasks, limit, sent) = (self.session, self.tasks, self.limit, request)
        return try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: sent)
            let id = task.taskIdentifier
            tasks.add(id, TaskTable.Pending(continuation: continuation, limit: limit, url: sent.url))
            task.resume()
            DispatchQueue.global().asyncAfter(deadline: .now() + sent.timeoutInterval) {
                if tasks.stop(id, .timedOut) { task.cancel() }
            }
        }
    }
}

/// The answers on their way, by task: their bytes so far, and why one was stopped. The
/// session's delegate, so it sees each piece as it arrives.
final class TaskTable: NSObject, URLSessionDataDelegate, Sendable {
    enum Stop { case tooLarge, timedOut }

    /// One answer on its way; changed only under the table's lock.
    final class Pending: @unchecked Sendable {
        let continuation: CheckedContinuation<HTTPResponse, any Error>
        let limit: Int
        let url: URL?
        var data = Data()
        var stop: Stop?

        init(continuation: CheckedContinuation<HTTPResponse, any Error>, limit: Int, url: URL?) {
            self.continuation = continuation
            self.limit = limit
            self.url = url
        }
    }

    private let pending = Mutex<[Int: Pending]>([:])

    func add(_ id: Int, _ entry: Pending) {
        pending.withLock { $0[id] = entry }
    }

    /// Marks the answer of task `id` stopped for `reason`; false when it already finished or stopped.
    func stop(_ id: Int, _ reason: Stop) -> Bool {
        pending.withLock { table in
            guard let entry = table[id], entry.stop == nil else { return false }
            entry.stop = reason
            return true
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let declared = response.expectedContentLength
        let limit = pending.withLock { $0[dataTask.taskIdentifier]?.limit } ?? Int.max
        if declared > limit, stop(dataTask.taskIdentifier, .tooLarge) {
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = pending.withLock { table -> Bool in
            guard let entry = table[dataTask.taskIdentifier], entry.stop == nil else { return false }
            guard entry.data.count + data.count <= entry.limit else {
                entry.stop = .tooLarge
                entry.data = Data()
                return true
            }
            entry.data.append(data)
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        // Without its api_key: no message prints a credential.
        let url = Transport.display(entry.url)
        switch entry.stop {
        case .tooLarge:
            entry.continuation.resume(
                throwing: MetadataError.malformed(
                    "the answer from \(url) is larger than \(entry.limit / 1024 / 1024) MB, the most sitegen takes"))
        case .timedOut:
            entry.continuation.resume(throwing: URLError(.timedOut))
        case nil:
            if let error {
                entry.continuation.resume(throwing: error)
            } else if let http = task.response as? HTTPURLResponse {
                entry.continuation.resume(returning: HTTPResponse(data: entry.data, response: http))
            } else {
                entry.continuation.resume(throwing: MetadataError.malformed("not an HTTP response from \(url)"))
            }
        }
    }
}
