/// A value that templates render: the engine's typed data model.
///
/// Page models reach templates as `Value`s (through ``ValueEncoder``) and JSON
/// data decodes straight into one, so rendering never reflects over `Any`.
public enum Value: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([Value])
    case object(Object)
}

extension Value {
    /// Whether a section shows its content: `null`, `false`, `""` and `[]` are false.
    ///
    /// The Mustache spec leaves the empty string to the host language; it counts
    /// as false here so that `{{#summary}}…{{/summary}}` hides an empty summary.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let flag): flag
        case .string(let text): !text.isEmpty
        case .array(let items): !items.isEmpty
        case .int, .double, .object: true
        }
    }

    /// The text an interpolation tag writes for this value (before escaping).
    public var renderedText: String {
        switch self {
        case .null: ""
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .double(let number): Self.format(number)
        case .string(let text): text
        case .array(let items): items.map(\.renderedText).joined(separator: ",")
        case .object: ""
        }
    }

    /// The member named `key` when this value is an object.
    public subscript(key: String) -> Value? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// An object value from a dictionary.
    public static func object(_ members: [String: Value]) -> Value {
        .object(Object(members))
    }
}

private extension Value {
    /// Writes whole numbers without a fractional part, as JavaScript does.
    static func format(_ number: Double) -> String {
        if number.isFinite, number == number.rounded(), abs(number) < 1e18 {
            return String(Int(number))
        }
        return String(number)
    }
}

extension Value: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, Value)...) {
        self = .object(Object(Dictionary(elements, uniquingKeysWith: { _, last in last })))
    }
}
