/// An error libyaml reported, in Swift values; ``error(in:)`` turns it into a ``YAMLError``
/// that keeps libyaml's words and adds a plain-words hint for the common mistakes.
struct LibYAMLProblem {
    /// Where libyaml found the problem: a line and column, or (for bad bytes) a byte offset.
    enum Place {
        case mark(TextPosition)
        /// `value` is the byte or character libyaml refused, or -1.
        case byte(Int, value: Int)
    }

    let problem: String
    let at: Place
    /// What libyaml was reading (`while parsing a flow sequence`) and where that started.
    let context: String?
    let contextAt: TextPosition?

    /// The error with its hint, at the place the hint names (an unclosed bracket: where it opened).
    func error(in bytes: UnsafeRawBufferPointer) -> YAMLError {
        let source = SourceText(bytes: bytes)
        let message = context.map { "\(problem) \($0)" } ?? problem
        switch at {
        case .byte(let offset, let value):
            let shown = problem.contains("octet") ? "byte 0x" + hex(value, digits: 2) : "U+" + hex(value, digits: 4)
            // A bad continuation byte: point at the character it breaks, where the user sees it.
            let start = problem.contains("trailing") ? source.characterStart(before: offset) : offset
            return YAMLError(
                message: value < 0 ? message : "\(message) (\(shown))", position: source.position(ofByte: start))
        case .mark(let position):
            if let (hint, place) = hint(at: position, in: source) {
                return YAMLError(message: "\(message): \(hint)", position: place)
            }
            return YAMLError(message: message, position: position)
        }
    }
}

private extension LibYAMLProblem {
    /// A hint for the mistakes people make most, and the position it speaks of.
    func hint(at position: TextPosition, in source: SourceText) -> (String, TextPosition)? {
        if let opened = contextAt, opened.line < position.line, !source.hasClosedBracket(at: opened),
            let hint = unclosedHint(at: opened, in: source)
        {
            return (hint, opened)
        }
        let line = source.line(position.line)
        let before = line.prefix(max(0, position.column - 1))
        if problem == "mapping values are not allowed in this context", let example = quotedExample(line, before) {
            return ("put the value in quotes, as in \(example)", position)
        }
        if problem.contains("tab") || problem == "found character that cannot start any token",
            position.column <= line.count, line[position.column - 1] == "\t",
            before.allSatisfy({ $0 == " " || $0 == "\t" })
        {
            return ("YAML indents with spaces, not tabs", position)
        }
        return nil
    }

    /// For a flow list, flow mapping or quoted value that runs to a later line than it starts
    /// on, and (for brackets) finds no matching closing bracket in the rest of the text.
    func unclosedHint(at opened: TextPosition, in source: SourceText) -> String? {
        let line = source.line(opened.line)
        guard opened.column <= line.count else { return nil }
        let opening = line[opened.column - 1]
        switch (context, opening) {
        case ("while parsing a flow sequence", "["): return "the \"[\" that starts here is never closed with \"]\""
        case ("while parsing a flow mapping", "{"): return "the \"{\" that starts here is never closed with \"}\""
        case ("while scanning a quoted scalar", "\""), ("while scanning a quoted scalar", "'"):
            return "the \(opening) that starts here is never closed"
        default: return nil
        }
    }

    /// `key: "value"` for a line `key: value: more`, whose second `: ` ends the plain value.
    func quotedExample(_ line: [Unicode.Scalar], _ before: ArraySlice<Unicode.Scalar>) -> String? {
        guard let colon = before.indices.first(where: { isSeparator(line, $0) }) else { return nil }
        let key = String(String.UnicodeScalarView(line[..<colon])).trimmingLeadingListMarks
        var value = String(String.UnicodeScalarView(line[(colon + 1)...]))
        if let comment = value.firstRange(of: " #") { value = String(value[..<comment.lowerBound]) }
        value = value.trimmingBlanks
        guard !key.isEmpty, !value.isEmpty, value.first != "\"", value.first != "'" else { return nil }
        let escaped = value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
        return "\(key): \"\(escaped)\""
    }

    /// A `:` followed by a blank: where a key ends.
    func isSeparator(_ line: [Unicode.Scalar], _ index: Int) -> Bool {
        line[index] == ":" && index + 1 < line.count && (line[index + 1] == " " || line[index + 1] == "\t")
    }

    func hex(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

private extension String {
    var trimmingBlanks: String {
        let scalars = unicodeScalars
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = scalars.firstIndex(where: { !blank($0) }), let last = scalars.lastIndex(where: { !blank($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    /// Without the indentation and `- ` marks that put a mapping in a list.
    var trimmingLeadingListMarks: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" || (first == "-" && text.dropFirst().first == " ") {
            text = text.dropFirst()
        }
        return String(text).trimmingBlanks
    }
}
