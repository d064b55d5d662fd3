import Foundation
import Testing

@testable import SiteGen

/// Long dates written from a month's shape must be exactly what ICU writes.
@Suite("Date shapes")
struct DateShapeTests {
    @Test(
        "every day of the shapes' years reads as ICU writes it, in languages with their own order, words and digits",
        arguments: ["en", "ko", "de", "fr", "ja", "es", "ru", "ar", "fa", "th", "hi"])
    func matchesICU(tag: String) throws {
        let language = try #require(SiteLanguage(tag))
        let format = Formatter(language: language)
        var random = SplitMix(seed: 3)
        var shaped = 0
        for month in 1...12 {
            if format.shape(ofMonth: month) != nil { shaped += 1 }
            var days = (1...Day.length(ofMonth: month, year: 2024)).map { Day(year: 2024, month: month, day: $0)! }
            for _ in 0..<40 {
                let year = Int.random(in: 1600...2200, using: &random)
                let day = Int.random(in: 1...Day.length(ofMonth: month, year: year), using: &random)
                days.append(Day(year: year, month: month, day: day)!)
            }
            days += [Day(year: 1599, month: month, day: 3)!, Day(year: 1, month: month, day: 1)!]
            for day in days {
                #expect(format.date(day).display == Self.icu(day, language), "\(tag) \(day)")
            }
        }
        // The shapes are used where they can be: languages that write plain digits.
        if ["en", "ko", "de", "fr", "es", "ru", "ja"].contains(tag) { #expect(shaped == 12, "\(tag)") }
    }

    /// ICU's long date of `day`, asked directly.
    static func icu(_ day: Day, _ language: SiteLanguage) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var style = Date.FormatStyle(date: .long, time: .omitted)
        style.locale = language.locale
        style.calendar = calendar
        style.timeZone = calendar.timeZone
        return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))!.formatted(style)
    }

    @Test("a shape needs the sample's day and year once each; it puts any day and year in their places")
    func shapes() {
        #expect(DateShape("22 22 2001") == nil)
        #expect(DateShape("March 22") == nil)
        #expect(DateShape("2001 2001 22") == nil)
        let english = DateShape("March 22, 2001")
        #expect(english?.text(Day(year: 1987, month: 3, day: 5)!) == "March 5, 1987")
        let korean = DateShape("2001년 3월 22일")
        #expect(korean?.text(Day(year: 2026, month: 3, day: 14)!) == "2026년 3월 14일")
    }
}
