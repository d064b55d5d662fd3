import Mustache
import YAML

extension YAMLNode {
    /// The node as template data, resolving plain scalars with the YAML 1.2 core schema.
    public var templateValue: Value {
        switch self {
        case .scalar(let text, let plain, _):
            guard plain else { return .string(text) }
            if isNull { return .null }
            switch text {
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            default: break
            }
            if let number = Int(text) { return .int(number) }
            if text.contains(where: \.isNumber), let number = Double(text), number.isFinite { return .double(number) }
            return .string(text)
        case .sequence(let items, _):
            return .array(items.map(\.templateValue))
        case .mapping(let pairs, _):
            var members: [String: Value] = [:]
            for pair in pairs { members[pair.key.scalarText ?? ""] = pair.value.templateValue }
            return .object(members)
        }
    }
}
