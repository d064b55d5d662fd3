/// What a command accepts on its command line.
public struct ArgumentSpec: Sendable {
    /// Options without a value, such as `--drafts`.
    public var flags: Set<String>
    /// Options that take a value, such as `--port 1313` or `--port=1313`.
    public var options: Set<String>
    /// Options that may be given several times, collecting every value.
    public var repeatable: Set<String>
    /// How many positional arguments are allowed.
    public var positional: ClosedRange<Int>

    public init(
        flags: Set<String> = [], options: Set<String> = [], repeatable: Set<String> = [],
        positional: ClosedRange<Int> = 0...0
    ) {
        self.flags = flags
        self.options = options
        self.repeatable = repeatable
        self.positional = positional
    }
}

/// A command line split into flags, option values and positional arguments.
public struct Arguments: Sendable, Equatable {
    public var flags: Set<String> = []
    public var values: [String: [String]] = [:]
    public var positional: [String] = []

    /// Parses `words` (without the program and command names) against `spec`.
    public init(_ words: [String], spec: ArgumentSpec) throws(UsageError) {
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                positional.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            if name == "-h" { name = "--help" }
            if spec.flags.contains(name) || name == "--help" {
                guard inlineValue == nil else { throw UsageError("option \(name) takes no value") }
                flags.insert(name)
            } else if spec.options.contains(name) || spec.repeatable.contains(name) {
                var value = inlineValue
                if value == nil, index < words.count {
                    value = words[index]
                    index += 1
                }
                guard let value else { throw UsageError("option \(name) needs a value") }
                if spec.repeatable.contains(name) {
                    values[name, default: []].append(value)
                } else {
                    guard values[name] == nil else { throw UsageError("option \(name) given twice") }
                    values[name] = [value]
                }
            } else {
                throw UsageError("unknown option \(name)")
            }
        }
        if flags.contains("--help") { return }
        guard spec.positional.contains(positional.count) else {
            if positional.count > spec.positional.upperBound {
                throw UsageError("unexpected argument \(positional[spec.positional.upperBound])")
            }
            throw UsageError("missing argument")
        }
    }

    /// The single value of an option, if given.
    public func value(_ option: String) -> String? { values[option]?.last }

    public func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// An option's value as a number within `range`.
    public func integer(_ option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                "\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return number
    }
}

/// A command line that cannot be understood: print the usage and exit 64.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
