import Foundation
import YAML

extension String {
    /// The text as a YAML double-quoted scalar that reads back as this text: `"`, `\`, tab,
    /// line breaks (YAML's own too: U+0085, U+2028, U+2029) and the byte order mark escaped;
    /// other control characters, which no YAML reader accepts even escaped, left out;
    /// everything else written as it is. For the front matter and `site.yml` that `sitegen
    /// init` and `sitegen new` write.
    public var yamlQuoted: String {
        var quoted = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            case _ where !YAMLPrintable.allows(scalar):
                continue
            case "\u{85}", "\u{2028}", "\u{2029}", "\u{FEFF}":
                quoted += String(format: "\\u%04X", scalar.value)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
