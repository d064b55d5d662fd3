import Foundation

/// `/search/` and the index it reads (``SearchIndex``): a manifest, the key files of each
/// family and the display records of the reviews, all written by the build, searched in the
/// browser by `assets/search.js`.
struct SearchPresenter: PagePresenter {
    func owns(_ key: PageKey) -> Bool {
        switch key {
        case .search, .searchFile: true
        default: false
        }
    }

    func keys(_ site: Presentation) -> [PageKey] {
        let search = site.index.search
        var files: [SearchFile] = [.manifest]
        for family in SearchIndex.Family.allCases {
            files += (0..<family.files(search.count)).map { .keys(family, $0) }
        }
        let docs = (search.count + SearchIndex.reviewsPerDocsFile - 1) / SearchIndex.reviewsPerDocsFile
        files += (0..<docs).map { .docs($0) }
        return [.search] + files.map { .searchFile($0) }
    }

    func output(_ key: PageKey, _ site: Presentation) -> String {
        switch key {
        case .searchFile(let file): file.path
        default: "search/index.html"
        }
    }

    func job(_ key: PageKey, _ site: Presentation) -> PageJob {
        guard case .searchFile(let file) = key else { return page(site) }
        let search = site.index.search
        let text: String
        switch file {
        case .manifest: text = manifest(search)
        case .keys(let family, let number): text = keys(family, number, search)
        case .docs(let number): text = docs(number, site)
        }
        return PageJob.document(file.path, SearchFileModel(content: text))
    }

    func affected(by change: IndexChange, _ site: Presentation) -> [PageKey] {
        if change.search.everything { return keys(site).filter { $0 != .search } }
        return change.search.files.map { .searchFile($0) }
    }

    /// The shortest start of `key` that sorts after `previous`.
    static func separator(_ key: String, after previous: String) -> String {
        var common = 0
        for (left, right) in zip(key.unicodeScalars, previous.unicodeScalars) where left == right { common += 1 }
        var prefix = String.UnicodeScalarView()
        for scalar in key.unicodeScalars.prefix(common + 1) { prefix.append(scalar) }
        return String(prefix)
    }

    /// A key's postings: the ranks as base-36 differences (`3,a,1`: ranks 3, 13, 14) or, when
    /// shorter, `*` and a base64 bitmap over every rank.
    static func postings(_ ranks: [Int32], of count: Int) -> String {
        var out: [UInt8] = []
        appendPostings(ranks, of: count, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends ``postings(_:of:)``'s text to `out`.
    static func appendPostings(_ ranks: [Int32], of count: Int, to out: inout [UInt8]) {
        let bitmapLength = ((count + 7) / 8 + 2) / 3 * 4 + 1
        var length = 0
        var previous: Int32 = 0
        for rank in ranks where length <= bitmapLength {
            length += base36Length(rank - previous) + 1
            previous = rank
        }
        guard bitmapLength < length else {
            previous = 0
            for (position, rank) in ranks.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                appendBase36(rank - previous, to: &out)
                previous = rank
            }
            return
        }
        var bytes = [UInt8](repeating: 0, count: (count + 7) / 8)
        for rank in ranks { bytes[Int(rank) / 8] |= 0x80 >> UInt8(rank % 8) }
        out.append(UInt8(ascii: "*"))
        out.append(contentsOf: Data(bytes).base64EncodedString().utf8)
    }

    private static let base36Digits = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    private static func base36Length(_ value: Int32) -> Int {
        var length = 1
        var rest = value / 36
        while rest > 0 {
            length += 1
            rest /= 36
        }
        return length
    }

    private static func appendBase36(_ value: Int32, to out: inout [UInt8]) {
        let end = out.count + base36Length(value)
        out.append(contentsOf: repeatElement(0, count: end - out.count))
        var rest = Int(value)
        var position = end
        repeat {
            position -= 1
            out[position] = base36Digits[rest % 36]
            rest /= 36
        } while rest > 0
    }
}

private extension SearchPresenter {
    func page(_ site: Presentation) -> PageJob {
        let context = site.context
        let words = SearchWords.for(context.config.language)
        let browse = context.sections.first.map { context.urls.sorted($0, .title) } ?? ""
        let model = SearchPageModel(
            site: context.sharedSite(at: .search), labels: context.sharedLabels,
            page: context.head(title: words.heading, description: words.hint, path: "search/", kind: "search"),
            search: words, manifestURL: context.urls.path(SearchFile.manifest.path),
            scriptURL: context.urls.path("assets/search.js"), browseURL: context.urls.path(browse))
        return PageJob.folder("search/", template: "search", model: model)
    }

    /// `{"version":1,"reviews":N,"docsPerFile":16,"names":[["",0],["ka",1],…],"text":…}`: each
    /// non-empty file's first key, cut to what tells it from the key before, and its number.
    func manifest(_ search: SearchIndex) -> String {
        var out = "{\"version\":1,\"reviews\":\(search.count),\"docsPerFile\":\(SearchIndex.reviewsPerDocsFile)"
        for family in SearchIndex.Family.allCases {
            let keys = search.sortedKeys[family.rawValue]
            var entries: [String] = []
            var position = 0
            for number in 0..<family.files(search.count) {
                let slice = search.keys(ofFile: number, family)
                guard let first = slice.first else { continue }
                let separator = position == 0 ? "" : Self.separator(first.text, after: keys[position - 1].text)
                entries.append("[\(StructuredData.text(separator).json),\(number)]")
                position += slice.count
            }
            out += ",\"\(family.name)\":[\(entries.joined(separator: ","))]"
        }
        return out + "}\n"
    }

    /// One line per key of the file: `key<TAB>postings` (see ``postings(_:of:)``).
    func keys(_ family: SearchIndex.Family, _ number: Int, _ search: SearchIndex) -> String {
        var out: [UInt8] = []
        let postings = search.postings[family.rawValue]
        for key in search.keys(ofFile: number, family) {
            out.append(contentsOf: key.bytes)
            out.append(UInt8(ascii: "\t"))
            Self.appendPostings(postings[key] ?? [], of: search.count, to: &out)
            out.append(UInt8(ascii: "\n"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The display records of ranks `number * 32 ..< (number + 1) * 32`: a JSON list of
    /// `[url, title, titleLanguage, year, creator, creatorLanguage, stars, ratingLabel, image,
    /// width, height, kind, section]`.
    func docs(_ number: Int, _ site: Presentation) -> String {
        let size = SearchIndex.reviewsPerDocsFile
        let ranked = site.index.search.ranked
        let slice = ranked[min(ranked.count, number * size)..<min(ranked.count, (number + 1) * size)]
        let records = slice.map { id -> String in
            let card = site.index.card(id)
            let fields: [StructuredData] = [
                .text(card.url), .text(card.title), .text(card.titleLanguage), .text(card.year), .text(card.creator),
                .text(card.creatorLanguage), .text(card.rating?.stars ?? ""), .text(card.rating?.label ?? ""),
                .text(card.image?.url ?? ""), .number(Double(card.image?.width ?? 0)),
                .number(Double(card.image?.height ?? 0)), .text(card.kind), .text(card.sectionTitle),
            ]
            return StructuredData.list(fields).json
        }
        return "[\n" + records.joined(separator: ",\n") + "\n]\n"
    }
}
