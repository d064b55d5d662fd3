/// JSON values as a tree, written by ``JSONLDWriter`` (deterministically, and safe to place
/// inside a `<script>` element). Pages write their JSON-LD with the writer directly; this is
/// for the few values made once (the search index's fields).
enum StructuredData: Sendable, Equatable {
    case text(String)
    case number(Double)
    case list([StructuredData])
    /// Members in the order written.
    case object([(String, StructuredData)])

    /// An object whose optional members are left out when nil.
    static func node(_ type: String, _ members: [(String, StructuredData?)]) -> StructuredData {
        var present: [(String, StructuredData)] = [("@type", .text(type))]
        present.reserveCapacity(members.count + 1)
        for (key, value) in members { if let value { present.append((key, value)) } }
        return .object(present)
    }

    /// The JSON text.
    var json: String {
        var writer = JSONLDWriter()
        write(to: &writer)
        return writer.json
    }

    static func == (lhs: StructuredData, rhs: StructuredData) -> Bool {
        lhs.json == rhs.json
    }

    private func write(to writer: inout JSONLDWriter) {
        switch self {
        case .text(let text):
            writer.text(text)
        case .number(let number):
            writer.number(number)
        case .list(let items):
            writer.list { writer in
                for item in items { item.write(to: &writer) }
            }
        case .object(let members):
            writer.object { writer in
                for (key, value) in members {
                    writer.key(key)
                    value.write(to: &writer)
                }
            }
        }
    }
}
