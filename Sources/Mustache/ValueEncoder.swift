/// Turns any `Encodable` value, such as a page model, into a ``Value``.
///
/// Optional properties that are `nil` become `.null` rather than vanishing, so a
/// template never picks up a same-named key from an outer context by accident.
public struct ValueEncoder: Sendable {
    public init() {}

    /// Encodes `value` into a template value.
    public func encode<T: Encodable>(_ value: T) throws -> Value {
        let slot = EncodingSlot()
        try value.encode(to: ValueEncoding(slot: slot, codingPath: []))
        return slot.finished()
    }
}

/// One place in the value being built; containers fill it in place.
final class EncodingSlot {
    enum Kind {
        case empty
        case value(Value)
        case object
        case array
    }

    var kind: Kind = .empty
    private var members: [String: EncodingSlot] = [:]
    private var items: [EncodingSlot] = []

    var content: Value? {
        get { if case .value(let value) = kind { value } else { nil } }
        set { kind = newValue.map(Kind.value) ?? .empty }
    }

    func finished() -> Value {
        switch kind {
        case .empty: .null
        case .value(let value): value
        case .object: .object(Object(members.mapValues { $0.finished() }))
        case .array: .array(items.map { $0.finished() })
        }
    }

    func member(_ key: String) -> EncodingSlot {
        becomeObject()
        if let slot = members[key] { return slot }
        let slot = EncodingSlot()
        members[key] = slot
        return slot
    }

    func appended() -> EncodingSlot {
        becomeArray()
        let slot = EncodingSlot()
        items.append(slot)
        return slot
    }

    func becomeObject() {
        if case .object = kind { return }
        kind = .object
    }

    func becomeArray() {
        if case .array = kind { return }
        kind = .array
    }

    var count: Int { items.count }
}

/// The `Encoder` handed to each encoded value.
struct ValueEncoding: Encoder {
    let slot: EncodingSlot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.becomeObject()
        return KeyedEncodingContainer(KeyedValueContainer<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        slot.becomeArray()
        return UnkeyedValueContainer(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(slot: slot, codingPath: codingPath)
    }
}

/// Encodes one value into a slot, using the scalar cases directly.
func encodeValue<T: Encodable>(_ value: T, into slot: EncodingSlot, codingPath: [any CodingKey]) throws {
    switch value {
    case let value as Value: slot.content = value
    case let text as String: slot.content = .string(text)
    case let flag as Bool: slot.content = .bool(flag)
    case let number as Int: slot.content = .int(number)
    case let number as Double: slot.content = .double(number)
    case let number as any BinaryInteger:
        slot.content = Int(exactly: number).map(Value.int) ?? .double(Double(number))
    case let number as Float: slot.content = .double(Double(number))
    default: try value.encode(to: ValueEncoding(slot: slot, codingPath: codingPath))
    }
}
