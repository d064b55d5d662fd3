import CommonMark
import Testing

@testable import SiteGen

/// The memory each review keeps, which a large site holds thousands of times over.
@Suite("Review layout")
struct ReviewLayoutTests {
    @Test("a review's box (header and fields) fits the allocator's 768-byte size class")
    func boxFitsSizeClass() {
        // An object's header is two words; the fields follow, aligned to eight bytes. Past 768
        // the allocator rounds each box up to its next class (896 bytes), which at 10,000
        // reviews raised a build's peak memory by 8 MB. A change that needs more room should
        // make room (the counts of RenderedMarkdown are 32-bit for this) or measure the cost.
        #expect(16 + MemoryLayout<Review.Fields>.size <= 768, "\(MemoryLayout<Review.Fields>.size)")
        #expect(MemoryLayout<RenderedMarkdown>.size == 48)
    }
}
