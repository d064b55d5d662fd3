import Foundation
import Testing

@testable import SiteGen

/// Related reviews are found in a window around a review in its tags' lists by date; an update
/// recomputes them only near where reviews moved. With a window of three, reviews at its edges
/// matter on every step, so a wrong reach shows at once.
@Suite("Related reviews")
struct RelatedReviewsTests {
    @Test(
        "after random moves, additions and removals, each review's related ones equal a fresh index's",
        arguments: [1, 2, 3, 4])
    func updatesEqualFresh(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        var site = RelatedSite()
        for _ in 0..<60 { site.add(&random) }
        var content = try InMemorySite(site.files).load()
        let context = SiteBuilder.present(content, isPreview: false).context
        var index = SiteIndex(reviews: content.reviews, context: context, tracksDependents: true, relatedWindow: 3)
        var moves = 0
        for step in 0..<150 {
            // One to three files change at once: their old positions shift each other.
            var changed: Set<String> = []
            for _ in 0..<Int.random(in: 1...3, using: &random) { changed.insert(site.edit(&random)) }
            content = try InMemorySite(site.files).load()
            let reviews = Dictionary(uniqueKeysWithValues: content.reviews.map { ($0.source, $0) })
            let change = index.update(changed.sorted().map { ($0, reviews[$0]) }, context: context)
            moves += change.moved.count
            let fresh = SiteIndex(reviews: content.reviews, context: context, relatedWindow: 3)
            for review in content.reviews {
                let updated = try #require(index.ids[review.source])
                let expected = fresh.related[fresh.ids[review.source]!].map { fresh[review: $0].source }
                #expect(
                    index.related[updated].map { index[review: $0].source } == expected,
                    "step \(step), \(review.source)")
            }
            #expect(Set(index.liveIDs.map { index[review: $0].source }) == Set(reviews.keys), "step \(step)")
        }
        #expect(moves > 150)
    }

    @Test("each review's related ones are those the rule picks, counted here the plain way", arguments: [5, 6])
    func matchesTheRule(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        var site = RelatedSite()
        for _ in 0..<120 { site.add(&random) }
        let content = try InMemorySite(site.files).load()
        let context = SiteBuilder.present(content, isPreview: false).context
        for window in [1, 3, 50] {
            let index = SiteIndex(reviews: content.reviews, context: context, relatedWindow: window)
            var nonEmpty = 0
            for id in index.liveIDs {
                let expected = Self.related(of: id, in: index, window: window)
                #expect(index.related[id] == expected, "window \(window), \(index[review: id].source)")
                if !expected.isEmpty { nonEmpty += 1 }
            }
            #expect(nonEmpty == index.liveIDs.count)
        }
    }

    /// The rule, as plainly as it can be written: each tag's list by date, the `window` reviews
    /// either side of this one; tags shared counted in a dictionary; the best four by (tags
    /// shared, nearness in days, newer, earlier in title order).
    static func related(of id: Int, in index: SiteIndex, window: Int) -> [Int] {
        let key = index.keys[id]!
        var shared: [Int: Int] = [:]
        for tag in key.tags {
            let members = index.list(ListKey(.tag(tag.slug), .date))
            let position = members.firstIndex(of: id)!
            let near = members[max(0, position - window)..<min(members.count, position + window + 1)]
            for other in near where other != id {
                shared[other, default: 0] += 1
            }
        }
        let day = key.day.number
        return shared.map { other, count -> (score: (Int, Int, Int, Int), id: Int) in
            let otherDay = index.keys[other]!.day.number
            return ((count, -abs(otherDay - day), otherDay, -index.titleRank[other]), other)
        }
        .sorted { $0.score > $1.score }.prefix(SiteIndex.relatedLimit).map(\.id)
    }
}

/// Reviews with one to three of four tags and dates within a few months, so that tag lists are
/// many times longer than the window and days often tie.
private struct RelatedSite {
    var files: [String: String] = [:]
    private var count = 0
    private static let tags = ["noir", "rain", "seoul", "war"]

    mutating func add(_ random: inout SplitMix) {
        count += 1
        files["content/movies/r\(count).md"] = Self.review(count, &random)
    }

    /// Changes a review's date or tags, adds one or removes one; returns the file's path.
    mutating func edit(_ random: inout SplitMix) -> String {
        let existing = files.keys.sorted()
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            add(&random)
            return "content/movies/r\(count).md"
        case 1 where existing.count > 20:
            let path = existing.randomElement(using: &random)!
            files[path] = nil
            return path
        default:
            let path = existing.randomElement(using: &random)!
            let number = Int(path.dropFirst("content/movies/r".count).dropLast(3))!
            files[path] = Self.review(number, &random)
            return path
        }
    }

    static func review(_ number: Int, _ random: inout SplitMix) -> String {
        let tags = tags.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random))
        let date = String(
            format: "2024-%02d-%02d", Int.random(in: 1...3, using: &random), Int.random(in: 1...28, using: &random))
        return reviewFile("title: Review \(number)\ndate: \(date)\ntags: [\(tags.joined(separator: ", "))]")
    }
}
