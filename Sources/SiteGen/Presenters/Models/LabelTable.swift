import Foundation

/// Fixed words by name: reads and replaces the text properties of a struct of words
/// (``Labels``, ``Phrases``) through its synthesized `Codable` conformance, so that a new
/// word needs no list of names kept by hand.
enum LabelTable {
    /// The names of `words`' properties.
    static func names(of words: some Encodable) -> Set<String> {
        Set(dictionary(words).keys)
    }

    /// `words` as a table of name and text.
    static func dictionary(_ words: some Encodable) -> [String: String] {
        guard let data = try? JSONEncoder().encode(words),
            let table = try? JSONDecoder().decode([String: String].self, from: data)
        else { preconditionFailure("a struct of words has only text properties") }
        return table
    }

    /// `words` with the texts of `overrides` (by name) in place of its own; names it does not have are left out.
    static func overriding<Words: Codable>(_ words: Words, with overrides: [String: String]) -> Words {
        var table = dictionary(words)
        for (name, text) in overrides where table[name] != nil { table[name] = text }
        guard let data = try? JSONEncoder().encode(table),
            let replaced = try? JSONDecoder().decode(Words.self, from: data)
        else { preconditionFailure("a struct of words has only text properties") }
        return replaced
    }
}
