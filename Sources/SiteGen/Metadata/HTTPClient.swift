import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one HTTP request: URLSession in real use, anything in tests.
public protocol HTTPClient: Sendable {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
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

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        var request = request
        #if canImport(FoundationNetworking)
            // FoundationNetworking drops the fraction of a time-out: 0.5 s would time out at once.
            request.timeoutInterval = request.timeoutInterval.rounded(.up)
        #endif
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw MetadataError.malformed("not an HTTP response from \(request.url?.absoluteString ?? "?")")
        }
        return (data, http)
    }
}
