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

/// One place in the value being built; containers fill it in.
final class EncodingSlot {
    enum Content {
        case empty
        case value(Value)
        case object([String: EncodingSlot])
        case array([EncodingSlot])
    }

    var content: Content = .empty

    func finished() -> Value {
        switch content {
        case .empty: .null
        case .value(let value): value
        case .object(let members): .object(Object(members.mapValues { $0.finished() }))
        case .array(let items): .array(items.map { $0.finished() })
        }
    }

    func member(_ key: String) -> EncodingSlot {
        var members: [String: EncodingSlot] = [:]
        if case .object(let existing) = content { members = existing }
        if let slot = members[key] { return slot }
        let slot = EncodingSlot()
        members[key] = slot
        content = .object(members)
        return slot
    }

    func appended() -> EncodingSlot {
        var items: [EncodingSlot] = []
        if case .array(let existing) = content { items = existing }
        let slot = EncodingSlot()
        items.append(slot)
        content = .array(items)
        return slot
    }

    func becomeObject() {
        if case .object = content { return }
        content = .object([:])
    }

    func becomeArray() {
        if case .array = content { return }
        content = .array([])
    }

    var count: Int {
        if case .array(let items) = content { return items.count }
        return 0
    }
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
    case let value as Value: slot.content = .value(value)
    case let text as String: slot.content = .value(.string(text))
    case let flag as Bool: slot.content = .value(.bool(flag))
    case let number as Int: slot.content = .value(.int(number))
    case let number as Double: slot.content = .value(.double(number))
    case let number as any BinaryInteger:
        slot.content = .value(Int(exactly: number).map(Value.int) ?? .double(Double(number)))
    case let number as Float: slot.content = .value(.double(Double(number)))
    default: try value.encode(to: ValueEncoding(slot: slot, codingPath: codingPath))
    }
}
