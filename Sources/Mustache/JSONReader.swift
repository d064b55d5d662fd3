/// Reads RFC 8259 JSON into a ``Value`` without recursion: open arrays and objects wait
/// on an explicit stack, so no input can overflow the thread's stack.
struct JSONReader {
    /// How deep arrays and objects may nest (Foundation's JSON reader stops at the same depth).
    static let depthLimit = 512

    let path: String
    /// The text as UTF-8, without a byte order mark.
    let bytes: [UInt8]
    /// Where reading has got to in `bytes`.
    var position = 0

    init(_ data: [UInt8], path: String) throws(JSONError) {
        self.path = path
        self.bytes = try Self.utf8(data, path: path)
    }

    mutating func read() throws(JSONError) -> Value {
        var stack: [Container] = []
        while true {
            skipWhitespace()
            var value: Value
            switch peek {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                guard stack.count < Self.depthLimit else {
                    throw failure("arrays and objects nest more than \(Self.depthLimit) deep", at: position)
                }
                let isArray = peek == UInt8(ascii: "[")
                position += 1
                skipWhitespace()
                if isArray {
                    if peek == UInt8(ascii: "]") {
                        position += 1
                        value = .array([])
                    } else {
                        stack.append(Container(isArray: true))
                        continue
                    }
                } else {
                    if peek == UInt8(ascii: "}") {
                        position += 1
                        value = .object(Object(pairs: []))
                    } else {
                        var members = Members()
                        try readKey(into: &members)
                        stack.append(Container(isArray: false, members: members))
                        continue
                    }
                }
            default:
                value = try readScalar()
            }
            // A value is complete: hand it to the containers it closes, up to one that goes on.
            // Each container is changed where it is on the stack: taken off and put back, its
            // items would be copied for every value (quadratic in a long array).
            while true {
                guard !stack.isEmpty else {
                    skipWhitespace()
                    guard position == bytes.count else {
                        throw failure("not valid JSON: unexpected \(found(at: position)) after the value", at: position)
                    }
                    return value
                }
                skipWhitespace()
                let top = stack.count - 1
                if stack[top].isArray {
                    stack[top].items.append(value)
                    if peek == UInt8(ascii: ",") {
                        try skipComma(before: UInt8(ascii: "]"))
                    } else if peek == UInt8(ascii: "]") {
                        position += 1
                        value = .array(stack.removeLast().items)
                        continue
                    } else {
                        throw failure(
                            "not valid JSON: expected \",\" or \"]\" after an array item, found \(found(at: position))",
                            at: position)
                    }
                } else {
                    stack[top].members.pairs.append((stack[top].members.pendingKey, value))
                    if peek == UInt8(ascii: ",") {
                        try skipComma(before: UInt8(ascii: "}"))
                        try readKey(into: &stack[top].members)
                    } else if peek == UInt8(ascii: "}") {
                        position += 1
                        value = .object(Object(pairs: stack.removeLast().members.pairs))
                        continue
                    } else {
                        throw failure(
                            "not valid JSON: expected \",\" or \"}\" after an object member, found \(found(at: position))",
                            at: position)
                    }
                }
                break
            }
        }
    }
}

/// An array or object whose closing bracket has not come yet.
private struct Container {
    let isArray: Bool
    var items: [Value] = []
    var members = Members()
}

/// An open object's members so far and the key whose value comes next.
private struct Members {
    var pairs: [(key: String, value: Value)] = []
    /// Each key's offset, to point at the first when one repeats.
    var offsets: [String: Int] = [:]
    var pendingKey = ""
}

extension JSONReader {
    var peek: UInt8 { position < bytes.count ? bytes[position] : 0 }

    func failure(_ message: String, at offset: Int) -> JSONError {
        JSONError(message, at: location(at: offset))
    }

    func location(at offset: Int) -> SourceLocation {
        bytes.withUnsafeBufferPointer { SourceLocation(path: path, utf8: $0, offset: offset) }
    }

    /// How an error names what it found at `offset`: a character, a word, or the end of the file.
    func found(at offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the file" }
        var end = offset
        while end < bytes.count, end - offset < 20, bytes[end].isWordByte { end += 1 }
        if end > offset { return "\"\(String(decoding: bytes[offset..<end], as: UTF8.self))\"" }
        var scalarEnd = offset + 1
        while scalarEnd < bytes.count, bytes[scalarEnd] & 0xC0 == 0x80 { scalarEnd += 1 }
        let character = String(decoding: bytes[offset..<scalarEnd], as: UTF8.self)
        guard let scalar = character.unicodeScalars.first, scalar.value >= 0x20, scalar.value != 0x7F else {
            return "U+" + hex(character.unicodeScalars.first?.value ?? 0)
        }
        return "\"\(character)\""
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// Steps over a comma that must be followed by another item, not by `closing`.
    mutating func skipComma(before closing: UInt8) throws(JSONError) {
        let comma = position
        position += 1
        skipWhitespace()
        if peek == closing {
            throw failure("not valid JSON: trailing comma before \"\(Character(Unicode.Scalar(closing)))\"", at: comma)
        }
    }

    /// Reads `"key":` into `members.pendingKey`; a key the object already has is an error.
    fileprivate mutating func readKey(into members: inout Members) throws(JSONError) {
        skipWhitespace()
        let start = position
        guard peek == UInt8(ascii: "\"") else {
            throw failure("not valid JSON: expected a string key, found \(found(at: position))", at: position)
        }
        let key = try readString()
        if let first = members.offsets[key] {
            throw failure(
                "duplicate key \"\(key)\" (first at \(location(at: first).lineAndColumn))", at: start)
        }
        members.offsets[key] = start
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else {
            throw failure("not valid JSON: expected \":\" after a key, found \(found(at: position))", at: position)
        }
        position += 1
        members.pendingKey = key
    }
}
