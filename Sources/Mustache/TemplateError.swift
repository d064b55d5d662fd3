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
        case unreadable(detail: String)
    }

    public let reason: Reason
    public let location: SourceLocation
    /// The partial and parent tags that included the failing template, innermost first.
    public let includedFrom: [SourceLocation]

    public init(_ reason: Reason, at location: SourceLocation, includedFrom: [SourceLocation] = []) {
        self.reason = reason
        self.location = location
        self.includedFrom = includedFrom
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
        case .unreadable(let detail):
            "cannot read template: \(detail)"
        }
    }

    public var description: String {
        var text = "\(location): \(message)"
        for site in includedFrom {
            text += "\n    included from \(site)"
        }
        return text
    }
}
