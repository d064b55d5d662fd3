/// A rating from 0 to 5 stars in half steps, kept as a count of half stars.
public struct Rating: Sendable, Hashable, Comparable {
    /// Half stars, 0…10.
    public let halves: Int

    public init?(halves: Int) {
        guard (0...10).contains(halves) else { return nil }
        self.halves = halves
    }

    /// A rating from a number such as 4 or 4.5; nil when out of range or not a half step.
    public init?(_ value: Double) {
        let doubled = value * 2
        guard value.isFinite, doubled == doubled.rounded(), (0...10).contains(doubled) else { return nil }
        self.init(halves: Int(doubled))
    }

    /// The rating as a number: 4.5.
    public var value: Double { Double(halves) / 2 }

    public static func < (lhs: Rating, rhs: Rating) -> Bool { lhs.halves < rhs.halves }
}
