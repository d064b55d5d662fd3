import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one HTTP request: ``CurlHTTPClient`` in real use, anything in tests.
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
