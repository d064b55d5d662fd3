import CYaml

/// Parses YAML with libyaml into ``YAMLNode`` values; the only file that sees libyaml.
public enum YAMLParser {
    /// Aliases can make a document refer to itself; nesting deeper than this is refused.
    static let depthLimit = 64

    /// Parses one YAML document; returns nil when the text holds no document.
    public static func parse(_ text: String) throws(YAMLError) -> YAMLNode? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw YAMLError(message: "cannot start the YAML parser", position: TextPosition(line: 1, column: 1))
        }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(text.utf8)
        if bytes.isEmpty { return nil }
        return try bytes.withUnsafeMutableBufferPointer { buffer throws(YAMLError) -> YAMLNode? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var document = yaml_document_t()
            guard yaml_parser_load(&parser, &document) == 1 else { throw error(of: parser) }
            defer { yaml_document_delete(&document) }
            guard let root = yaml_document_get_root_node(&document) else { return nil }
            return try node(root, in: &document, depth: 0)
        }
    }
}

/// A YAML syntax or structure error, at a position in the YAML text.
public struct YAMLError: Error, Sendable, Equatable {
    public let message: String
    public let position: TextPosition
}

private extension YAMLParser {
    static func error(of parser: yaml_parser_t) -> YAMLError {
        var message = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        if let context = parser.context {
            message += " " + String(cString: context)
        }
        let mark = parser.problem_mark
        return YAMLError(message: message, position: position(mark))
    }

    static func position(_ mark: yaml_mark_t) -> TextPosition {
        TextPosition(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    static func node(
        _ node: UnsafeMutablePointer<yaml_node_t>, in document: inout yaml_document_t, depth: Int
    ) throws(YAMLError) -> YAMLNode {
        let at = position(node.pointee.start_mark)
        guard depth < depthLimit else {
            throw YAMLError(message: "nesting deeper than \(depthLimit) levels (a recursive alias?)", position: at)
        }
        switch node.pointee.type {
        case YAML_SCALAR_NODE:
            let scalar = node.pointee.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            return .scalar(text, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE, at: at)
        case YAML_SEQUENCE_NODE:
            var items: [YAMLNode] = []
            var item = node.pointee.data.sequence.items.start
            while let current = item, current != node.pointee.data.sequence.items.top {
                items.append(try child(current.pointee, in: &document, depth: depth, at: at))
                item = current + 1
            }
            return .sequence(items, at: at)
        case YAML_MAPPING_NODE:
            var pairs: [YAMLPair] = []
            var pair = node.pointee.data.mapping.pairs.start
            while let current = pair, current != node.pointee.data.mapping.pairs.top {
                let key = try child(current.pointee.key, in: &document, depth: depth, at: at)
                let value = try child(current.pointee.value, in: &document, depth: depth, at: at)
                if let text = key.scalarText, pairs.contains(where: { $0.key.scalarText == text }) {
                    throw YAMLError(message: "duplicate key \"\(text)\"", position: key.position)
                }
                pairs.append(YAMLPair(key: key, value: value))
                pair = current + 1
            }
            return .mapping(pairs, at: at)
        default:
            return .scalar("", plain: true, at: at)
        }
    }

    static func child(
        _ index: Int32, in document: inout yaml_document_t, depth: Int, at: TextPosition
    ) throws(YAMLError) -> YAMLNode {
        guard let child = yaml_document_get_node(&document, index) else {
            throw YAMLError(message: "broken YAML document", position: at)
        }
        return try node(child, in: &document, depth: depth + 1)
    }
}
