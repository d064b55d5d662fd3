// A libFuzzer harness for the YAML adapter: Scripts/fuzz yaml [SECONDS].

import YAML

/// libFuzzer's entry: any bytes must give a node, nil or a YAMLError at a real position,
/// never a crash, a hang or unbounded memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func yamlFuzzTest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    do {
        guard let node = try YAMLParser.parse(bytes) else { return 0 }
        check(node, depth: 1)
    } catch {
        precondition(error.position.line >= 1 && error.position.column >= 1, "\(error)")
        precondition(!error.message.isEmpty)
    }
    return 0
}

/// Every node has a real position and the nesting stays within the parser's limit.
func check(_ node: YAMLNode, depth: Int) {
    precondition(node.position.line >= 1 && node.position.column >= 1, "\(node.position)")
    switch node {
    case .scalar:
        break
    case .sequence(let items, _):
        precondition(depth <= 64, "nested \(depth) deep")
        for item in items { check(item, depth: depth + 1) }
    case .mapping(let pairs, _):
        precondition(depth <= 64, "nested \(depth) deep")
        for pair in pairs {
            check(pair.key, depth: depth + 1)
            check(pair.value, depth: depth + 1)
        }
    }
}
