/// A step into JSON: a member of an object by its key, or an item of an array by its index.
public enum JSONPathStep: Sendable, Equatable {
    case key(String)
    case index(Int)
}

extension JSONPathStep {
    /// The steps of a `Decodable` coding path: its keys, and its items by their index.
    public static func steps(of codingPath: [any CodingKey]) -> [JSONPathStep] {
        codingPath.map { key in key.intValue.map(JSONPathStep.index) ?? .key(key.stringValue) }
    }

    /// `steps` as a field's name in a message: `cast[0].name`.
    public static func name(of steps: [JSONPathStep]) -> String {
        steps.reduce(into: "") { name, step in
            switch step {
            case .key(let key): name += (name.isEmpty ? "" : ".") + key
            case .index(let index): name += "[\(index)]"
            }
        }
    }
}

extension Value {
    /// The value reached by `steps`, if there is one.
    public subscript(steps: [JSONPathStep]) -> Value? {
        var value: Value? = self
        for step in steps {
            switch (step, value) {
            case (.key(let key), _): value = value?[key]
            case (.index(let index), .array(let items)?) where items.indices.contains(index): value = items[index]
            case (.index, _): return nil
            }
        }
        return value
    }

    /// Where the value reached by `steps` starts in the JSON text `bytes`, for an error about
    /// that value (a field of the wrong kind, a number out of range); nil when the text is not
    /// valid JSON or has no such value. Only an error is located, so the text is read again.
    public static func jsonLocation(of steps: [JSONPathStep], in bytes: [UInt8], path: String) -> SourceLocation? {
        guard var reader = try? JSONReader(bytes, path: path),
            let offset = try? reader.offset(of: steps)
        else { return nil }
        return reader.location(at: offset)
    }
}

extension JSONReader {
    /// The offset where the value reached by `steps` starts; nil when there is none.
    mutating func offset(of steps: [JSONPathStep]) throws(JSONError) -> Int? {
        position = 0
        skipWhitespace()
        for step in steps {
            switch step {
            case .key(let wanted):
                guard peek == UInt8(ascii: "{") else { return nil }
                position += 1
                while true {
                    skipWhitespace()
                    guard peek == UInt8(ascii: "\"") else { return nil }
                    let key = try readString()
                    skipWhitespace()
                    guard peek == UInt8(ascii: ":") else { return nil }
                    position += 1
                    skipWhitespace()
                    if key == wanted { break }
                    guard try skipValueAndComma() else { return nil }
                }
            case .index(let wanted):
                guard peek == UInt8(ascii: "["), wanted >= 0 else { return nil }
                position += 1
                skipWhitespace()
                for _ in 0..<wanted {
                    guard try skipValueAndComma() else { return nil }
                    skipWhitespace()
                }
                if peek == UInt8(ascii: "]") { return nil }
            }
        }
        return position < bytes.count ? position : nil
    }

    /// Steps over the value that starts here and the comma after it; false when no comma
    /// follows (the container ends).
    private mutating func skipValueAndComma() throws(JSONError) -> Bool {
        var depth = 0
        while position < bytes.count {
            let byte = bytes[position]
            // Outside any array or object of the value, a comma or a closing bracket ends it.
            if depth == 0 && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")) {
                break
            }
            switch byte {
            case UInt8(ascii: "\""):
                _ = try readString()
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
            position += 1
        }
        guard peek == UInt8(ascii: ",") else { return false }
        position += 1
        return true
    }
}
