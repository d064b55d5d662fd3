import Foundation

/// Sorting by text in `String`'s order, faster: two ASCII strings (nearly every path and file
/// name) are compared as bytes, which gives the same order as `<` at a fraction of its cost;
/// any other pair is compared by `<`. At 100,000 reviews, sorting the output's 139,000 paths
/// and the inputs' 200,000 took a few tenths of a second on one core at the end of a build.
enum StringOrder {
    /// `items` sorted by `key`, as `sorted { key($0) < key($1) }` sorts them.
    static func sorted<Item>(_ items: some Sequence<Item>, by key: (Item) -> String) -> [Item] {
        let keyed = items.map { item in
            let text = key(item)
            return (item: item, text: text, ascii: text.utf8.allSatisfy { $0 < 0x80 })
        }
        return keyed.sorted { left, right in
            guard left.ascii && right.ascii,
                let ordered = left.text.utf8.withContiguousStorageIfAvailable({ l in
                    right.text.utf8.withContiguousStorageIfAvailable { r in
                        let common = min(l.count, r.count)
                        let order = common == 0 ? 0 : memcmp(l.baseAddress!, r.baseAddress!, common)
                        return order != 0 ? order < 0 : l.count < r.count
                    }
                }) ?? nil
            else { return left.text < right.text }
            return ordered
        }.map(\.item)
    }
}
