import Foundation

/// Today's date, the clock's seam: `SITEGEN_TODAY=2026-11-30` in the environment (for tests
/// and reproducible examples), else the date in the local time zone (`TZ`).
public enum Today {
    public static let variable = "SITEGEN_TODAY"

    /// Today, or an error naming a `SITEGEN_TODAY` that is not a date.
    public static func date(environment: [String: String], now: Date = Date()) throws(AuthoringError) -> Day {
        if let text = environment[variable], !text.isEmpty {
            guard let day = Day(text) else {
                throw AuthoringError("\(variable) must be a date written YYYY-MM-DD, not \"\(text)\"")
            }
            return day
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        return Day(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1) ?? Day("1970-01-01")!
    }
}
