import Foundation
import Mustache
import YAML

extension Diagnostic {
    /// "not valid UTF-8 text" at the first byte of `data` that is not UTF-8 (a line break is
    /// LF, CR or CRLF; columns count characters, a leading byte order mark none), naming the byte.
    static func invalidUTF8(in data: Data, path: String) -> Diagnostic {
        guard let (offset, position) = firstInvalidUTF8(in: data) else {
            return Diagnostic("not valid UTF-8 text", at: SourceLocation(path: path, line: 1, column: 1))
        }
        let byte = String(data[data.startIndex + offset], radix: 16, uppercase: true)
        return Diagnostic(
            "not valid UTF-8 text (byte 0x\(byte.count == 1 ? "0" : "")\(byte)): save the file as UTF-8",
            path: path, position: position)
    }

    /// The offset and position of the first byte that does not start a valid UTF-8 character.
    static func firstInvalidUTF8(in data: Data) -> (Int, TextPosition)? {
        var bytes = data.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        var line = 1
        var column = 1
        var afterCR = false
        while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid(let encoded):
                let first = encoded.first
                if first == 0x0A || first == 0x0D {
                    if !(afterCR && first == 0x0A) { line += 1 }
                    column = 1
                } else if offset > 0 || !encoded.elementsEqual([0xEF, 0xBB, 0xBF]) {
                    column += 1
                }
                afterCR = first == 0x0D
                offset += encoded.count
            case .error:
                return (offset, TextPosition(line: line, column: column))
            case .emptyInput:
                return nil
            }
        }
    }
}
