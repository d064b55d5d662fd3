import Foundation

extension Day {
    /// The environment variable that sets today's date, `YYYY-MM-DD` (for tests, and for a
    /// build that should publish as of another day).
    public static let todayVariable = "SITEGEN_TODAY"

    /// Today: the date `SITEGEN_TODAY` names when the environment sets it, else the date of
    /// `now` in the local time zone. Nil when the variable is set but is not a date.
    public static func today(
        environment: [String: String], now: Date = Date(), timeZone: TimeZone = .current
    ) -> Day? {
        if let text = environment[todayVariable] { return Day(text) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        return Day(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }
}
