/// Decoding any JSON (or other `Decoder`) data into a ``Value``.
extension Value: Decodable {
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: Value] = [:]
            for key in container.allKeys {
                members[key.stringValue] = try container.decode(Value.self, forKey: key)
            }
            self = .object(Object(members))
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var items: [Value] = []
            while !container.isAtEnd {
                items.append(try container.decode(Value.self))
            }
            self = .array(items)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .int(number)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }
}

/// A coding key made from any string or integer.
struct AnyKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
