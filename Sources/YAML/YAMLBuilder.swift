/// Builds one ``YAMLNode`` from parser events, with the limits that keep a small text from
/// becoming a huge or endless value: nesting depth, values repeated through aliases, and a
/// single document. Each event costs constant time (apart from the values it holds), so
/// building is linear in the text.
struct YAMLBuilder {
    /// Lists and mappings nested deeper than this are refused, counting those an alias brings in.
    static let depthLimit = 64
    /// Aliases may repeat at most this many values in a document (each item, key and value counts).
    static let aliasValueLimit = 100_000

    /// What the parser reports, in text order.
    enum Event {
        case documentStart(at: TextPosition)
        case scalar(String, plain: Bool, anchor: String?, at: TextPosition)
        case alias(String, at: TextPosition)
        case sequenceStart(anchor: String?, at: TextPosition)
        case mappingStart(anchor: String?, at: TextPosition)
        case collectionEnd
    }

    /// The document's value once it is complete; nil while none was seen (an empty text).
    private(set) var root: YAMLNode?
    private var open: [Collection] = []
    private var anchors: [String: Built] = [:]
    private var documents = 0
    private var aliasValues = 0

    mutating func add(_ event: Event) throws(YAMLError) {
        switch event {
        case .documentStart(let at):
            documents += 1
            guard documents == 1 else {
                throw YAMLError(
                    message: "a second YAML document starts here, but only one is read: "
                        + "remove this \"---\" line to make one document",
                    position: at)
            }
        case .scalar(let text, let plain, let anchor, let at):
            // libyaml refuses these characters written as they are, but not written as escapes
            // ("\x01", "\0", "\uFFFE"), only possible in quoted text: refused the same.
            if !plain, let character = YAMLPrintable.firstRefused(in: text) {
                let kind = character.value >= 0xFFFE ? "non-characters" : "control characters"
                throw YAMLError(
                    message: "\(kind) are not allowed (\(YAMLPrintable.name(character)), written as an escape): "
                        + "remove it",
                    position: at)
            }
            let built = Built(node: .scalar(text, plain: plain, at: at), values: 1, height: 0)
            if let anchor { anchors[anchor] = built }
            try attach(built)
        case .alias(let name, let at):
            try attach(try expand(name, at: at))
        case .sequenceStart(let anchor, let at):
            try start(Collection(isMapping: false, anchor: anchor, start: at))
        case .mappingStart(let anchor, let at):
            try start(Collection(isMapping: true, anchor: anchor, start: at))
        case .collectionEnd:
            let collection = open.removeLast()
            let node: YAMLNode =
                collection.isMapping
                ? .mapping(collection.mergedPairs(), at: collection.start)
                : .sequence(collection.items, at: collection.start)
            let built = Built(node: node, values: collection.values, height: collection.height)
            if let anchor = collection.anchor { anchors[anchor] = built }
            try attach(built)
        }
    }
}

private extension YAMLBuilder {
    /// A finished value with its size: values in it (counting what aliases repeat) and how many
    /// lists and mappings deep it goes.
    struct Built {
        let node: YAMLNode
        let values: Int
        let height: Int
    }

    /// A list or mapping whose end has not been seen yet.
    struct Collection {
        let isMapping: Bool
        let anchor: String?
        let start: TextPosition
        var items: [YAMLNode] = []
        var pairs: [YAMLPair] = []
        /// A mapping's key waiting for its value.
        var key: YAMLNode?
        /// The text of every scalar key so far, to find duplicates in constant time.
        var keys: Set<String> = []
        /// Mappings to merge in (`<<: *defaults`), earliest first.
        var merges: [YAMLNode] = []
        var values = 1
        var height = 1

        /// The pairs, then the pairs of merged mappings whose keys the mapping does not have.
        func mergedPairs() -> [YAMLPair] {
            guard !merges.isEmpty else { return pairs }
            var result = pairs
            var seen = keys
            for case .mapping(let merged, _) in merges {
                for pair in merged {
                    if let text = pair.key.scalarText, !seen.insert(text).inserted { continue }
                    result.append(pair)
                }
            }
            return result
        }
    }

    mutating func start(_ collection: Collection) throws(YAMLError) {
        guard open.count < Self.depthLimit else {
            throw YAMLError(
                message: "lists and mappings nest deeper than \(Self.depthLimit) levels here",
                position: collection.start)
        }
        open.append(collection)
    }

    /// The value an alias names, counted against the limits.
    mutating func expand(_ name: String, at: TextPosition) throws(YAMLError) -> Built {
        if open.contains(where: { $0.anchor == name }) {
            throw YAMLError(
                message: "the alias \"*\(name)\" is inside the value it names, so it would never end", position: at)
        }
        guard let built = anchors[name] else {
            throw YAMLError(
                message: "found undefined alias \"*\(name)\": no \"&\(name)\" comes before it", position: at)
        }
        aliasValues += built.values
        guard aliasValues <= Self.aliasValueLimit else {
            throw YAMLError(
                message: "this YAML expands to more than \(Self.aliasValueLimit.formatted) values through aliases",
                position: at)
        }
        guard open.count + built.height <= Self.depthLimit else {
            throw YAMLError(
                message: "lists and mappings nest deeper than \(Self.depthLimit) levels through the alias \"*\(name)\"",
                position: at)
        }
        return built
    }

    /// Puts a finished value in the collection that holds it, or makes it the document.
    mutating func attach(_ built: Built) throws(YAMLError) {
        guard !open.isEmpty else {
            root = built.node
            return
        }
        let top = open.count - 1
        open[top].values += built.values
        open[top].height = max(open[top].height, built.height + 1)
        guard open[top].isMapping else {
            open[top].items.append(built.node)
            return
        }
        guard let key = open[top].key else {
            if let text = built.node.scalarText, !open[top].keys.insert(text).inserted {
                throw YAMLError(message: "duplicate key \"\(text)\"", position: built.node.position)
            }
            open[top].key = built.node
            return
        }
        open[top].key = nil
        if case .scalar("<<", plain: true, _) = key {
            open[top].merges += try Self.mergeSources(built.node)
        } else {
            open[top].pairs.append(YAMLPair(key: key, value: built.node))
        }
    }

    /// The mappings a merge key's value names: one mapping, or a list of them.
    static func mergeSources(_ value: YAMLNode) throws(YAMLError) -> [YAMLNode] {
        switch value {
        case .mapping:
            return [value]
        case .sequence(let items, _):
            for item in items {
                guard case .mapping = item else { throw notMergeable(item) }
            }
            return items
        case .scalar:
            throw notMergeable(value)
        }
    }

    static func notMergeable(_ value: YAMLNode) -> YAMLError {
        YAMLError(
            message: "\"<<\" merges a mapping (like <<: *defaults) or a list of mappings, not \(value.kindName)",
            position: value.position)
    }
}

private extension Int {
    /// The number with a comma every three digits, as the README writes it: 100,000.
    var formatted: String {
        let digits = Array(String(self))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
