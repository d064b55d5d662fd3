import Foundation

/// A day of the Gregorian calendar, counted from 2006-01-01.
struct CalendarDay {
    let year: Int
    let month: Int
    let day: Int

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `offset` days after 2006-01-01 (Howard Hinnant's civil-from-days).
    init(daysSince2006 offset: Int) {
        let days = offset + 13_149 + 719_468  // 2006-01-01 is day 13149 of the Unix epoch
        let era = days / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shifted + 2) / 5 + 1
        month = shifted < 10 ? shifted + 3 : shifted - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// `YYYY-MM-DD`
    var iso: String { String(format: "%04d-%02d-%02d", year, month, day) }
}
