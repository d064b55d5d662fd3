import Mustache

/// The page of each review: the review, its details, the older and newer review of its
/// section, and related reviews.
struct ReviewPagePresenter: PagePresenter {
    func owns(_ key: PageKey) -> Bool {
        if case .review = key { return true }
        return false
    }

    func keys(_ site: Presentation) -> [PageKey] {
        site.index.liveIDs.sorted().map { .review($0) }
    }

    func output(_ key: PageKey, _ site: Presentation) -> String {
        guard case .review(let id) = key else { return "" }
        return site.index[review: id].path + "index.html"
    }

    func job(_ key: PageKey, _ site: Presentation) -> PageJob {
        guard case .review(let id) = key else { preconditionFailure("not a review page: \(key)") }
        // The index is read where it is: a copy of it (in a closure, say) retains each of its
        // tables, reference counts both cores write for every page.
        let context = site.context
        let review = site.index[review: id]
        let card = site.index.card(id)
        let siteLanguage = context.config.language.rawValue
        let section = context.section(named: review.section)
        func link(_ other: Int) -> LinkModel {
            let card = site.index.card(other)
            return LinkModel(title: site.index[review: other].title, url: card.url, language: card.titleLanguage)
        }
        let details = detailRows(review, context)
        let urls = context.urls
        let original = originalTitle(of: review)
        let overview = review.metadata?.overview
        let model = ReviewModel(
            title: review.title, originalTitle: original, language: card.language,
            titleLanguage: card.titleLanguage,
            originalTitleLanguage: TextLanguage.of(original ?? "", otherwise: card.language),
            creatorLanguage: card.creatorLanguage,
            overviewLanguage: TextLanguage.of(overview ?? "", otherwise: siteLanguage), url: card.url,
            section: LinkModel(
                title: section?.title ?? review.section, url: urls.path(urls.section(review.section)),
                language: TextLanguage.of(section?.title ?? review.section, otherwise: siteLanguage)),
            kind: review.work.kind.rawValue, date: card.date, rating: card.rating, summary: card.summary,
            html: review.body.html, hasBody: review.body.showsSomething,
            readingTime: context.format.readingTime(
                words: review.body.wordCount, characters: review.body.characterCount),
            year: card.year, creator: card.creator, overview: overview, details: details, image: card.image,
            tags: review.tags.map {
                TagLink(
                    name: $0, url: urls.path(urls.tag($0.slug)), language: TextLanguage.of($0, otherwise: siteLanguage))
            },
            genres: review.genres.map {
                TagLink(
                    name: $0, url: urls.path(urls.genre($0.slug)),
                    language: TextLanguage.of($0, otherwise: siteLanguage))
            },
            extra: .object(review.extra), rewatch: review.work.rewatch)
        let image = socialImage(review, context)
        let page = ReviewPageModel(
            site: context.sharedSite(at: .section(review.section), isItself: false), labels: context.sharedLabels,
            page: context.head(
                title: review.title, description: card.summary, path: review.path, kind: "review",
                language: card.language, image: image,
                structuredData: structuredData(review, card: card, image: image, section: section, context),
                feeds: [sectionFeed(review.section, context)]),
            review: model, previous: site.index.older[id].map(link), next: site.index.newer[id].map(link),
            related: site.index.related[id].map { site.index.card($0) })
        return PageJob.folder(review.path, template: "review", model: page)
    }

    /// The largest poster or cover (the review's own first), for link previews.
    func socialImage(_ review: Review, _ context: SiteContext) -> SocialImage? {
        let alt = context.format.imageAlt(title: review.title, kind: review.work.kind)
        if let own = review.image { return own.socialImage(urls: context.urls, alt: alt) }
        guard let largest = review.metadata?.images.max(by: { $0.width < $1.width }) else { return nil }
        return SocialImage(
            url: context.urls.absolute(MetadataEnricher.publishedPath(of: largest)), width: largest.width,
            height: largest.height, alt: alt)
    }

    /// The section's feed, for `<link rel="alternate">`.
    func sectionFeed(_ name: String, _ context: SiteContext) -> LinkModel {
        LinkModel(
            title: "\(context.section(named: name)?.title ?? name) · \(context.config.title)",
            url: context.urls.path("\(name)/feed.xml"))
    }

    /// schema.org `Review` of the film or book, and the page's place in the site (`BreadcrumbList`),
    /// as JSON-LD.
    func structuredData(
        _ review: Review, card: ReviewCard, image: SocialImage?, section: ReviewSection?, _ context: SiteContext
    ) -> String {
        let urls = context.urls
        let work = review.work
        let creators = review.creators
        let url = urls.absolute(review.path)
        /// The director, author or creator: a list of people, or no member at all.
        func people(_ key: String, _ writer: inout JSONLDWriter) {
            guard !creators.isEmpty else { return }
            writer.member(
                key,
                list: { list in
                    for name in creators { list.object(type: "Person") { $0.member("name", name) } }
                })
        }
        let released = review.metadata?.releaseDate ?? review.year.map(String.init)
        let tmdbID = work.tmdbID ?? review.metadata.flatMap { Int($0.id) }
        // Read before the closures below, which would otherwise each hold a copy of the context.
        let (author, siteTitle) = (context.config.author, context.config.title)
        let crumbs = [
            (context.labels.home, urls.absolute("")),
            (section?.title ?? review.section, urls.absolute(urls.section(review.section))),
            (review.title, url),
        ]
        return JSONLDWriter.page(crumbs: crumbs) { graph in
            graph.object(type: "Review") { node in
                switch work.kind {
                case .movie:
                    node.member("itemReviewed", type: "Movie") { item in
                        item.member("name", review.title)
                        people("director", &item)
                        item.member("dateCreated", released)
                        item.member("image", image?.url)
                        item.member("sameAs", tmdbID.map { "https://www.themoviedb.org/movie/\($0)" })
                    }
                case .book:
                    node.member("itemReviewed", type: "Book") { item in
                        item.member("name", review.title)
                        people("author", &item)
                        item.member("isbn", work.isbn ?? review.metadata?.isbn)
                        item.member("image", image?.url)
                    }
                case .tv:
                    node.member("itemReviewed", type: "TVSeries") { item in
                        item.member("name", review.title)
                        people("creator", &item)
                        item.member("startDate", released)
                        item.member(
                            "numberOfSeasons",
                            number: review.metadata?.series?.seasons.flatMap { $0 > 0 ? Double($0) : nil })
                        item.member("image", image?.url)
                        item.member("sameAs", tmdbID.map { "https://www.themoviedb.org/tv/\($0)" })
                    }
                }
                // Front matter's scale is 0 to 5 in half steps, so 0 is a rating (the page shows
                // "0 out of 5 stars"), and the scale's worst is 0.
                if let rating = review.rating {
                    node.member("reviewRating", type: "Rating") { node in
                        node.member("ratingValue", number: rating.value)
                        node.member("bestRating", number: 5)
                        node.member("worstRating", number: 0)
                    }
                }
                // Without an author in site.yml, the site speaks for itself: an organization of
                // its title.
                if author.isEmpty {
                    node.member("author", type: "Organization") { $0.member("name", siteTitle) }
                } else {
                    node.member("author", type: "Person") { $0.member("name", author) }
                }
                node.member("datePublished", review.date.description)
                // A review with no text and no summary has no body to give.
                node.member("reviewBody", card.summary.isEmpty ? nil : card.summary)
                node.member("inLanguage", card.language)
                node.member("url", url)
            }
        }
    }

    func affected(by change: IndexChange, _ site: Presentation) -> [PageKey] {
        let ids = change.changed.union(change.neighboursChanged).union(change.relatedChanged)
            .subtracting(change.removed)
        // A card's title or link shows on the pages of its neighbours too.
        let neighbours = change.cardChanged.flatMap { [site.index.older[$0], site.index.newer[$0]].compactMap { $0 } }
        return ids.union(neighbours).filter { site.index.reviews.indices.contains($0) && site.index.reviews[$0] != nil }
            .map { .review($0) }
    }

    /// The "Details" rows: front matter first, fetched metadata where the front matter is silent.
    func detailRows(_ review: Review, _ context: SiteContext) -> [DetailRow] {
        let labels = context.labels
        let format = context.format
        let work = review.work
        let metadata = review.metadata
        var rows: [DetailRow] = []
        let siteLanguage = context.config.language.rawValue
        let add = { (label: String, value: String?) in
            if let value, !value.isEmpty {
                rows.append(
                    DetailRow(label: label, value: value, language: TextLanguage.of(value, otherwise: siteLanguage)))
            }
        }
        let date =
            metadata?.releaseDate.flatMap(Day.init).map { format.date($0).display }
            ?? review.year.map(format.workYear)
        // A count of 0 (a runtime, pages, seasons) is one nobody knew: no "0 pages".
        let known = { (count: Int?) in count.flatMap { $0 > 0 ? $0 : nil } }
        switch work.kind {
        case .movie:
            add(labels.director, review.creator)
            add(labels.originalTitle, originalTitle(of: review))
            add(labels.released, date)
            add(labels.runtime, known(metadata?.runtime).map(format.runtime))
            add(labels.cast, format.cast(metadata?.cast ?? []))
        case .book:
            add(labels.author, review.creator)
            add(labels.originalTitle, originalTitle(of: review))
            add(labels.publisher, work.publisher ?? metadata?.publisher)
            add(labels.published, date)
            add(labels.pages, known(metadata?.pages).map(format.pages))
        case .tv:
            add(labels.createdBy, review.creator)
            add(labels.originalTitle, originalTitle(of: review))
            add(labels.networks, metadata?.series?.networks.joined(separator: ", "))
            add(labels.firstAired, date)
            add(labels.lastAired, metadata?.series?.lastAirDate.flatMap(Day.init).map { format.date($0).display })
            add(
                labels.seasons,
                format.seasons(known(metadata?.series?.seasons), episodes: known(metadata?.series?.episodes)))
            add(labels.cast, format.cast(metadata?.cast ?? []))
        }
        return rows
    }

    /// The original title when it differs from the review's title.
    func originalTitle(of review: Review) -> String? {
        let original = review.work.originalTitle ?? review.metadata?.originalTitle
        return original == review.title ? nil : original
    }
}
