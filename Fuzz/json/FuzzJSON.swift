import Foundation

@testable import Mustache

/// libFuzzer entry point for the JSON reader of `sitegen template`.
///
/// Every input must end in a value or a located `JSONError`. An input the reader accepts
/// must also be accepted by Foundation's `JSONDecoder` (which is more lenient: it allows
/// trailing commas and repeated keys), with the same value, except UTF-32LE with a byte
/// order mark, which JSONDecoder cannot read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let value = try Value(json: bytes, path: "data.json")
        // JSONDecoder takes UTF-32LE's byte order mark for UTF-16LE's and rejects the file
        // (JSONSerialization reads it, as the reader does).
        if bytes.starts(with: [0xFF, 0xFE, 0, 0]) { return 0 }
        let foundation: Value
        do {
            foundation = try JSONDecoder().decode(Value.self, from: Data(bytes))
        } catch {
            fatalError("accepted, but Foundation says: \(error)")
        }
        if !same(value, foundation) { fatalError("read \(value), Foundation read \(foundation)") }
    } catch {
        if error.location.line < 1 || error.location.column < 1 { fatalError("bad location: \(error)") }
    }
    return 0
}

/// Equal values, numbers compared by value (the reader makes whole numbers `.int`).
///
/// Beyond 2^53, where doubles are not exact, numbers a unit or two apart count as equal:
/// Foundation truncates long decimals to `Int` (12345678901234567890e-2 becomes
/// 123456789012345678, 777777777777777777.7 becomes 777777777777777777) where the reader
/// rounds them to the nearest double.
private func same(_ lhs: Value, _ rhs: Value) -> Bool {
    switch (lhs, rhs) {
    case (.int(let a), .int(let b)) where a.magnitude > 1 << 53 || b.magnitude > 1 << 53:
        return (Double(a) - Double(b)).magnitude <= 2 * Double(a).ulp
    case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Double(a) == b
    case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
    case (.object(let a), .object(let b)):
        return a.count == b.count && a.allSatisfy { member in b[member.key].map { same(member.value, $0) } ?? false }
    default: return lhs == rhs
    }
}
