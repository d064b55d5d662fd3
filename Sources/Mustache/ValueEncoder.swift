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
    /// Members in the order they were encoded (keyed containers encode each key once).
    private var members: [(key: String, slot: EncodingSlot)] = []
    private var items: [EncodingSlot] = []

    var content: Value? {
        get { if case .value(let value) = kind { value } else { nil } }
        set { kind = newValue.map(Kind.value) ?? .empty }
    }

    func finished() -> Value {
        switch kind {
        case .empty: .null
        case .value(let value): value
        case .object: .object(Object(pairs: members.map { (key: $0.key, value: $0.slot.finished()) }))
        case .array: .array(items.map { $0.finished() })
        }
    }

    func member(_ key: String) -> EncodingSlot {
        becomeObject()
        let slot = EncodingSlot()
        members.append((key, slot))
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

/// Encodes one value into a slot: common scalar types by a cheap type comparison,
/// ``Value`` and ``ValueRepresentable`` directly, anything else through `Encodable`.
func encodeValue<T: Encodable>(_ value: T, into slot: EncodingSlot, codingPath: [any CodingKey]) throws {
    if T.self == String.self {
        slot.content = .string(unsafeBitCast(value, to: String.self))
    } else if T.self == Int.self {
        slot.content = .int(unsafeBitCast(value, to: Int.self))
    } else if T.self == Bool.self {
        slot.content = .bool(unsafeBitCast(value, to: Bool.self))
    } else if T.self == Double.self {
        slot.content = .double(unsafeBitCast(value, to: Double.self))
    } else if T.self == Value.self {
        slot.content = unsafeBitCast(value, to: Value.self)
    } else if let represented = value as? any ValueRepresentable {
        slot.content = represented.templateValue
    } else if let number = value as? any BinaryInteger {
        slot.content = Int(exactly: number).map(Value.int) ?? .double(Double(number))
    } else if let number = value as? Float {
        slot.content = .double(Double(number))
    } else {
        try value.encode(to: ValueEncoding(slot: slot, codingPath: codingPath))
    }
}
