import Mustache

/// Template values built straight from page models: each model names what templates
/// read, with no `Encodable` round trip on the hot path.
extension Value {
    /// An optional model's value, or null.
    init<Model: ValueRepresentable>(_ model: Model?) {
        self = model?.templateValue ?? .null
    }

    /// A list of models.
    init<Model: ValueRepresentable>(_ models: [Model]) {
        self = .array(models.map(\.templateValue))
    }

    /// Optional text, or null.
    init(_ text: String?) {
        self = text.map(Value.string) ?? .null
    }

    /// An object with these members, in this order; `keepsRenderings` for one that many pages
    /// show (see `Object.init(members:keepsRenderings:)`).
    static func members(_ pairs: KeyValuePairs<String, Value>, keepsRenderings: Bool = false) -> Value {
        .object(Object(members: pairs, keepsRenderings: keepsRenderings))
    }
}
