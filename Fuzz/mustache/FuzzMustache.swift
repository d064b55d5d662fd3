@testable import Mustache

/// libFuzzer entry point for the template engine: parse, then render twice.
///
/// The input is the template, then optionally a NUL byte and JSON data, then more NUL
/// bytes each starting a partial. A partial or parent tag of any name picks one of the
/// partials by its name's bytes, so recursion and layouts are easy to reach. Render limits
/// are lowered so that every input finishes quickly; the engine must end every input in
/// output or a located `TemplateError`, and render the same output twice.
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
    return 0
}

/// Data for inputs without valid JSON: names a template is likely to use.
private let sample: Value = [
    "a": true, "b": false, "c": "<c&'\">", "d": [1, 2.5, "x", ["a": "nested"]], "e": ["a": ["b": "deep"]],
    "f": [], "g": "", "h": 0, "list": [["a": 1], ["a": 2], ["b": 3]], "name": "a",
]
