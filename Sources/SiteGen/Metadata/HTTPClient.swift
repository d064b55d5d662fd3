import Foundation

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

/// The real client: Foundation's URLSession (libcurl underneath on Linux).
public struct URLSessionHTTPClient: HTTPClient {
    private let session: URLSession

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    public func send(_ request: URLRequest) async throws -> HTTPResponse {
        var request = request
        #if canImport(FoundationNetworking)
            // FoundationNetworking drops the fraction of a time-out: 0.5 s would time out at once.
            request.timeoutInterval = request.timeoutInterval.rounded(.up)
        #endif
        // The completion-handler API rather than `data(for:)`, whose tuple result is what
        // the optimizer bug above mishandles.
        let session = self.session
        let sent = request
        return try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: sent) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let http = response as? HTTPURLResponse {
                    continuation.resume(returning: HTTPResponse(data: data ?? Data(), response: http))
                } else {
                    continuation.resume(
                        throwing: MetadataError.malformed(
                            "not an HTTP response from \(sent.url?.absoluteString ?? "?")"))
                }
            }.resume()
        }
    }
}
