/// A problem in a template, with where it is and which partials led there.
public struct TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        case unclosedTag(delimiter: String)
        case emptyTag
        case invalidDelimiters(String)
        case unclosedSection(name: String, openedAt: SourceLocation)
        case unexpectedClosingTag(name: String)
        case mismatchedClosingTag(expected: String, found: String, openedAt: SourceLocation)
        case tagInsideParent(tag: String, parent: String)
        case missingPartial(name: String)
        case tooDeep(limit: Int)
        case nestedTooDeep(limit: Int)
        /// `throughPartials`: a partial was being rendered inside itself when the limit came.
        case tooManySteps(limit: Int, throughPartials: Bool = true)
        case outputTooLarge(limit: Int)
        case longDelimiters(limit: Int)
        case invalidUTF8(byte: UInt8)
        case unreadable(detail: String)
    }

    /// The fields, in one box: the error then fits in a register, where a large struct would
    /// take stack space in every frame that calls a throwing function (and rendering recurses).
    private let storage: ErrorStorage

    public var reason: Reason { storage.reason }
    public var location: SourceLocation { storage.location }
    /// The partial and parent tags that included the failing template, innermost first.
    public var includedFrom: [SourceLocation] { storage.includedFrom }

    public init(_ reason: Reason, at location: SourceLocation, includedFrom: [SourceLocation] = []) {
        storage = ErrorStorage(reason: reason, location: location, includedFrom: includedFrom)
    }

    public static func == (lhs: TemplateError, rhs: TemplateError) -> Bool {
        lhs.reason == rhs.reason && lhs.location == rhs.location && lhs.includedFrom == rhs.includedFrom
    }

    /// The message without its location.
    public var message: String {
        switch reason {
        case .unclosedTag(let delimiter):
            "unclosed tag: no \"\(delimiter)\" after it"
        case .emptyTag:
            "tag has no name"
        case .invalidDelimiters(let content):
            "invalid set-delimiter tag \"\(content)\": expected two delimiters without \"=\" or spaces"
        case .unclosedSection(let name, let openedAt):
            "unclosed section \"\(name)\" (opened at \(openedAt.lineAndColumn))"
        case .unexpectedClosingTag(let name):
            "closing tag \"\(name)\" has no matching opening tag"
        case .mismatchedClosingTag(let expected, let found, let openedAt):
            "closing tag \"\(found)\" does not match \"\(expected)\" (opened at \(openedAt.lineAndColumn))"
        case .tagInsideParent(let tag, let parent):
            "\(tag) inside parent \"\(parent)\": only blocks ({{$name}}) and comments may appear there"
        case .missingPartial(let name):
            "no template named \"\(name)\""
        case .tooDeep(let limit):
            "partials nest more than \(limit) deep (endless recursion?)"
        case .nestedTooDeep(let limit):
            "sections, blocks and partials nest more than \(limit) deep"
        case .tooManySteps(let limit, let throughPartials):
            "rendering takes more than \(limit) steps "
                + (throughPartials
                    ? "(partials that include themselves over and over?)"
                    : "(sections that repeat over very long lists?)")
        case .outputTooLarge(let limit):
            "the output is larger than \(limit) bytes"
        case .longDelimiters(let limit):
            "set-delimiter tag: a delimiter may be at most \(limit) bytes long"
        case .invalidUTF8(let byte):
            UTF8Text.message(invalidByte: byte)
        case .unreadable(let detail):
            "cannot read template: \(detail)"
        }
    }

    public var description: String {
        ([location.description + ": " + message] + includedFromLines).joined(separator: "\n")
    }

    /// The lines under the message that say which partial and parent tags led to the error,
    /// innermost first and indented. Sites that repeat (a partial that includes itself, or
    /// partials that include each other, up to ``longestCycle`` of them) are written once with
    /// how many times they came, so an endless recursion takes a few lines instead of 200.
    public var includedFromLines: [String] {
        let sites = includedFrom
        var lines: [String] = []
        var start = 0
        while start < sites.count {
            let (period, repeats) = Self.repetition(in: sites, at: start)
            if repeats < 3 {
                lines.append("    included from \(sites[start])")
                start += 1
                continue
            }
            if period == 1 {
                lines.append("    included from \(sites[start]) (\(repeats) times)")
            } else {
                for site in sites[start..<(start + period)] {
                    lines.append("    included from \(site)")
                }
                lines.append("    (the \(period) lines above, \(repeats) times in all)")
            }
            start += period * repeats
        }
        return lines
    }

    /// The most partials a cycle of ``includedFromLines`` folds.
    public static let longestCycle = 8

    /// The run of sites from `start` (at most ``longestCycle`` long) that repeats back to back
    /// over the most sites, and how many times it comes; the shorter run on a tie.
    private static func repetition(in sites: [SourceLocation], at start: Int) -> (period: Int, repeats: Int) {
        var best = (period: 1, repeats: 1)
        let longest = min(longestCycle, (sites.count - start) / 2)
        guard longest >= 1 else { return best }
        for period in 1...longest {
            let first = sites[start..<(start + period)]
            var repeats = 1
            while start + (repeats + 1) * period <= sites.count,
                sites[(start + repeats * period)..<(start + (repeats + 1) * period)].elementsEqual(first)
            {
                repeats += 1
            }
            if repeats * period > best.repeats * best.period { best = (period, repeats) }
        }
        return best
    }
}

/// A ``TemplateError``'s fields; immutable.
private final class ErrorStorage: Sendable {
    let reason: TemplateError.Reason
    let location: SourceLocation
    let includedFrom: [SourceLocation]

    init(reason: TemplateError.Reason, location: SourceLocation, includedFrom: [SourceLocation]) {
        self.reason = reason
        self.location = location
        self.includedFrom = includedFrom
    }
}
