/// The Markdown body of a generated review: paragraphs with emphasis and links, a heading,
/// a blockquote and a list, sometimes a code span, a second heading or a thematic break;
/// everything libcmark handles (no tables, no raw HTML).
struct ReviewText {
    /// Words of running text (markup not counted).
    let words: Int
    /// Written in Korean (a Korean title's review), else in English.
    let korean: Bool

    /// The body, ending with a newline.
    func markdown(_ random: inout SplitMix) -> String {
        var budget = words
        let heading = phrase(&random, korean ? Vocabulary.koreanHeadings : Vocabulary.headings)
        let second =
            random.chance(0.4) ? phrase(&random, korean ? Vocabulary.koreanHeadings : Vocabulary.headings) : nil
        budget -= (heading + " " + (second ?? "")).split(separator: " ").count
        let quote = sentences(&random, count: random.int(1...2), budget: &budget)
        var items: [String] = []
        for _ in 0..<random.int(3...5) { items.append(inline(&random, sentence(&random, length: random.int(5...12)))) }
        budget -= items.reduce(0) { $0 + $1.split(separator: " ").count }
        let numbered = random.chance(0.3)
        let list = items.enumerated().map { numbered ? "\($0.offset + 1). \($0.element)" : "- \($0.element)" }
        var paragraphs: [String] = []
        while budget > 0 {
            let length = min(budget, random.int(55...110))
            budget -= length
            paragraphs.append(inline(&random, paragraph(&random, words: length)))
        }
        if random.chance(0.25), !paragraphs.isEmpty {
            // A code span in place of one word, in the last paragraph's first sentence.
            var words = paragraphs[paragraphs.count - 1].split(separator: " ", maxSplits: 3).map(String.init)
            if words.count == 4, words[2].allSatisfy({ $0.isLetter || $0 == "," }) {
                words[2] = random.pick(["`35mm`", "`1.85:1`", "`ISBN`", "`4K`", "`Dolby`"])
                paragraphs[paragraphs.count - 1] = words.joined(separator: " ")
            }
        }
        var blocks = paragraphs
        let middle = min(blocks.count, 2)
        blocks.insert("## " + heading, at: middle)
        blocks.insert(quote.map { "> " + $0 }.joined(separator: "\n"), at: min(blocks.count, middle + 2))
        blocks.insert(list.joined(separator: "\n"), at: min(blocks.count, middle + 4))
        if let second { blocks.insert("### " + second, at: min(blocks.count - 1, middle + 6)) }
        if random.chance(0.15) { blocks.insert("* * *", at: blocks.count - 1) }
        return blocks.joined(separator: "\n\n") + "\n"
    }
}

private extension ReviewText {
    func phrase(_ random: inout SplitMix, _ options: [String]) -> String { random.pick(options) }

    /// A paragraph of exactly `words` words, in sentences of 6 to 24 words.
    func paragraph(_ random: inout SplitMix, words: Int) -> String {
        var left = words
        var parts: [String] = []
        while left > 0 {
            var length = min(left, random.int(6...24))
            if (1..<4).contains(left - length) { length = left }
            parts.append(sentence(&random, length: length))
            left -= length
        }
        return parts.joined(separator: " ")
    }

    func sentences(_ random: inout SplitMix, count: Int, budget: inout Int) -> [String] {
        (0..<count).map { _ in
            let length = random.int(8...18)
            budget -= length
            return sentence(&random, length: length)
        }
    }

    /// One sentence of `length` words: capitalised, with a comma now and then, ending in a full stop.
    func sentence(_ random: inout SplitMix, length: Int) -> String {
        var words: [String] = []
        for position in 0..<length {
            var word =
                korean
                ? random.pick(Vocabulary.korean)
                : random.chance(0.2) ? random.pick(Vocabulary.functionWords) : random.pick(Vocabulary.contentWords)
            if position == 0 { word = word.prefix(1).uppercased() + word.dropFirst() }
            if position > 2, position < length - 2, random.chance(0.07) { word += "," }
            words.append(word)
        }
        return words.joined(separator: " ") + (random.chance(0.05) ? "?" : ".")
    }

    /// Emphasis, strong emphasis and a link on some words of `text`, in separate thirds so they
    /// never overlap (the word count stays the same).
    func inline(_ random: inout SplitMix, _ text: String) -> String {
        var words = text.split(separator: " ").map(String.init)
        let third = words.count / 3
        guard third >= 3 else { return text }
        let plain = { (word: String) in word.filter { $0 != "," } }
        if random.chance(0.5) {
            let at = random.int(0...third - 3)
            let path = words[at...at + 2].map { $0.filter(\.isLetter).lowercased() }.joined(separator: "-")
            words[at] = "[" + plain(words[at])
            words[at + 1] = plain(words[at + 1])
            words[at + 2] =
                plain(words[at + 2]) + "](https://www.example.org/reviews/\(random.int(1995...2025))/\(path)/)"
        }
        if random.chance(0.5) {
            let at = random.int(third...2 * third - 1)
            words[at] = "*" + plain(words[at]) + "*"
        }
        if random.chance(0.3) {
            let at = random.int(2 * third...words.count - 2)
            words[at] = "**" + plain(words[at])
            words[at + 1] = plain(words[at + 1]) + "**"
        }
        return words.joined(separator: " ")
    }
}

extension ReviewText {
    /// A one-sentence summary for the front matter, in the review's language.
    func summary(_ random: inout SplitMix) -> String {
        sentence(&random, length: random.int(10...18))
    }
}

extension ReviewText {
    /// Plain sentences of `words` words, without markup (a synopsis).
    func plainParagraph(_ random: inout SplitMix) -> String {
        paragraph(&random, words: words)
    }
}
