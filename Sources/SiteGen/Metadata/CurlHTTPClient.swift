internal import CCurl
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real client: libcurl's easy interface, one transfer on a thread of its own (``Transport``
/// bounds how many at once). Unlike URLSession, whose delegate hears of each piece only after
/// it has been queued (so a fast answer piles up in memory faster than it can be refused), curl
/// hands each piece over before reading the next, which gives three bounds: an answer may hold
/// at most `limit` bytes, counted after any decompression (a gzip bomb is stopped after `limit`
/// bytes, not held); it must arrive whole within the request's time-out (a server sending a
/// byte a second is given up); and only http and https are ever spoken. Redirects are followed
/// here rather than by curl, at most ``maxRedirects`` of them, and one that leaves the
/// request's scheme, host and port drops every header but `Accept` and `User-Agent`: a token or
/// a client secret never reaches another server. This file is the only one that sees libcurl.
public struct CurlHTTPClient: HTTPClient {
    /// The default `limit`: far above a poster (a few hundred KB) or an answer of JSON.
    public static let defaultLimit = 32 * 1024 * 1024
    /// Redirects followed for one request.
    public static let maxRedirects = 10
    /// The most bytes of response headers taken for one answer.
    static let headerLimit = 256 * 1024

    public let limit: Int
    /// Whether answers end at their head: the body is not read (an answer's status is all a
    /// link check needs, and a linked video need not be downloaded, nor refused as too large).
    public let headOnly: Bool

    public init(limit: Int = defaultLimit, headOnly: Bool = false) {
        self.limit = limit
        self.headOnly = headOnly
        Self.startCurl()
    }

    public func send(_ request: URLRequest) async throws -> HTTPResponse {
        let (limit, headOnly) = (self.limit, self.headOnly)
        return try await withCheckedThrowingContinuation { continuation in
            // curl_easy_perform blocks its thread for the whole transfer: not one of Swift's
            // cooperative threads.
            Thread.detachNewThread {
                continuation.resume(with: Result { try Self.follow(request, limit: limit, headOnly: headOnly) })
            }
        }
    }
}

/// Why a transfer failed, in curl's words.
struct CurlError: Error, CustomStringConvertible {
    let description: String
}

extension CurlHTTPClient {
    private static let started: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    static func startCurl() {
        _ = started
    }

    /// The answer to `request`, after its redirects.
    static func follow(_ request: URLRequest, limit: Int, headOnly: Bool = false) throws -> HTTPResponse {
        guard var url = request.url else { throw CurlError(description: "no URL") }
        var headers = request.allHTTPHeaderFields ?? [:]
        let origin = Origin(url)
        let deadline = Date(timeIntervalSinceNow: request.timeoutInterval)
        for _ in 0...maxRedirects {
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw CurlError(description: "refused to fetch \(Transport.display(url)): only http and https are used")
            }
            let transfer = Transfer(limit: limit, headOnly: headOnly)
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw URLError(.timedOut) }
            let response = try transfer.perform(
                url: url, method: request.httpMethod ?? "GET", headers: headers, timeout: remaining)
            guard [301, 302, 303, 307, 308].contains(response.response.statusCode),
                let location = response.response.value(forHTTPHeaderField: "Location"),
                let next = URL(string: location, relativeTo: url)?.absoluteURL
            else { return response }
            if Origin(next) != origin {
                headers = headers.filter { ["accept", "user-agent"].contains($0.key.lowercased()) }
            }
            url = next
        }
        throw CurlError(description: "more than \(maxRedirects) redirects from \(Transport.display(request.url))")
    }

    /// Scheme, host and port: what a redirect must keep for the request's credentials to follow it.
    struct Origin: Equatable {
        let scheme: String?
        let host: String?
        let port: Int?

        init(_ url: URL) {
            scheme = url.scheme?.lowercased()
            host = url.host?.lowercased()
            port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
        }
    }

    /// One request and its answer, without following redirects.
    final class Transfer {
        let limit: Int
        let headOnly: Bool
        var body = Data()
        var tooLarge = false
        /// Set when a head-only transfer was stopped at the first byte of its body.
        var stoppedAtBody = false
        var headerBytes = 0
        var headers: [String: String] = [:]

        init(limit: Int, headOnly: Bool) {
            self.limit = limit
            self.headOnly = headOnly
        }

        func perform(url: URL, method: String, headers sent: [String: String], timeout: Double) throws
            -> HTTPResponse
        {
            guard let handle = curl_easy_init() else { throw CurlError(description: "cannot start libcurl") }
            defer { curl_easy_cleanup(handle) }
            var list: UnsafeMutablePointer<curl_slist>?
            defer { curl_slist_free_all(list) }
            for (name, value) in sent.sorted(by: { $0.key < $1.key }) {
                // A line break in a value would start a header of its own.
                let clean = value.filter { $0 != "\r" && $0 != "\n" }
                list = curl_slist_append(list, "\(name): \(clean)")
            }
            if sent.keys.allSatisfy({ $0.lowercased() != "user-agent" }) {
                list = curl_slist_append(list, "User-Agent: sitegen/\(SiteGenVersion.current)")
            }
            var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
            let code = url.absoluteString.withCString { address in
                errorText.withUnsafeMutableBufferPointer { errorBuffer in
                    let me = Unmanaged.passUnretained(self).toOpaque()
                    sitegen_curl_set_pointer(handle, CURLOPT_URL, address)
                    sitegen_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer.baseAddress)
                    sitegen_curl_set_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https")
                    sitegen_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0)
                    sitegen_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
                    // Every encoding curl can undo (gzip, deflate, br, zstd as built), undone before
                    // the bytes are counted.
                    sitegen_curl_set_pointer(handle, CURLOPT_ACCEPT_ENCODING, "")
                    let milliseconds = max(1, Int(timeout * 1000))
                    sitegen_curl_set_long(handle, CURLOPT_TIMEOUT_MS, milliseconds)
                    sitegen_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
                    if !headOnly { sitegen_curl_set_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit)) }
                    sitegen_curl_set_pointer(handle, CURLOPT_HTTPHEADER, list)
                    sitegen_curl_set_write(handle, CURLOPT_WRITEFUNCTION, Self.bodyPiece)
                    sitegen_curl_set_pointer(handle, CURLOPT_WRITEDATA, me)
                    sitegen_curl_set_write(handle, CURLOPT_HEADERFUNCTION, Self.headerLine)
                    sitegen_curl_set_pointer(handle, CURLOPT_HEADERDATA, me)
                    switch method {
                    case "GET": break
                    case "HEAD": sitegen_curl_set_long(handle, CURLOPT_NOBODY, 1)
                    default: method.withCString { _ = sitegen_curl_set_pointer(handle, CURLOPT_CUSTOMREQUEST, $0) }
                    }
                    return curl_easy_perform(handle)
                }
            }
            if tooLarge || code == CURLE_FILESIZE_EXCEEDED {
                throw MetadataError.malformed(
                    "the answer from \(Transport.display(url)) is larger than \(limit / 1024 / 1024) MB, the most sitegen takes"
                )
            }
            switch code {
            case CURLE_OK: break
            case CURLE_WRITE_ERROR where stoppedAtBody: break
            case CURLE_OPERATION_TIMEDOUT: throw URLError(.timedOut)
            default:
                let detail = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw CurlError(description: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
            }
            var status = 0
            sitegen_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
            guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: headers)
            else { throw MetadataError.malformed("not an HTTP response from \(Transport.display(url))") }
            return HTTPResponse(data: body, response: response)
        }

        /// curl's write callback: takes a piece of the body, or stops the transfer (by taking
        /// none of it) once the body would pass the limit.
        static let bodyPiece: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int =
            {
                bytes, size, count, context in
                guard let bytes, let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                let length = size * count
                if transfer.headOnly {
                    transfer.stoppedAtBody = true
                    return 0
                }
                guard transfer.body.count + length <= transfer.limit else {
                    transfer.tooLarge = true
                    transfer.body = Data()
                    return 0
                }
                transfer.body.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: length)
                return length
            }

        /// curl's header callback: one line of the answer's head. A status line starts the
        /// head again (an interim `100 Continue`).
        static let headerLine:
            @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
                bytes, size, count, context in
                guard let bytes, let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                let length = size * count
                transfer.headerBytes += length
                guard transfer.headerBytes <= CurlHTTPClient.headerLimit else { return 0 }
                let line = String(
                    decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self
                ).trimmingCharacters(in: .whitespacesAndNewlines)
                if line.hasPrefix("HTTP/") {
                    transfer.headers = [:]
                } else if let colon = line.firstIndex(of: ":") {
                    let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
                    let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                    if let earlier = transfer.headers[name] {
                        transfer.headers[name] = earlier + ", " + value
                    } else {
                        transfer.headers[name] = value
                    }
                }
                return length
            }
    }
}
