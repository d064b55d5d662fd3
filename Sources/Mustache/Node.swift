/// One piece of a compiled template.
///
/// `standalone` marks tags that stood alone on their line: the line is gone from
/// the output, so such a node does not start an indented line itself.
enum Node: Sendable {
    case text(Text)
    case variable(Variable)
    case section(Section)
    case partial(Partial)
    case parent(Parent)
    case block(Block)

    struct Text: Sendable {
        let bytes: [UInt8]
        let endsWithNewline: Bool
    }

    struct Variable: Sendable {
        let name: Name
        let escaped: Bool
    }

    struct Section: Sendable {
        let name: Name
        let inverted: Bool
        let body: [Node]
        let standalone: Bool
    }

    struct Partial: Sendable {
        let name: PartialName
        let indentation: [UInt8]
        let standalone: Bool
        let offset: Int
    }

    /// `{{<parent}}…{{/parent}}`: a partial whose blocks the enclosed blocks replace.
    struct Parent: Sendable {
        let name: PartialName
        let overrides: [String: Override]
        let indentation: [UInt8]
        let standalone: Bool
        let offset: Int
    }

    /// `{{$name}}…{{/name}}` where it is expanded; `indentation` is added to its content's lines.
    struct Block: Sendable {
        let name: String
        let body: [Node]
        let indentation: [UInt8]
        let standalone: Bool
    }
}

/// A block passed to a parent, with the template it was written in.
struct Override: Sendable {
    let body: [Node]
    let source: TemplateSource
}

/// A dotted name such as `review.title`; no parts means the implicit iterator `.`.
struct Name: Sendable {
    let parts: [String]

    init(_ content: String) {
        parts = content == "." ? [] : content.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }
}

/// The name in a partial or parent tag: written out, or looked up in the data (`{{>*name}}`).
enum PartialName: Sendable {
    case fixed(String)
    case dynamic(Name)

    init(_ content: String) {
        if content.hasPrefix("*") {
            let rest = content.dropFirst().drop(while: { $0 == " " || $0 == "\t" })
            self = .dynamic(Name(String(rest)))
        } else {
            self = .fixed(content)
        }
    }
}

/// The text of a template, kept to turn byte offsets into line and column on error.
final class TemplateSource: Sendable {
    let name: String
    let path: String
    let text: String

    init(name: String, path: String, text: String) {
        self.name = name
        self.path = path
        self.text = text
    }

    func location(at offset: Int) -> SourceLocation {
        SourceLocation(path: path, source: text, offset: offset)
    }
}
