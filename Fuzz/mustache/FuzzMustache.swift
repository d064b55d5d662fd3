@testable import Mustache

/// libFuzzer entry point for the template engine: parse, then render twice.
///
/// The input is the template, then optionally a NUL byte and JSON data, then more NUL
/// bytes each starting a partial. A partial or parent tag of any name picks one of the
/// partials by its name's bytes, so recursion and layouts are easy to reach. Render limits
/// are lowered so that every input finishes quickly; the engine must end every input in
/// output or a located `TemplateError`, and render the same output twice. The same data
/// with every object keeping renderings must render the same output or error, the first
/// time (recording) and the second (from the records).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMustache(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let parts = UnsafeBufferPointer(start: data, count: size).split(separator: 0, omittingEmptySubsequences: false)
    let value = parts.count > 1 ? (try? Value(json: Array(parts[1]), path: "data.json")) ?? sample : sample
    let partials = parts.dropFirst(2).map { Array($0) }
    let library = TemplateLibrary(
        missingPartials: .fail,
        loader: { name throws(TemplateError) in
            guard !partials.isEmpty else { return nil }
            let index = name.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF } % partials.count
            return try Template(utf8: partials[index], name: name, path: "\(name).mustache")
        },
        limits: RenderLimits(partialDepth: 40, nesting: 100, steps: 100_000, outputBytes: 1 << 20))
    do {
        let template = try Template(utf8: Array(parts[0]), name: "fuzz", path: "fuzz.mustache")
        let first = try template.render(value, partials: library)
        let second = try template.render(value, partials: library)
        if first != second { fatalError("rendering the same template twice gave different output") }
    } catch {
        if error.location.line < 1 || error.location.column < 1 { fatalError("bad location: \(error)") }
    }
    if let template = try? Template(utf8: Array(parts[0]), name: "fuzz", path: "fuzz.mustache") {
        let plain = Result { () throws(TemplateError) in try template.render(value, partials: library) }
        var converted: [ObjectIdentifier: Value] = [:]
        let kept = keepingRenderings(value, &converted)
        for _ in 0..<2 {
            let found = Result { () throws(TemplateError) in try template.render(kept, partials: library) }
            if found != plain { fatalError("kept renderings gave \(found), rendering gave \(plain)") }
        }
    }
    return 0
}

/// The same value with every object keeping renderings; an object met twice (shared) stays
/// one object, so that its records meet other contexts.
private func keepingRenderings(_ value: Value, _ converted: inout [ObjectIdentifier: Value]) -> Value {
    switch value {
    case .array(let items):
        return .array(items.map { keepingRenderings($0, &converted) })
    case .object(let members):
        let identity = ObjectIdentifier(members.storage)
        if let done = converted[identity] { return done }
        var pairs: [(key: String, value: Value)] = []
        for (key, member) in members { pairs.append((key, keepingRenderings(member, &converted))) }
        let kept = Value.object(Object(pairs: pairs, keepsRenderings: true))
        converted[identity] = kept
        return kept
    default:
        return value
    }
}

/// Data for inputs without valid JSON: names a template is likely to use, and one object
/// (`s`) found in three places, under different surroundings.
private let sample: Value = {
    let shared: Value = ["y": "shared", "e": ["b": "own"]]
    return [
        "a": true, "b": false, "c": "<c&'\">", "d": [1, 2.5, "x", ["a": "nested"]], "e": ["a": ["b": "deep"]],
        "f": [], "g": "", "h": 0, "list": [["a": 1, "s": shared], ["a": 2, "s": shared], ["b": 3]], "name": "a",
        "s": shared,
    ]
}()
