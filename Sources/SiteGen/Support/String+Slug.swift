import Foundation

extension String {
    /// A URL path segment made from a name: lowercase letters and digits (any script, so
    /// Korean stays Korean) with single hyphens between words.
    public var slug: String {
        var result = ""
        var pendingHyphen = false
        for character in self.lowercased() {
            if character.isLetter || character.isNumber {
                if pendingHyphen && !result.isEmpty { result.append("-") }
                result.append(character)
                pendingHyphen = false
            } else {
                pendingHyphen = true
            }
        }
        return result
    }

    /// Percent-encodes a URL path (keeping `/`), so Korean slugs make valid links.
    public var percentEncodedPath: String {
        addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#")))
            ?? self
    }
}
