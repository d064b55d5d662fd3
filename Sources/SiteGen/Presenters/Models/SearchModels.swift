import Mustache

/// The search page (`search.mustache`): a form that works as a plain `GET ?q=` link, and the
/// words the script shows, in the site's language.
public struct SearchPageModel: PageModel, Equatable {
    public let site: Precomputed<SiteModel>
    public let labels: Precomputed<Labels>
    public let page: PageHead
    public let search: SearchWords
    /// The index's manifest and the script, as paths under the base URL.
    public let manifestURL: String
    public let scriptURL: String
    /// Where to browse without the script: the first section's index by title.
    public let browseURL: String

    public var templateValue: Value {
        .members([
            "site": site.templateValue, "labels": labels.templateValue, "page": page.templateValue,
            "search": search.templateValue, "manifestURL": .string(manifestURL), "scriptURL": .string(scriptURL),
            "browseURL": .string(browseURL),
        ])
    }
}

/// The search page's words. `found` holds `{n}` where the script puts the number.
public struct SearchWords: Sendable, Equatable, ValueRepresentable {
    public let heading: String
    public let field: String
    public let button: String
    public let hint: String
    public let foundOne: String
    public let found: String
    public let none: String
    public let tooShort: String
    public let more: String
    public let noScript: String
    public let browse: String

    static func `for`(_ language: SiteLanguage) -> SearchWords {
        // English, also for the languages without words of their own here; Korean.
        switch language.usesKoreanWords {
        case false:
            SearchWords(
                heading: "Search", field: "Search reviews", button: "Search",
                hint:
                    "Titles, names, tags and the reviews’ text. In Korean, initial consonants work too: ㄱㅅㅊ finds 기생충.",
                foundOne: "1 review found", found: "{n} reviews found", none: "No review matches “{q}”.",
                tooShort: "Type a few more letters to search the reviews’ text as well.", more: "Show more",
                noScript: "Search runs in your browser and needs JavaScript, which is off.", browse: "Browse by title")
        case true:
            SearchWords(
                heading: "검색", field: "리뷰 검색", button: "검색",
                hint: "제목, 이름, 태그, 리뷰 본문을 찾습니다. 초성으로도 찾을 수 있습니다: ㄱㅅㅊ → 기생충.",
                foundOne: "리뷰 1편", found: "리뷰 {n}편", none: "“{q}”에 맞는 리뷰가 없습니다.",
                tooShort: "본문까지 찾으려면 조금 더 입력하세요.", more: "더 보기",
                noScript: "검색은 브라우저에서 자바스크립트로 실행됩니다. 지금은 자바스크립트가 꺼져 있습니다.", browse: "제목순으로 보기")
        }
    }

    public var templateValue: Value {
        .members([
            "heading": .string(heading), "field": .string(field), "button": .string(button), "hint": .string(hint),
            "foundOne": .string(foundOne), "found": .string(found), "none": .string(none),
            "tooShort": .string(tooShort), "more": .string(more), "noScript": .string(noScript),
            "browse": .string(browse),
        ])
    }
}

/// A file of the search index, its text made by the presenter.
public struct SearchFileModel: DocumentModel, Equatable {
    public let content: String

    public func text() -> String { content }
}
