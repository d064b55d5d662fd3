import Testing

@testable import SiteGen

@Suite("Reviews already in a section, as an import sees them")
struct ExistingReviewsTests {
    @Test("ISBN-10s in their 13-digit form, the check digit worked out (X included)")
    func isbn13() {
        #expect(ExistingReviews.isbn13("0140449132") == "9780140449136")
        #expect(ExistingReviews.isbn13("0385542364") == "9780385542364")
        #expect(ExistingReviews.isbn13("080442957X") == "9780804429573")
        #expect(ExistingReviews.isbn13("0306406152") == "9780306406157")
        #expect(ExistingReviews.isbn13("9791032305690") == "9791032305690")
    }
}
