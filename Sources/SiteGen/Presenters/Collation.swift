import Collating
import Foundation

/// Sorting in the site language's collation (ICU's, through ``Collator``), with numbers in
/// titles compared as numbers, and grouping by a title's initial (``TitleInitials``).
public struct Collation: Sendable {
    public let locale: Locale
    /// The language's collation (ICU's), made once for the site.
    private let collator: Collator
    /// Each title's initial, found once for each way a title starts.
    private let initials: TitleInitials

    public init(language: SiteLanguage) {
        locale = language.locale
        collator = Collator(locale: language.locale.identifier)
        initials = TitleInitials(locale: locale, collator: collator)
    }

    /// Whether `lhs` sorts before `rhs`: collation order, "Part 2" before "Part 10".
    public func ordered(_ lhs: String, _ rhs: String) -> ComparisonResult {
        ordered(key(lhs), key(rhs))
    }

    /// A text made ready to be compared many times (a title in a sort): its ICU sort key,
    /// whose bytes compare in the collation's order of the texts.
    public struct Key: Sendable, Hashable {
        fileprivate let bytes: [UInt8]

        /// `text`'s key in `collator`'s collation.
        init(_ text: String, in collator: Collator) {
            bytes = collator.sortKey(text)
        }

        /// Whether this key's text sorts before `other`'s.
        func precedes(_ other: Key) -> Bool {
            bytes.withUnsafeBufferPointer { left in
                other.bytes.withUnsafeBufferPointer { right in Collation.order(left, right) < 0 }
            }
        }
    }

    /// `text`'s key in this collation.
    public func key(_ text: String) -> Key {
        Key(text, in: collator)
    }

    /// The key lists by title sort `title` by: from its first letter or digit
    /// (``sortingText(of:)``), where its initial files it.
    public func titleKey(_ title: String) -> Key {
        key(Self.sortingText(of: title))
    }

    /// ``ordered(_:_:)`` of two keys.
    public func ordered(_ lhs: Key, _ rhs: Key) -> ComparisonResult {
        let order = lhs.bytes.withUnsafeBufferPointer { left in
            rhs.bytes.withUnsafeBufferPointer { right in Self.order(left, right) }
        }
        return order < 0 ? .orderedAscending : order > 0 ? .orderedDescending : .orderedSame
    }

    /// The places of `keys` in ascending order of the keys, equal keys in their given order:
    /// the indices sorted comparing one flat copy of the keys' bytes, so a sort of thousands
    /// of names moves integers, not each key's own array (with a retain and a release).
    public func sortedPlaces(of keys: [Key]) -> [Int] {
        var starts: [Int] = []
        starts.reserveCapacity(keys.count + 1)
        var flat: [UInt8] = []
        flat.reserveCapacity(keys.reduce(0) { $0 + $1.bytes.count })
        for key in keys {
            starts.append(flat.count)
            flat += key.bytes
        }
        starts.append(flat.count)
        return flat.withUnsafeBufferPointer { flat in
            starts.withUnsafeBufferPointer { starts in
                Array(keys.indices).sorted { lhs, rhs in
                    let order = Self.order(
                        UnsafeBufferPointer(rebasing: flat[starts[lhs]..<starts[lhs + 1]]),
                        UnsafeBufferPointer(rebasing: flat[starts[rhs]..<starts[rhs + 1]]))
                    return order != 0 ? order < 0 : lhs < rhs
                }
            }
        }
    }

    /// How two sort keys' bytes compare: negative, zero or positive, a shorter key first when
    /// it is the start of the other.
    private static func order(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(lhs.count, rhs.count)
        if common > 0 {
            let order = memcmp(lhs.baseAddress!, rhs.baseAddress!, common)
            if order != 0 { return Int(order) }
        }
        return lhs.count - rhs.count
    }

    /// `title` from its first letter or digit, as lists by title sort it: leading quotes,
    /// brackets and dots ("'Round Midnight", "(500) Days of Summer", "...And Justice for All")
    /// would sort it among punctuation, before every letter, while ``initial(of:)`` files it
    /// under its first letter (R, 0–9, A): its group would come twice.
    public static func sortingText(of title: String) -> String {
        let scalars = title.unicodeScalars
        guard let first = scalars.first, !CharacterSet.alphanumerics.contains(first) else { return title }
        return String(String.UnicodeScalarView(scalars.drop { !CharacterSet.alphanumerics.contains($0) }))
    }

    /// The index heading for a title: see ``TitleInitials``.
    public func initial(of title: String) -> String {
        initials.initial(of: title)
    }

    /// Whether `initial` (as ``initial(of:)`` gives it) is a Han character: see
    /// ``TitleInitials/isHan(_:)-swift.type.method``.
    static func isHan(_ initial: String) -> Bool {
        TitleInitials.isHan(initial)
    }
}
