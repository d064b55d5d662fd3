/// The text in a file's bytes: UTF-8 after an optional byte order mark, or where the
/// first byte that breaks it is.
enum UTF8Text {
    /// The bytes after a UTF-8 byte order mark, if they start with one.
    static func withoutByteOrderMark(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    }

    /// The text of `bytes`, or the offset (from `bytes.startIndex`) of the first byte of the
    /// first sequence that is not UTF-8.
    static func decode(_ bytes: ArraySlice<UInt8>) -> Result<String, InvalidByte> {
        if let text = String(validating: bytes, as: UTF8.self) { return .success(text) }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return .success(String(decoding: bytes, as: UTF8.self))
            case .error: return .failure(InvalidByte(offset: offset, byte: bytes[bytes.startIndex + offset]))
            }
        }
    }

    /// The message for a byte that breaks UTF-8 text.
    static func message(invalidByte byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "not valid UTF-8: byte 0x\(digits.count < 2 ? "0" : "")\(digits) cannot appear here"
    }

    /// A byte that does not belong where it is in UTF-8 text.
    struct InvalidByte: Error {
        let offset: Int
        let byte: UInt8
    }
}
