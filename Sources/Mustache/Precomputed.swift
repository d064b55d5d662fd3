/// A value encoded for templates once, when it is made: for parts of page models that
/// many pages share (the site's labels and navigation), so each page does not encode them again.
@dynamicMemberLookup
public struct Precomputed<Wrapped: Encodable & Sendable>: Encodable, Sendable, ValueRepresentable {
    public let value: Wrapped
    public let templateValue: Value

    public init(_ value: Wrapped) {
        self.value = value
        self.templateValue = (try? ValueEncoder().encode(value)) ?? .null
    }

    /// The wrapped value's properties, read through.
    public subscript<Property>(dynamicMember keyPath: KeyPath<Wrapped, Property>) -> Property {
        value[keyPath: keyPath]
    }

    public func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}

extension Precomputed: Equatable where Wrapped: Equatable {
    public static func == (lhs: Precomputed, rhs: Precomputed) -> Bool { lhs.value == rhs.value }
}
