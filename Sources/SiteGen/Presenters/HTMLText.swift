/// The words of HTML that cmark wrote: tags become spaces, entities their characters.
enum HTMLText {
    /// The text of `html`, for the search index.
    static func plain(_ html: String) -> String {
        var out = String.UnicodeScalarView()
        var scalars = html.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "<":
                while let next = scalars.popFirst(), next != ">" {}
                out.append(" ")
            case "&":
                let name = scalars.prefix { $0 != ";" && $0 != "&" && $0 != "<" && $0 != " " }
                if name.count < 12, scalars.dropFirst(name.count).first == ";",
                    let decoded = entity(String(String.UnicodeScalarView(name)))
                {
                    out.append(decoded)
                    scalars = scalars.dropFirst(name.count + 1)
                } else {
                    out.append("&")
                }
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func entity(_ name: String) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return " "
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value =
                digits.first == "x" || digits.first == "X"
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init)
        }
    }
}
