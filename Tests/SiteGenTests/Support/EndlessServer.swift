import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A server on the loopback interface that answers every request with a body that never ends
/// (chunked, as fast as the client reads), plain or as a gzip stream of zeros that never ends,
/// and counts the bytes it managed to send on each connection before the client closed it.
final class EndlessServer: Sendable {
    let port: Int
    private let listener: Int32
    private let counts = Counts()

    /// The bytes sent on each connection that has ended, behind a lock.
    private final class Counts: Sendable {
        let sent = Mutex<[Int]>([])
    }

    init(gzip: Bool) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else { throw SocketError(call: "bind", code: errno) }
        port = Int(UInt16(bigEndian: address.sin_port))
        let counts = counts
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                Thread.detachNewThread { Self.serve(connection, gzip: gzip, counts: counts) }
            }
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// The bytes sent on each connection that has ended, in the order they ended.
    var bytesSent: [Int] { counts.sent.withLock { $0 } }

    private static func serve(_ connection: Int32, gzip: Bool, counts: Counts) {
        defer { close(connection) }
        // The request's head.
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.reversed().starts(with: Array("\n\r\n\r".utf8)) {
            guard recv(connection, &byte, 1, 0) == 1 else { return }
            head.append(byte)
        }
        let answer =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
            + (gzip ? "Content-Encoding: gzip\r\n" : "") + "\r\n"
        var total = 0
        guard write(connection, Array(answer.utf8)) else { return }
        // gzip's header, then one deflate block that never ends: fixed codes repeating
        // "258 more zeros, one back" (after a first literal zero), 13 bits for 258 bytes.
        var piece = gzip ? [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] + DeflateZeros.start : []
        while true {
            piece += gzip ? DeflateZeros.repeats : [UInt8](repeating: UInt8(ascii: "["), count: 65536)
            let chunk = Array(String(piece.count, radix: 16).utf8) + [13, 10] + piece + [13, 10]
            guard write(connection, chunk) else { break }
            total += chunk.count
            piece = []
        }
        counts.sent.withLock { $0.append(total) }
    }

    private static func write(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}

/// A deflate stream of zeros without end: a block of fixed codes (`BFINAL` 0, `BTYPE` 1), a
/// literal zero, then length 258 (code 285) at distance 1 (code 0), 13 bits for 258 zeros,
/// over and over. ``start`` holds the header, the literal and one repeat (24 bits, whole
/// bytes); ``repeats`` holds a multiple of 8 repeats, so it can follow itself forever.
private enum DeflateZeros {
    static let start: [UInt8] = {
        var writer = BitWriter()
        writer.put(0, 1, huffman: false)
        writer.put(1, 2, huffman: false)
        writer.put(0b0011_0000, 8, huffman: true)
        writer.put(0b1100_0101, 8, huffman: true)
        writer.put(0, 5, huffman: true)
        return writer.bytes
    }()

    static let repeats: [UInt8] = {
        var writer = BitWriter()
        for _ in 0..<(8 * 4096) {
            writer.put(0b1100_0101, 8, huffman: true)
            writer.put(0, 5, huffman: true)
        }
        return writer.bytes
    }()

    /// Deflate's bit order: bytes filled from their least significant bit; numbers written
    /// least significant bit first, Huffman codes most significant bit first.
    struct BitWriter {
        var bytes: [UInt8] = []
        var used = 8

        mutating func put(_ value: Int, _ count: Int, huffman: Bool) {
            for index in 0..<count {
                let bit = huffman ? (value >> (count - 1 - index)) & 1 : (value >> index) & 1
                if used == 8 {
                    bytes.append(0)
                    used = 0
                }
                bytes[bytes.count - 1] |= UInt8(bit << used)
                used += 1
            }
        }
    }
}
