/// HTML escaping for interpolated values.
public enum HTML {
    /// Escapes `text` (`& < > " '`) into a new string.
    public static func escape(_ text: String) -> String {
        var output = OutputBuffer(capacity: text.utf8.count + 16)
        appendEscaped(text, to: &output)
        return output.text
    }

    /// Appends `text` with `& < > " '` replaced by character references.
    static func appendEscaped(_ text: String, to output: inout OutputBuffer) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { appendEscaped($0, to: &output) }
        if done == nil {
            Array(text.utf8).withUnsafeBufferPointer { appendEscaped($0, to: &output) }
        }
    }

    /// Appends `text` as it is.
    static func append(_ text: String, to output: inout OutputBuffer) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { output.append($0) }
        if done == nil {
            Array(text.utf8).withUnsafeBufferPointer { output.append($0) }
        }
    }

    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout OutputBuffer) {
        var start = 0
        for index in 0..<bytes.count {
            let replacement: StaticString
            switch bytes[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            default: continue
            }
            output.append(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            output.append(UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            start = index + 1
        }
        output.append(UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
    }
}
