/// A string compared and hashed by its UTF-8 bytes, as servers compare file names and
/// browsers compare ids: Swift's `==` takes "é" (U+00E9) and "e" with U+0301 for the same
/// text, where a link to the one does not reach the other.
struct ByteString: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    let text: String

    init(_ text: some StringProtocol) {
        self.text = String(text)
    }

    init(stringLiteral text: String) {
        self.text = text
    }

    var description: String { text }

    static func == (lhs: ByteString, rhs: ByteString) -> Bool {
        lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(text.utf8.count)
        let hashed = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }
}
