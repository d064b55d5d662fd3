import Foundation
import Mustache

/// The theme's fixed words, in the site's language (`labels.*` in templates): English or
/// Korean, English for other languages, each word replaceable by `labels:` in `site.yml`.
public struct Labels: Codable, Sendable, Equatable {
    public let skipToContent: String
    public let mainNavigation: String
    public let home: String
    public let feed: String
    public let tags: String
    public let genres: String
    public let review: String
    public let overview: String
    public let details: String
    public let director: String
    public let author: String
    public let cast: String
    public let runtime: String
    public let publisher: String
    public let pages: String
    public let released: String
    public let published: String
    public let originalTitle: String
    public let related: String
    public let previousReview: String
    public let nextReview: String
    public let sortBy: String
    public let pagination: String
    /// The pager's links in a list that is not by date.
    public let previousPage: String
    public let nextPage: String
    /// The pager's links in a list by date, newest first.
    public let newerPage: String
    public let olderPage: String
    /// The name of a list's links to its groups.
    public let jumpTo: String
    public let recent: String
    public let topRated: String
    public let allReviews: String
    public let notRated: String
    public let notFoundTitle: String
    public let notFoundText: String
    public let backHome: String
    public let allTags: String
    public let allGenres: String
    public let reviewedOn: String
    public let rating: String
    /// The name of the previous/next review navigation.
    public let reviewNavigation: String
    /// Details of a TV series.
    public let createdBy: String
    public let seasons: String
    public let networks: String
    public let firstAired: String
    public let lastAired: String
    /// The header's search link, the footer's stats link, the phone menu's button.
    public let search: String
    public let stats: String
    public let menu: String

    /// The labels for `language`, with `site.yml`'s `labels:` over them.
    public static func `for`(_ language: SiteLanguage, overrides: [String: String] = [:]) -> Labels {
        let labels: Labels = language.usesKoreanWords ? .korean : .english
        return overrides.isEmpty ? labels : LabelTable.overriding(labels, with: overrides)
    }

    /// Every label's name (`notRated`…), as `site.yml`'s `labels:` and templates write it.
    public static let names = LabelTable.names(of: english)

    static let english = Labels(
        skipToContent: "Skip to content", mainNavigation: "Main", home: "Home", feed: "Atom feed", tags: "Tags",
        genres: "Genres", review: "Review", overview: "Overview", details: "Details", director: "Director",
        author: "Author", cast: "Cast", runtime: "Runtime", publisher: "Publisher", pages: "Pages",
        released: "Released", published: "Published", originalTitle: "Original title", related: "Related reviews",
        previousReview: "Older review", nextReview: "Newer review", sortBy: "Sort by", pagination: "Pages",
        previousPage: "Previous", nextPage: "Next", newerPage: "Newer", olderPage: "Older", jumpTo: "Jump to",
        recent: "Recent reviews", topRated: "Top rated",
        allReviews: "All reviews", notRated: "Not rated", notFoundTitle: "Page not found",
        notFoundText: "There is nothing at this address. It may have moved, or never existed.",
        backHome: "Back to the home page", allTags: "All tags", allGenres: "All genres", reviewedOn: "Reviewed on",
        rating: "Rating",
        reviewNavigation: "More reviews", createdBy: "Created by", seasons: "Seasons", networks: "Networks",
        firstAired: "First aired", lastAired: "Last aired", search: "Search", stats: "Stats", menu: "Menu")

    static let korean = Labels(
        skipToContent: "본문으로 건너뛰기", mainNavigation: "주 메뉴", home: "홈", feed: "Atom 피드", tags: "태그",
        genres: "장르", review: "리뷰", overview: "줄거리", details: "정보", director: "감독", author: "저자",
        cast: "출연", runtime: "상영 시간", publisher: "출판사", pages: "쪽수", released: "개봉", published: "출간",
        originalTitle: "원제", related: "관련 리뷰", previousReview: "이전에 쓴 리뷰", nextReview: "다음에 쓴 리뷰",
        sortBy: "정렬", pagination: "페이지", previousPage: "이전", nextPage: "다음", newerPage: "최신 글", olderPage: "이전 글",
        jumpTo: "바로 가기", recent: "최근 리뷰",
        topRated: "높은 평점", allReviews: "모든 리뷰", notRated: "평점 없음", notFoundTitle: "페이지를 찾을 수 없습니다",
        notFoundText: "이 주소에는 아무것도 없습니다. 옮겨졌거나 처음부터 없었을 수 있습니다.",
        backHome: "홈으로 돌아가기", allTags: "모든 태그", allGenres: "모든 장르", reviewedOn: "작성일", rating: "평점",
        reviewNavigation: "다른 리뷰", createdBy: "제작", seasons: "시즌", networks: "방송사", firstAired: "첫 방송",
        lastAired: "마지막 방송", search: "검색", stats: "통계", menu: "메뉴")
}
