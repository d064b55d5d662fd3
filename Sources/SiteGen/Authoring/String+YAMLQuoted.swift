import Foundation

extension String {
    /// The text as a YAML double-quoted scalar that reads back as exactly this text: `"`, `\`,
    /// control characters, YAML's own line breaks (U+0085, U+2028, U+2029) and the byte order
    /// mark escaped, everything else written as it is. For the front matter and `site.yml` that
    /// `sitegen init` and `sitegen new` write.
    public var yamlQuoted: String {
        var quoted = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFE}", "\u{FFFF}":
                quoted += String(format: "\\u%04X", scalar.value)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
