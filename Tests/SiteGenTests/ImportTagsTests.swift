import Testing

@testable import SiteGen

@Suite("Tags from an export's shelves")
struct ImportTagsTests {
    @Test("trimmed; empty, excluded, letterless, too long and same-page tags dropped; at most a review's limit")
    func tags() {
        let long = String(repeating: "x", count: String.slugByteLimit + 1)
        #expect(
            ImportItem.tags(" to-read , Sci-Fi,, sci fi, !!, \(long), 기생충 ,favourites", excluding: ["to-read"])
                == ["Sci-Fi", "기생충", "favourites"])
        let many = (1...150).map { "shelf-\($0)" }
        #expect(ImportItem.tags(many.joined(separator: ",")) == Array(many.prefix(Review.tagLimit)))
    }
}
