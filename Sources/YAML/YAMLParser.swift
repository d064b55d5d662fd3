internal import CYaml

/// Parses YAML with libyaml into ``YAMLNode`` values; the only file that sees libyaml.
///
/// It drives libyaml's event parser and builds the nodes itself (``YAMLBuilder``), so it stops
/// at the first problem and bounds nesting, aliases and documents as it goes.
public enum YAMLParser {
    /// Parses one YAML document; returns nil when the text holds no document.
    public static func parse(_ text: String) throws(YAMLError) -> YAMLNode? {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(YAMLError) in try parse(UnsafeRawBufferPointer(bytes)) }
        }
        return try result.get()
    }

    /// Parses one YAML document from UTF-8 bytes (an entry point for fuzzing: any bytes give
    /// a node, nil or a ``YAMLError``, never a crash).
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(YAMLError) -> YAMLNode? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw YAMLError(message: "cannot start the YAML parser", position: TextPosition(line: 1, column: 1))
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        var builder = YAMLBuilder()
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else {
                throw LibYAMLProblem(parser).error(in: bytes)
            }
            defer { yaml_event_delete(&event) }
            let at = position(event.start_mark)
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return builder.root
            case YAML_DOCUMENT_START_EVENT:
                try builder.add(.documentStart(at: at))
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = String(
                    decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                let plain = scalar.style == YAML_PLAIN_SCALAR_STYLE && string(scalar.tag) != "tag:yaml.org,2002:str"
                try builder.add(.scalar(text, plain: plain, anchor: string(scalar.anchor), at: at))
            case YAML_ALIAS_EVENT:
                try builder.add(.alias(string(event.data.alias.anchor) ?? "", at: at))
            case YAML_SEQUENCE_START_EVENT:
                try builder.add(.sequenceStart(anchor: string(event.data.sequence_start.anchor), at: at))
            case YAML_MAPPING_START_EVENT:
                try builder.add(.mappingStart(anchor: string(event.data.mapping_start.anchor), at: at))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                try builder.add(.collectionEnd)
            default:
                break
            }
        }
    }

    /// Parses one YAML document from UTF-8 bytes.
    public static func parse(_ bytes: [UInt8]) throws(YAMLError) -> YAMLNode? {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(YAMLError) in try parse(buffer) }
        }
        return try result.get()
    }
}

private extension YAMLParser {
    static func position(_ mark: yaml_mark_t) -> TextPosition {
        TextPosition(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    static func string(_ text: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        text.map { String(cString: $0) }
    }
}

private extension LibYAMLProblem {
    /// The parser's error, in Swift values.
    init(_ parser: yaml_parser_t) {
        let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        let context = parser.context.map { String(cString: $0) }
        if parser.error == YAML_READER_ERROR {
            self.init(
                problem: problem, at: .byte(parser.problem_offset, value: Int(parser.problem_value)),
                context: context, contextAt: nil)
        } else {
            self.init(
                problem: problem, at: .mark(YAMLParser.position(parser.problem_mark)), context: context,
                contextAt: context == nil ? nil : YAMLParser.position(parser.context_mark))
        }
    }
}
