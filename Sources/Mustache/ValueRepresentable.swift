/// A type that hands ``ValueEncoder`` its template value directly, skipping the `Encodable`
/// machinery: for values encoded many times, such as a card shown on many pages.
public protocol ValueRepresentable {
    var templateValue: Value { get }
}
