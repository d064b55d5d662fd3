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
        if utf8.allSatisfy(\.isPlainPathByte) { return self }
        return addingPercentEncoding(withAllowedCharacters: Self.pathAllowed) ?? self
    }

    private static let pathAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#"))
}

private extension UInt8 {
    /// ASCII letters, digits and `- . _ ~ /`: bytes a path keeps as they are.
    var isPlainPathByte: Bool {
        (0x61...0x7A).contains(self) || (0x41...0x5A).contains(self) || (0x30...0x39).contains(self)
            || self == 0x2D || self == 0x2E || self == 0x5F || self == 0x7E || self == 0x2F
    }
}
