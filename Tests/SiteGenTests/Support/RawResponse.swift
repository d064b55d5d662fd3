import Foundation

/// An HTTP/1.1 response as read off a socket: status, headers and body, nothing tidied up.
struct RawResponse: CustomStringConvertible {
    let status: Int
    /// Header names lowercased, in the order sent.
    let headerList: [(name: String, value: String)]
    let body: [UInt8]

    /// Parses a whole response; a chunked body is put back together.
    init(_ bytes: [UInt8]) throws {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw Malformed(text: String(decoding: bytes, as: UTF8.self))
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Malformed(text: head[0]) }
        self.status = status
        headerList = head.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            )
        }
        let rest = Array(bytes[(end + separator.count)...])
        let chunked = headerList.contains { $0.name == "transfer-encoding" && $0.value.lowercased() == "chunked" }
        body = chunked ? Self.dechunk(rest) : rest
    }

    /// The value of header `name` (any case), when sent once or more (joined with `, `).
    func header(_ name: String) -> String? {
        let values = headerList.filter { $0.name == name.lowercased() }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The header names, lowercased and sorted.
    var headerNames: [String] { headerList.map(\.name).sorted() }

    var text: String { String(decoding: body, as: UTF8.self) }

    var description: String { "\(status) \(headerList.map { "\($0.name): \($0.value)" }) \(text.prefix(200))" }

    struct Malformed: Error {
        let text: String
    }

    /// The data of a chunked body (sizes in hex, each chunk followed by CRLF, ending with size 0).
    static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var data: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = bytes[index...].firstIndex(of: UInt8(ascii: "\r")),
                let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16), size > 0
            else { break }
            let start = lineEnd + 2
            data += bytes[start..<min(bytes.count, start + size)]
            index = start + size + 2
        }
        return data
    }
}
