import Foundation
import Testing

@testable import SiteGen

@Suite("Invalid UTF-8 in site files")
struct InvalidUTF8Tests {
    @Test(
        "the first bad byte's line and column: lines end at LF, CR or CRLF, columns count characters, a BOM none",
        arguments: [
            ([0xFF], 1, 1, "FF"),
            (Array("title: Am".utf8) + [0xE9] + Array("lie\n".utf8), 1, 10, "E9"),
            (Array("a\r\nb\r\n기생충 ".utf8) + [0xC3], 3, 5, "C3"),
            (Array("a\rb\r".utf8) + [0x80], 3, 1, "80"),
            ([0xEF, 0xBB, 0xBF] + Array("ab".utf8) + [0xED, 0xA0, 0x80], 1, 3, "ED"),
            (Array("a\n\n".utf8) + [0xF4, 0x90, 0x80, 0x80], 3, 1, "F4"),
            (Array("ok\n".utf8) + [0xE2, 0x82], 2, 1, "E2"),
        ] as [([UInt8], Int, Int, String)])
    func position(bytes: [UInt8], line: Int, column: Int, byte: String) {
        #expect(
            Diagnostic.invalidUTF8(in: Data(bytes), path: "content/x.md").description
                == "content/x.md:\(line):\(column): not valid UTF-8 text (byte 0x\(byte)): save the file as UTF-8")
    }
}
