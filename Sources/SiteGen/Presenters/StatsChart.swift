import Foundation

/// Charts drawn at build time as inline SVG: columns (a value per period), bars (a ranked
/// list) and a grid (reviews per month, a row per year). Colours come from the theme's CSS
/// (classes `chart-*`), so they follow light and dark; the same numbers go in a table.
enum StatsChart {
    static let width = 400.0

    /// One column or bar: its label, its value and the value as written on it.
    struct Item {
        let label: String
        let value: Double
        let text: String
    }

    /// Columns side by side, value on top, label below; labels thinned when there are many.
    /// Values are written across when the widest fits over its column, else upright (turned a
    /// quarter, with room made above the tallest column); none when columns are thinner than
    /// a line of text. No text reaches past the chart's edges.
    static func columns(_ items: [Item]) -> String {
        let height = 200.0
        let bottom = 24.0
        let step = width / Double(max(items.count, 1))
        let gap = min(6, step * 0.2)
        let maximum = max(items.map(\.value).max() ?? 0, 0.0001)
        // Every label when the widest fits its column with some space, else every second, third...
        let widestLabel = items.map { textWidth($0.label, size: labelSize) }.max() ?? 0
        let every = max(1, Int(((widestLabel + 8) / step).rounded(.up)))
        let widest = items.map { textWidth($0.text, size: valueSize) }.max() ?? 0
        let across = widest + 4 <= step
        let upright = !across && step >= valueSize + 2
        let top = upright ? widest + 10 : 22.0
        var out = svgStart(height: height)
        out += line(x1: 0, y1: height - bottom, x2: width, y2: height - bottom, "chart-axis")
        for (index, item) in items.enumerated() {
            let x = Double(index) * step
            let barHeight = (height - top - bottom) * item.value / maximum
            let y = height - bottom - barHeight
            if item.value > 0 {
                out +=
                    "<rect class=\"chart-bar\" x=\"\(n(x + gap / 2))\" y=\"\(n(y))\" width=\"\(n(step - gap))\" height=\"\(n(barHeight))\" rx=\"2\"></rect>"
                if across {
                    let center = inside(x + step / 2, textWidth(item.text, size: valueSize))
                    out += text(item.text, x: center, y: y - 6, "chart-value", anchor: "middle")
                } else if upright {
                    // Turned about the point it starts at, so it reads upwards from the column's
                    // top; moved right by about half a digit's height to sit over the middle.
                    let (left, base) = (x + step / 2 + valueSize * 0.35, y - 5)
                    out +=
                        "<text class=\"chart-value\" x=\"\(n(left))\" y=\"\(n(base))\" text-anchor=\"start\" transform=\"rotate(-90 \(n(left)) \(n(base)))\">\(escaped(item.text))</text>"
                }
            }
            if index % every == 0 || index == items.count - 1 && every == 1 {
                let center = inside(x + step / 2, textWidth(item.label, size: labelSize))
                out += text(item.label, x: center, y: height - 7, "chart-label", anchor: "middle")
            }
        }
        return out + "</svg>"
    }

    /// A ranked list: each label above its bar, the value at the end.
    static func bars(_ items: [Item]) -> String {
        let row = 36.0
        let height = max(row, Double(items.count) * row)
        let maximum = max(items.map(\.value).max() ?? 0, 0.0001)
        var out = svgStart(height: height)
        for (index, item) in items.enumerated() {
            let y = Double(index) * row
            out += text(shortened(item.label), x: 0, y: y + 15, "chart-label-strong", anchor: "start")
            out += text(item.text, x: width, y: y + 15, "chart-value", anchor: "end")
            out +=
                "<rect class=\"chart-track\" x=\"0\" y=\"\(n(y + 21))\" width=\"\(n(width))\" height=\"8\" rx=\"4\"></rect>"
            out +=
                "<rect class=\"chart-bar\" x=\"0\" y=\"\(n(y + 21))\" width=\"\(n(max(8, width * item.value / maximum)))\" height=\"8\" rx=\"4\"></rect>"
        }
        return out + "</svg>"
    }

    /// A grid of `rows` (label, twelve counts): each cell shaded by its count, the count inside.
    static func grid(_ rows: [(label: String, counts: [Int])], columns: [String]) -> String {
        let left = 44.0
        let cell = (width - left) / 12
        let head = 18.0
        let height = head + Double(rows.count) * cell
        let maximum = max(rows.flatMap(\.counts).max() ?? 0, 1)
        var out = svgStart(height: height)
        for (column, name) in columns.enumerated() {
            out += text(name, x: left + (Double(column) + 0.5) * cell, y: 12, "chart-label", anchor: "middle")
        }
        for (index, row) in rows.enumerated() {
            let y = head + Double(index) * cell
            out += text(row.label, x: 0, y: y + cell / 2 + 4, "chart-label", anchor: "start")
            for (column, count) in row.counts.enumerated() {
                let x = left + Double(column) * cell
                let level = count == 0 ? 0 : 1 + Int((Double(count) / Double(maximum) * 4).rounded(.up))
                out +=
                    "<rect class=\"chart-cell chart-level-\(min(level, 5))\" x=\"\(n(x + 1.5))\" y=\"\(n(y + 1.5))\" width=\"\(n(cell - 3))\" height=\"\(n(cell - 3))\" rx=\"3\"></rect>"
                if count > 0 {
                    out += text(
                        String(count), x: x + cell / 2, y: y + cell / 2 + 4,
                        "chart-cell-value chart-level-\(min(level, 5))", anchor: "middle")
                }
            }
        }
        return out + "</svg>"
    }

    /// The font sizes of `.chart-value` and `.chart-label` in the theme's CSS: inside an SVG,
    /// a CSS pixel is one of its units, so text scales with the chart and fits the same at any size.
    static let valueSize = 12.0
    static let labelSize = 12.0

    /// About how wide `text` is at `size` px: wide (Hangul, CJK) characters 1 em, others 0.6
    /// (digits are about 0.55 em in the theme's sans-serif fonts).
    static func textWidth(_ text: String, size: Double) -> Double {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1, size: size) }
    }

    /// About how wide one character starting with `scalar` is at `size` px (see ``textWidth(_:size:)``).
    static func width(of scalar: Unicode.Scalar, size: Double) -> Double {
        scalar.value >= 0x1100 ? size : size * 0.6
    }

    /// The centre of a text `textWidth` wide around `center`, moved in as far as it must be
    /// to stay inside the chart.
    static func inside(_ center: Double, _ textWidth: Double) -> Double {
        min(max(center, textWidth / 2), width - textWidth / 2)
    }
}

private extension StatsChart {
    static func svgStart(height: Double) -> String {
        "<svg class=\"chart-svg\" viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\" height=\"\(n(height))\" aria-hidden=\"true\">"
    }

    static func line(x1: Double, y1: Double, x2: Double, y2: Double, _ kind: String) -> String {
        "<line class=\"\(kind)\" x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\"></line>"
    }

    static func text(_ value: String, x: Double, y: Double, _ kind: String, anchor: String) -> String {
        "<text class=\"\(kind)\" x=\"\(n(x))\" y=\"\(n(y))\" text-anchor=\"\(anchor)\">\(escaped(value))</text>"
    }

    /// A coordinate with at most one decimal, the same on every machine.
    static func n(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : String(format: "%.1f", Double(tenths) / 10)
    }

    /// A label cut (with "…") to about the width left of the value, at 13 px: each character
    /// as wide as its first scalar (``width(of:size:)``).
    static func shortened(_ label: String) -> String {
        var width = 0.0
        var out = ""
        for character in label {
            width += character.unicodeScalars.first.map { Self.width(of: $0, size: 13) } ?? 0
            if width > 330 {
                return out + "…"
            }
            out.append(character)
        }
        return out
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
