import Mustache

/// `/stats/` or a year's `/stats/2024/` (`stats.mustache`): a few figures, charts with their
/// tables, and for a year its best-rated reviews.
public struct StatsPageModel: PageModel, Equatable {
    public let site: Precomputed<SiteModel>
    public let labels: Precomputed<Labels>
    public let page: PageHead
    public let heading: String
    /// "42 reviews since 2019" / "2024: 12 reviews".
    public let lede: String
    public let figures: [StatFigure]
    public let charts: [ChartModel]
    /// The year's best-rated reviews (empty on the all-time page).
    public let topRated: [ReviewCard]
    public let topRatedHeading: String
    /// Every year with reviews, and the all-time page; the one shown is `current`.
    public let years: [SortLink]
    public let yearsLabel: String

    public var templateValue: Value {
        .members([
            "site": site.templateValue, "labels": labels.templateValue, "page": page.templateValue,
            "heading": .string(heading), "lede": .string(lede), "figures": Value(figures), "charts": Value(charts),
            "topRated": Value(topRated), "hasTopRated": .bool(!topRated.isEmpty),
            "topRatedHeading": .string(topRatedHeading), "years": Value(years), "yearsLabel": .string(yearsLabel),
        ])
    }
}

/// One figure: "Reviews" / "42".
public struct StatFigure: Sendable, Equatable, ValueRepresentable {
    public let label: String
    public let value: String

    public var templateValue: Value {
        .members(["label": .string(label), "value": .string(value)])
    }
}

/// A chart: its title, the SVG (aria-hidden) and the same numbers as a table.
public struct ChartModel: Sendable, Equatable, ValueRepresentable {
    /// A fragment id, unique on the page.
    public let id: String
    public let title: String
    /// Inline SVG, written as is.
    public let svg: String
    public let columns: [String]
    public let rows: [ChartRow]
    /// Said under the chart when there is nothing to draw.
    public let empty: String?

    public var templateValue: Value {
        .members([
            "id": .string(id), "title": .string(title), "svg": .string(svg),
            "columns": .array(columns.map(Value.string)),
            "rows": Value(rows), "empty": Value(empty), "isWide": .bool(id == "per-month"),
        ])
    }
}

/// One row of a chart's table: a heading cell and the values.
public struct ChartRow: Sendable, Equatable, ValueRepresentable {
    public let heading: String
    public let language: String
    public let values: [String]

    public var templateValue: Value {
        .members([
            "heading": .string(heading), "language": .string(language),
            "values": .array(values.map(Value.string)),
        ])
    }
}
