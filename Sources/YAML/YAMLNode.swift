/// A parsed YAML value, each piece with the line and column it came from.
public indirect enum YAMLNode: Sendable, Equatable {
    /// A scalar: its text and whether it was written plain (unquoted, so it may be a number or `true`).
    case scalar(String, plain: Bool, at: TextPosition)
    case sequence([YAMLNode], at: TextPosition)
    case mapping([YAMLPair], at: TextPosition)

    /// Where the node starts.
    public var position: TextPosition {
        switch self {
        case .scalar(_, _, let position), .sequence(_, let position), .mapping(_, let position): position
        }
    }

    /// The value under `key` when this is a mapping.
    public subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs, _) = self else { return nil }
        return pairs.first { $0.key.scalarText == key }?.value
    }

    /// The text of a scalar, or nil for a sequence or mapping.
    public var scalarText: String? {
        if case .scalar(let text, _, _) = self { return text }
        return nil
    }

    /// A plain scalar meaning null: empty, `~` or `null`.
    public var isNull: Bool {
        guard case .scalar(let text, let plain, _) = self, plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// A short name for the kind of node, for error messages.
    public var kindName: String {
        switch self {
        case .scalar: "a single value"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}

/// A key and value in a YAML mapping.
public struct YAMLPair: Sendable, Equatable {
    public let key: YAMLNode
    public let value: YAMLNode

    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}
