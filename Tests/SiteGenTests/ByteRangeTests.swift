import Testing

@testable import SiteGen

@Suite("serve: the Range and If-Range headers")
struct ByteRangeTests {
    @Test(
        "one range of bytes is read as RFC 9110 says; several ranges, other units and bad syntax ask for the whole file"
    )
    func ranges() {
        let cases: [(String, Int, ByteRange)] = [
            ("bytes=0-9", 100, .part(0..<10)),
            ("bytes=10-", 100, .part(10..<100)),
            ("bytes=-10", 100, .part(90..<100)),
            ("bytes=-1000", 100, .part(0..<100)),
            ("bytes=90-1000", 100, .part(90..<100)),
            ("bytes=99-99", 100, .part(99..<100)),
            ("BYTES=0-0", 100, .part(0..<1)),
            (" bytes=0 - 4 ", 100, .part(0..<5)),
            ("bytes=0-99999999999999999999999", 100, .part(0..<100)),
            ("bytes=-99999999999999999999999", 100, .part(0..<100)),
            ("bytes=100-", 100, .unsatisfiable),
            ("bytes=100-200", 100, .unsatisfiable),
            ("bytes=99999999999999999999999-", 100, .unsatisfiable),
            ("bytes=-0", 100, .unsatisfiable),
            ("bytes=5-3", 100, .whole),
            ("bytes=0-1,5-6", 100, .whole),
            ("bytes=0-1, 5-6", 100, .whole),
            ("bytes=", 100, .whole),
            ("bytes=-", 100, .whole),
            ("bytes=a-b", 100, .whole),
            ("bytes=+1-2", 100, .whole),
            ("bytes=1", 100, .whole),
            ("bytes=0x1-2", 100, .whole),
            ("items=0-9", 100, .whole),
            ("bytes 0-9", 100, .whole),
            ("", 100, .whole),
            ("bytes=0-9", 0, .whole),
            ("bytes=-5", 0, .whole),
        ]
        for (header, length, expected) in cases {
            #expect(ByteRange.of(header, length: length) == expected, "\(header.debugDescription) of \(length)")
        }
    }

    @Test("If-Range lets a range through only for the file's current tag")
    func ifRange() {
        #expect(IfRange.allowsRange(nil, etag: "\"a1\""))
        #expect(IfRange.allowsRange("\"a1\"", etag: "\"a1\""))
        #expect(IfRange.allowsRange(" \"a1\" ", etag: "\"a1\""))
        #expect(!IfRange.allowsRange("\"a2\"", etag: "\"a1\""))
        #expect(!IfRange.allowsRange("W/\"a1\"", etag: "\"a1\""))
        #expect(!IfRange.allowsRange("Wed, 02 Dec 2026 05:00:00 GMT", etag: "\"a1\""))
    }
}
