internal import CYaml

/// Writes YAML with libyaml's emitter, which quotes and escapes each scalar as its text needs
/// (colons, quotes, a leading `-` or `#`, line breaks), keeping Korean and other text readable.
/// With ``YAMLParser``, the only file that sees libyaml.
public enum YAMLEmitter {
    /// A value to write.
    public indirect enum Value: Sendable, Equatable {
        /// Text that must read back as text: quoted whenever, written plain, it would read as a
        /// number, a date, a boolean or null (`'2046'`, `'yes'`, `''`). Control characters
        /// (but tab and line breaks), which no YAML reader accepts, are left out.
        case text(String)
        /// A scalar written plain when libyaml allows it (a number, a date, `true`), for values
        /// the caller has checked.
        case plain(String)
        /// A list: `[a, b]` when it holds only scalars, one item a line otherwise.
        case list([Value])
        /// Keys and values, in order.
        case mapping([(key: String, value: Value)])

        public static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.text(let a), .text(let b)), (.plain(let a), .plain(let b)): a == b
            case (.list(let a), .list(let b)): a == b
            case (.mapping(let a), .mapping(let b)):
                a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            default: false
            }
        }
    }

    /// The YAML text of one document holding `value`, without `---` or `...` lines, ending
    /// with a line break (a mapping is written one key a line).
    public static func document(_ value: Value) throws(YAMLError) -> String {
        let emitter = UnsafeMutablePointer<yaml_emitter_t>.allocate(capacity: 1)
        emitter.initialize(to: yaml_emitter_t())
        defer { emitter.deallocate() }
        guard yaml_emitter_initialize(emitter) == 1 else { throw failure("cannot start the YAML emitter") }
        defer { yaml_emitter_delete(emitter) }
        let output = Output()
        let box = Unmanaged.passRetained(output)
        defer { box.release() }
        yaml_emitter_set_output(
            emitter,
            { data, buffer, size in
                guard let data, let buffer else { return 0 }
                Unmanaged<Output>.fromOpaque(data).takeUnretainedValue().bytes.append(
                    contentsOf: UnsafeBufferPointer(start: buffer, count: size))
                return 1
            }, box.toOpaque())
        yaml_emitter_set_unicode(emitter, 1)
        yaml_emitter_set_width(emitter, -1)
        yaml_emitter_set_indent(emitter, 2)
        yaml_emitter_set_break(emitter, YAML_LN_BREAK)

        let stand = StandIns(for: value)
        let emit = Emit(emitter: emitter, standIns: stand)
        try emit { yaml_stream_start_event_initialize(&$0, YAML_UTF8_ENCODING) }
        try emit { yaml_document_start_event_initialize(&$0, nil, nil, nil, 1) }
        try emit.value(value)
        try emit { yaml_document_end_event_initialize(&$0, 1) }
        try emit { yaml_stream_end_event_initialize(&$0) }
        return stand.restoring(String(decoding: output.bytes, as: UTF8.self))
    }

    /// Whether `text`, written as a plain scalar, could be read as something other than text by
    /// a YAML 1.1 or 1.2 reader: null, a boolean (`yes`, `off`), a number in any base or with
    /// `_` or `:`, infinity, not-a-number, a date, or a merge key. Errs on the side of quoting.
    public static func readsAsOtherThanText(_ text: String) -> Bool {
        if text.isEmpty || specialWords.contains(text) { return true }
        if [".inf", "+.inf", "-.inf", ".nan"].contains(text.lowercased()) { return true }
        if looksLikeDate(text) { return true }
        guard let first = text.first, "0123456789+-.".contains(first) else { return false }
        return text.contains(where: \.isASCIIDigitCharacter)
            && text.allSatisfy { "0123456789abcdefABCDEFxXoO_.:+-".contains($0) }
    }
}

private extension YAMLEmitter {
    /// Bytes the emitter writes, collected through its C callback.
    final class Output {
        var bytes: [UInt8] = []
    }

    static let specialWords: Set<String> = [
        "~", "null", "Null", "NULL", "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE",
        "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "<<", "=",
    ]

    /// Whether `text` starts like a YAML timestamp: four digits, `-`, one or two, `-`, one or two.
    static func looksLikeDate(_ text: String) -> Bool {
        var parts: [Int] = [0]
        for byte in text.utf8.prefix(10) {
            if byte == UInt8(ascii: "-") {
                guard parts.count < 3 else { break }
                parts.append(0)
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                parts[parts.count - 1] += 1
            } else {
                break
            }
        }
        return parts.count == 3 && parts[0] == 4 && (1...2).contains(parts[1]) && (1...2).contains(parts[2])
    }

    static func failure(_ message: String) -> YAMLError {
        YAMLError(message: message, position: TextPosition(line: 1, column: 1))
    }

    /// libyaml's emitter counts characters outside the Basic Multilingual Plane (emoji, rare
    /// CJK) as unprintable and writes them as `\U0001F3AC` escapes, which YAML reads back but
    /// a reviewer cannot. Each such character is handed to it as a stand-in from the Private
    /// Use Area that the document does not hold (printable for libyaml, so never escaped),
    /// and the stand-ins are put back in the text it writes: a stand-in occurs nowhere else,
    /// and in any scalar style a character YAML allows may be written as itself.
    struct StandIns {
        private var standIn: [Unicode.Scalar: Unicode.Scalar] = [:]
        private var original: [Unicode.Scalar: Unicode.Scalar] = [:]

        init(for value: YAMLEmitter.Value) {
            var astral: [Unicode.Scalar] = []
            var used = Set<Unicode.Scalar>()
            func visit(_ text: String) {
                for scalar in text.unicodeScalars where scalar.value >= 0xE000 {
                    if scalar.value >= 0x1_0000 { astral.append(scalar) } else { used.insert(scalar) }
                }
            }
            func visit(_ value: YAMLEmitter.Value) {
                switch value {
                case .text(let text), .plain(let text): visit(text)
                case .list(let items): items.forEach(visit)
                case .mapping(let pairs):
                    for pair in pairs {
                        visit(pair.key)
                        visit(pair.value)
                    }
                }
            }
            visit(value)
            var free = (0xE000...0xF8FF).lazy.compactMap(Unicode.Scalar.init).filter { !used.contains($0) }
                .makeIterator()
            for scalar in astral where standIn[scalar] == nil {
                // With more distinct characters than free stand-ins (6,400), the rest stay escaped.
                guard let next = free.next() else { break }
                standIn[scalar] = next
                original[next] = scalar
            }
        }

        /// `text` with its characters outside the Basic Multilingual Plane replaced.
        func replacing(_ text: String) -> String {
            guard !standIn.isEmpty, text.unicodeScalars.contains(where: { $0.value >= 0x1_0000 }) else { return text }
            var replaced = String.UnicodeScalarView()
            for scalar in text.unicodeScalars { replaced.append(standIn[scalar] ?? scalar) }
            return String(replaced)
        }

        /// The emitter's text with the characters put back.
        func restoring(_ text: String) -> String {
            guard !original.isEmpty else { return text }
            var restored = String.UnicodeScalarView()
            for scalar in text.unicodeScalars { restored.append(original[scalar] ?? scalar) }
            return String(restored)
        }
    }

    /// Hands events to the emitter, turning a refusal into an error.
    struct Emit {
        let emitter: UnsafeMutablePointer<yaml_emitter_t>
        let standIns: StandIns

        func callAsFunction(_ make: (inout yaml_event_t) -> Int32) throws(YAMLError) {
            var event = yaml_event_t()
            guard make(&event) == 1 else { throw YAMLEmitter.failure("cannot make a YAML event") }
            // The emitter takes the event over, whether it succeeds or not.
            guard yaml_emitter_emit(emitter, &event) == 1 else {
                let problem = emitter.pointee.problem.map { String(cString: $0) } ?? "the YAML emitter failed"
                throw YAMLEmitter.failure(problem)
            }
        }

        func value(_ value: YAMLEmitter.Value) throws(YAMLError) {
            switch value {
            case .text(let raw):
                // Characters no YAML reader accepts, even escaped (as from a CSV export), are left out.
                let text = YAMLPrintable.removingRefused(from: raw)
                try scalar(text, plainAllowed: !YAMLEmitter.readsAsOtherThanText(text))
            case .plain(let text):
                try scalar(text, plainAllowed: true)
            case .list(let items):
                let flow = items.allSatisfy {
                    switch $0 {
                    case .text, .plain: true
                    case .list, .mapping: false
                    }
                }
                let style = flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE
                try self { yaml_sequence_start_event_initialize(&$0, nil, nil, 1, style) }
                for item in items { try self.value(item) }
                try self { yaml_sequence_end_event_initialize(&$0) }
            case .mapping(let pairs):
                try self { yaml_mapping_start_event_initialize(&$0, nil, nil, 1, YAML_BLOCK_MAPPING_STYLE) }
                for pair in pairs {
                    try scalar(pair.key, plainAllowed: !YAMLEmitter.readsAsOtherThanText(pair.key))
                    try self.value(pair.value)
                }
                try self { yaml_mapping_end_event_initialize(&$0) }
            }
        }

        /// A scalar in the style libyaml picks: plain when allowed and safe, else quoted; text with
        /// line breaks double-quoted, so that each is a visible `\n` and no line of it can look like `---`.
        private func scalar(_ text: String, plainAllowed: Bool) throws(YAMLError) {
            let style = text.contains(where: \.isNewline) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE
            // libyaml wants a pointer even for empty text, so the bytes end with a NUL it does not read.
            var bytes = Array(standIns.replacing(text).utf8) + [0]
            let count = Int32(bytes.count - 1)
            try bytes.withUnsafeMutableBufferPointer { buffer throws(YAMLError) in
                try self {
                    yaml_scalar_event_initialize(
                        &$0, nil, nil, buffer.baseAddress, count, plainAllowed ? 1 : 0, 1, style)
                }
            }
        }
    }
}

private extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
